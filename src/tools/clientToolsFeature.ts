// Client tools on one agent connection: a ClientFeature that starts Tandem's MCP server for the
// connection (one bearer token per connection), opens a slot per session/new, passes it in
// `mcpServers` (http when the agent supports it, else a stdio entry running the bundled bridge),
// shows each client tool call in the session's tool-call tree (callUpdates.ts), and asks permission
// through the PermissionPort. Pure: no vscode (src/vscode/ wires settings, the IDE group and the port).
import type { PermissionPort } from '../client/permissions/permissionPort';
import type { AgentCapabilities, McpServer, PermissionOption } from '@agentclientprotocol/sdk';
import type { ClientFeature, FeatureContext, SessionMcpServers } from '../client/connection/feature';
import type { SessionPlace } from '../client/connection/sessionPlace';
import { clientToolTitleText } from '../shared/clientToolTitle';
import { toDisposable, type IDisposable } from '../common/disposable';
import type { Logger } from '../common/logger';
import { CallUpdates } from './callUpdates';
import type { PermissionDecision } from './invoke';
import type { McpToolServer } from './mcp/mcpServer';
import type { ToolSlot } from './mcp/toolSlot';
import type { ToolRegistry } from './registry';
import { MCP_SERVER_NAME, type ToolQuestion, type ToolsConfig } from './types';

export interface ClientToolsOptions {
  registry: ToolRegistry;
  config(): ToolsConfig;
  logger: Logger;
  /** Tandem's permission prompt; one that takes a `signal` can withdraw the prompts of calls that ended. */
  permission?(): PermissionPort | undefined;
  /** How to run dist/mcp-bridge.js for agents without http MCP (node + script path + env). */
  bridge?: { command: string; args: string[]; env?: Array<{ name: string; value: string }> };
  /** User-configured MCP servers (tandem.mcpServers), passed along as they are. */
  userServers?(): McpServer[];
  version?: string;
  now?(): number;
}

// No "Always allow": the broker remembers decisions only for the agent's own prompts, so the
// button would promise what nothing keeps. Permission rules ({ "tool": "Rename" }) still apply.
const PERMISSION_OPTIONS: PermissionOption[] = [
  { optionId: 'allow_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject_once', name: 'Deny', kind: 'reject_once' },
];

/** Extension lifetime: one instance for every connection; `attach` makes the per-connection server. */
export class ClientToolsFeature implements ClientFeature {
  private readonly connections = new Set<ConnectionTools>();

  constructor(private readonly opts: ClientToolsOptions) {}

  capabilities(): void {
    /* MCP rides in session/new; nothing to advertise in initialize. */
  }

  attach(ctx: FeatureContext): IDisposable {
    const c = new ConnectionTools(this.opts, ctx);
    this.connections.add(c);
    return toDisposable(() => {
      this.connections.delete(c);
      c.dispose();
    });
  }

  /**
   * The connection serving `ctx` (AgentClient calls mcpServers on the feature, not the connection).
   * A session with a place (its own worktree) gets tools scoped to that folder (ToolCallContext.place).
   */
  mcpServers(
    caps: AgentCapabilities | undefined,
    ctx: FeatureContext,
    place?: SessionPlace,
  ): Promise<SessionMcpServers> {
    const c = [...this.connections].find((x) => x.ctx === ctx);
    if (!c) return Promise.resolve({ servers: this.opts.userServers?.() ?? [] });
    return c.sessionServers(caps, place);
  }

  /** "Tandem: Reset Client Tools": every open session back to the configured groups. */
  reset(): void {
    for (const c of this.connections) c.reset();
  }
  /** Settings changed: re-check tool lists (list_changed where they differ). */
  refresh(): void {
    for (const c of this.connections) c.refresh();
  }
  /** The servers (tests, the P5 bench). */
  servers(): McpToolServer[] {
    return [...this.connections].map((c) => c.server);
  }
}

class ConnectionTools implements IDisposable {
  readonly server: McpToolServer;
  private readonly listening: Promise<void>;
  /** Each open session's slot: several sessions of one agent run at once (tabs, worktrees). */
  private readonly slots = new Map<string, ToolSlot>();
  private readonly closing: IDisposable | undefined;
  private readonly rows: CallUpdates;

  constructor(
    private readonly opts: ClientToolsOptions,
    readonly ctx: FeatureContext,
  ) {
    this.rows = new CallUpdates(ctx, opts.now);
    // The MCP SDK loads with the first agent connection, not at extension activation.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronous lazy load, see above
    const { McpToolServer: Server } = require('./mcp/mcpServer') as typeof import('./mcp/mcpServer');
    this.server = new Server({
      registry: opts.registry,
      config: opts.config,
      logger: ctx.logger,
      version: opts.version,
    });
    this.listening = this.server.listen();
    this.listening.catch((err) => ctx.logger.error(`Client tools: the MCP server could not start: ${err}`));
    this.closing = ctx.onDidCloseSession?.((sessionId) => {
      this.slots.get(sessionId)?.dispose();
      this.slots.delete(sessionId);
    });
  }

