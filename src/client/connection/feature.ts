// The contract between the agent connection and the client features (fs, terminals,
// permissions, elicitation, client tools): what a feature advertises, and what it may use of
// the connection it serves.
import type { AgentCapabilities, ClientCapabilities, McpServer } from '@agentclientprotocol/sdk';
import type { AcpConnection } from '../../acp/connection';
import type { IDisposable } from '../../common/disposable';
import type { Event } from '../../common/event';
import type { Logger } from '../../common/logger';
import type { SessionChange, SessionStore } from '../../session/store';
import type { AgentClient } from './agentClient';
import type { SessionPlace } from './sessionPlace';

/** What a client feature (fs, terminals, permissions, …) may use of the connection it serves. */
export interface FeatureContext {
  /** The connection itself, for features that follow its sessions (history, turn ends) rather than serve requests. */
  readonly client: AgentClient;
  readonly connection: AcpConnection;
  readonly logger: Logger;
  /** Workspace folder the sessions without a place run in. */
  readonly cwd: string;
  /** The folder a session works in when it is not the workspace (a worktree): see sessionPlace.ts. */
  placeOf?(sessionId: string): SessionPlace | undefined;
  /** The store of a session on this connection, if it is open. */
  session(sessionId: string): SessionStore | undefined;
  /** The session the view shows (where requests that name no session are shown). */
  activeSession?(): SessionStore | undefined;
  readonly agentName: string;
  /** session/cancel was sent for this session (pending permission prompts must resolve as cancelled). */
  readonly onDidCancel?: Event<string>;
  /** A session was closed or replaced by a new one. */
  readonly onDidCloseSession?: Event<string>;
  /** Patches of any open session on this connection (each names its session). */
  readonly onDidChangeSession?: Event<SessionChange>;
}

/**
 * A capability the client implements: it advertises itself in `initialize` and registers its
 * request handlers on each new connection (disposed with that connection's scope).
 */
export interface ClientFeature {
  capabilities(caps: ClientCapabilities): void;
  attach(ctx: FeatureContext): IDisposable;
  /**
   * MCP servers this feature adds to a session/new (client tools: Tandem's own MCP server).
   * Called after initialize, once per session, with the agent's capabilities (http or stdio) and
   * the session's place, if it works outside the workspace.
   */
  mcpServers?(
    agentCaps: AgentCapabilities | undefined,
    ctx: FeatureContext,
    place?: SessionPlace,
  ): Promise<SessionMcpServers>;
}

/** MCP servers for one session/new, told which session they ended up serving. */
export interface SessionMcpServers {
  servers: McpServer[];
  /** session/new answered with this session id. */
  opened?(sessionId: string): void;
  /** session/new failed: release what was prepared. */
  failed?(): void;
}

/**
 * Attaches every feature to a new connection (`register` takes what each attach returns, for the
 * connection's scope) and returns the client capabilities to advertise in `initialize`: only
 * what an attached feature implements.
 */
export function attachFeatures(
  features: readonly ClientFeature[],
  ctx: FeatureContext,
  register: (d: IDisposable) => void,
): ClientCapabilities {
  const caps: ClientCapabilities = { fs: { readTextFile: false, writeTextFile: false }, terminal: false };
  // claude-agent-acp then sends a subagent's messages too, marked with the Agent call they belong
  // to: the session store puts them under that call (session/subagentMessages.ts).
  caps._meta = { 'subagent-transcript': true };
  // codex-acp and claude-agent-acp then run subagents as child sessions (the draft subagents RFD):
  // the transport shows each inside its root session (subagentSessions.ts).
  (caps as { subagents?: object }).subagents = {};
  for (const f of features) {
    f.capabilities(caps);
    register(f.attach(ctx));
  }
  return caps;
}