  async sessionServers(caps: AgentCapabilities | undefined, place?: SessionPlace): Promise<SessionMcpServers> {
    const user = filterUserServers(this.opts.userServers?.() ?? [], caps, this.ctx.logger);
    try {
      await this.listening;
    } catch {
      return { servers: user };
    }
    const slot = this.server.openSlot({
      requestPermission: (sid, call) => this.askPermission(sid, call),
      permission: () => this.opts.permission?.(),
      observer: (sid) => this.rows.observer(sid),
      isAlive: (sid) => sid === undefined || !!this.ctx.session(sid),
      ...(place ? { place } : {}),
    });
    const entry = this.entry(slot, caps);
    if (!entry) {
      slot.dispose();
      return { servers: user };
    }
    return {
      servers: [entry, ...user.filter((s) => s.name !== MCP_SERVER_NAME)],
      opened: (sessionId) => {
        slot.bind(sessionId);
        // The same id again (a reload of a session still open): its older slot is done.
        const prev = this.slots.get(sessionId);
        this.slots.set(sessionId, slot);
        if (prev !== slot) prev?.dispose();
      },
      failed: () => slot.dispose(),
    };
  }

  private entry(slot: ToolSlot, caps: AgentCapabilities | undefined): McpServer | undefined {
    if (caps?.mcpCapabilities?.http) {
      return {
        type: 'http',
        name: MCP_SERVER_NAME,
        url: slot.url,
        headers: [{ name: 'Authorization', value: `Bearer ${this.server.token}` }],
      };
    }
    const b = this.opts.bridge;
    if (!b) {
      this.ctx.logger.warn(
        `Client tools: ${this.ctx.agentName} supports no http MCP servers and no stdio bridge is configured.`,
      );
      return undefined;
    }
    return {
      name: MCP_SERVER_NAME,
      command: b.command,
      args: b.args,
      env: [
        ...(b.env ?? []),
        { name: 'TANDEM_MCP_URL', value: slot.url },
        { name: 'TANDEM_MCP_TOKEN', value: this.server.token },
      ],
    };
  }

  reset(): void {
    for (const s of this.server.allSlots()) s.reset();
  }
  refresh(): void {
    for (const s of this.server.allSlots()) s.state.refresh();
  }

  /** `question`: the tool's own words (Rename: what to what, how many edits in which files), else the call's title. */
  private async askPermission(
    sessionId: string | undefined,
    call: {
      callId: string;
      group: string;
      tool: { name: string };
      args: Record<string, unknown>;
      signal: AbortSignal;
      question?: ToolQuestion;
    },
  ): Promise<PermissionDecision> {
    const port = this.opts.permission?.();
    if (!port || !sessionId) return 'deny';
    const { callId, group, args, question } = call;
    const tool = call.tool.name;
    // The call's row, found or added now: the prompt names it, and the agent's own row says what
    // the user answered the agent's prompt for this call, if it asked one.
    const rowId = this.rows.showNow(callId) ?? callId;
    // The agent asked the user about this very call (Claude Code asks before each MCP call in its
    // default mode) and the user allowed it: asking the same again would be a second click for nothing.
    if (this.rows.allowedByUser(callId)) return 'allow';
    const paths = question?.paths ?? [];
    const outcome = await port.request(
      sessionId,
      {
        toolCallId: rowId,
        title: question?.text ?? clientToolTitleText({ group, tool, args }),
        // A question about the files a call changes is an edit of them: rules about those paths apply.
        kind: paths.length ? 'edit' : 'other',
        status: 'pending',
        rawInput: args,
        ...(paths.length ? { locations: paths.map((path) => ({ path })) } : {}),
        _meta: { tandem: { group, tool, args, ...(question ? { question: question.text } : {}) } },
      },
      PERMISSION_OPTIONS,
      call.signal,
    );
    if (outcome.outcome !== 'selected') return 'cancelled';
    const opt = PERMISSION_OPTIONS.find((o) => o.optionId === outcome.optionId);
    return opt?.kind.startsWith('allow') ? 'allow' : 'deny';
  }

  dispose(): void {
    this.closing?.dispose();
    this.server.dispose();
  }
}

/** Keeps user servers the agent can use (http/sse need the capability). */
export function filterUserServers(
  servers: McpServer[],
  caps: AgentCapabilities | undefined,
  logger: Logger,
): McpServer[] {
  return servers.filter((s) => {
    if ('type' in s && s.type === 'http' && !caps?.mcpCapabilities?.http) {
      logger.warn(`MCP server "${s.name}" (http) skipped: the agent does not support http MCP servers.`);
      return false;
    }
    if ('type' in s && s.type === 'sse' && !caps?.mcpCapabilities?.sse) {
      logger.warn(`MCP server "${s.name}" (sse) skipped: the agent does not support sse MCP servers.`);
      return false;
    }
    return true;
  });
}
