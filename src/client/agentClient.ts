// One agent connection: the process, its ACP connection and the sessions on it. This object is
// the connection-lifetime disposal scope: restarting the agent disposes it and builds a new one.
import type { AgentCapabilities, ClientCapabilities, ContentBlock, InitializeResponse, McpServer, SessionNotification } from '@agentclientprotocol/sdk';
import { spawnAgent, type AgentExit, type AgentProcess } from '../acp/agentProcess';
import { AcpConnection } from '../acp/connection';
import { AGENT_METHODS, CLIENT_METHODS } from '../acp/methods';
import { Disposable, type IDisposable } from '../common/disposable';
import { Emitter, type Event } from '../common/event';
import type { Logger } from '../common/logger';
import type { AgentView } from '../shared/protocol';
import { SessionStore, type SessionChange } from '../session/sessionStore';
import type { AgentConfig } from './agentConfig';

export const PROTOCOL_VERSION = 1;

/** What a client feature (fs, terminals, permissions, …) may use of the connection it serves. */
export interface FeatureContext {
  readonly connection: AcpConnection;
  readonly logger: Logger;
  /** Workspace folder the sessions run in. */
  readonly cwd: string;
  /** The store of a session on this connection, if it is open. */
  session(sessionId: string): SessionStore | undefined;
  readonly agentName: string;
  /** session/cancel was sent for this session (pending permission prompts must resolve as cancelled). */
  readonly onDidCancel?: Event<string>;
  /** A session was closed or replaced by a new one. */
  readonly onDidCloseSession?: Event<string>;
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
   * Called after initialize, once per session, with the agent's capabilities (http or stdio).
   */
  mcpServers?(agentCaps: AgentCapabilities | undefined, ctx: FeatureContext): Promise<SessionMcpServers>;
}

/** MCP servers for one session/new, told which session they ended up serving. */
export interface SessionMcpServers {
  servers: McpServer[];
  /** session/new answered with this session id. */
  opened?(sessionId: string): void;
  /** session/new failed: release what was prepared. */
  failed?(): void;
}

export interface AgentClientOptions {
  features?: readonly ClientFeature[];
  agent: AgentConfig;
  /** Workspace folder: the session's cwd and the process's default cwd. */
  cwd: string;
  logger: Logger;
  traffic?: (direction: 'in' | 'out', message: unknown) => void;
  clientInfo: { name: string; title?: string; version: string };
  maxLineBytes?: number;
  now?: () => number;
}

/** Updates for a session id we don't know yet are held this long in count (session/new race). */
const MAX_EARLY_UPDATES = 1000;

export class AgentClient extends Disposable {
  private proc?: AgentProcess;
  private conn?: AcpConnection;
  private view: AgentView;
  private store?: SessionStore;
  private readonly early: SessionNotification[] = [];
  private init?: InitializeResponse;
  private featureCtx?: FeatureContext;

  private readonly agentChanged = this._register(new Emitter<AgentView>());
  readonly onDidChangeAgent = this.agentChanged.event;
  private readonly sessionChanged = this._register(new Emitter<SessionChange>());
  /** Patches of the current session. */
  readonly onDidChangeSession = this.sessionChanged.event;
  private readonly sessionReplaced = this._register(new Emitter<SessionStore>());
  readonly onDidReplaceSession = this.sessionReplaced.event;
  private readonly cancelled = this._register(new Emitter<string>());
  /** session/cancel was sent for this session id. */
  readonly onDidCancel = this.cancelled.event;
  private readonly sessionClosed = this._register(new Emitter<string>());
  /** A session was replaced by a new one (its pending requests are void). */
  readonly onDidCloseSession = this.sessionClosed.event;

  constructor(private readonly opts: AgentClientOptions) {
    super();
    this.view = { name: opts.agent.name, state: 'none' };
  }

  get agent(): AgentView { return this.view; }
  get session(): SessionStore | undefined { return this.store; }
  get initializeResult(): InitializeResponse | undefined { return this.init; }
  private get now(): number { return (this.opts.now ?? Date.now)(); }

  /** Spawns the agent, initializes, and opens a first session. Never throws: failures land in `agent`. */
  async start(): Promise<void> {
    const { agent, logger } = this.opts;
    this.setView({ state: 'starting', message: `Starting ${agent.name}…` });
    try {
      const proc = this.proc = this._register(spawnAgent({
        command: agent.command, args: agent.args, env: agent.env, cwd: agent.cwd ?? this.opts.cwd, logger, name: agent.name,
      }));
      const conn = this.conn = this._register(new AcpConnection({
        input: proc.stdout, output: proc.stdin, logger, traffic: this.opts.traffic, maxLineBytes: this.opts.maxLineBytes,
      }));
      this._register(proc.onDidExit((exit) => this.onExit(exit)));
      this._register(conn.onNotification(CLIENT_METHODS.session_update, (p) => this.onUpdate(p)));
      // Advertise only what a registered feature implements.
      const clientCapabilities: ClientCapabilities = { fs: { readTextFile: false, writeTextFile: false }, terminal: false };
      const ctx: FeatureContext = {
        connection: conn, logger, cwd: this.opts.cwd, agentName: agent.name,
        session: (id) => (this.store?.sessionId === id ? this.store : undefined),
        onDidCancel: this.onDidCancel, onDidCloseSession: this.onDidCloseSession,
      };
      this.featureCtx = ctx;
      for (const f of this.opts.features ?? []) {
        f.capabilities(clientCapabilities);
        this._register(f.attach(ctx));
      }
      conn.listen();
      const init = this.init = await conn.sendRequest(AGENT_METHODS.initialize, {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities,
        clientInfo: this.opts.clientInfo,
      });
      if (init.protocolVersion !== PROTOCOL_VERSION) {
        throw new Error(`${agent.name} speaks ACP protocol version ${init.protocolVersion}; Tandem speaks version ${PROTOCOL_VERSION}.`);
      }
      const info = init.agentInfo ? { name: init.agentInfo.name, title: init.agentInfo.title ?? undefined, version: init.agentInfo.version } : undefined;
      this.setView({ state: 'starting', message: 'Opening a session…', info });
      await this.newSession();
      this.setView({ state: 'ready', message: undefined });
    } catch (err) {
      if (this.isDisposed) return;
      // The output closes a moment before the exit is known: wait for it, its message says more.
      const exit = this.conn?.isClosed ? await this.waitForExit() : undefined;
      if (exit) return; // onExit has reported it.
      const message = `Could not start ${agent.name}: ${errorText(err)}`;
      logger.error(message);
      this.setView({ state: 'error', message });
      this.proc?.dispose();
    }
  }

  async newSession(): Promise<void> {
    const conn = this.requireConnection();
    const ctx = this.featureCtx;
    const sets = ctx ? await Promise.all((this.opts.features ?? []).filter((f) => f.mcpServers).map((f) => f.mcpServers!(this.init?.agentCapabilities ?? undefined, ctx))) : [];
    let res;
    try {
      res = await conn.sendRequest(AGENT_METHODS.session_new, { cwd: this.opts.cwd, mcpServers: sets.flatMap((s) => s.servers) });
    } catch (err) {
      for (const s of sets) s.failed?.();
      throw err;
    }
    for (const s of sets) s.opened?.(res.sessionId);
    if (this.store) this.sessionClosed.fire(this.store.sessionId);
    this.store?.dispose();
    const store = this.store = new SessionStore(res.sessionId, this.opts.now);
    store.onDidChange((c) => this.sessionChanged.fire(c));
    store.dispatch({
      type: 'started', at: this.now,
      modes: res.modes?.availableModes, currentModeId: res.modes?.currentModeId, configOptions: res.configOptions ?? undefined,
    });
    // Updates that raced ahead of the session/new answer.
    const early = this.early.splice(0).filter((n) => n.sessionId === res.sessionId);
    for (const n of early) store.dispatch({ type: 'update', update: n.update, at: this.now });
    this.sessionReplaced.fire(store);
  }

  /** Sends a prompt and records the turn; resolves when the turn ends. Errors land in the turn. */
  async prompt(content: string | ContentBlock[]): Promise<void> {
    const store = this.store;
    const conn = this.conn;
    if (!store || !conn || conn.isClosed) return;
    if (store.state.meta.status === 'working') return;
    const prompt: ContentBlock[] = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
    store.dispatch({ type: 'promptStarted', at: this.now, prompt });
    try {
      const res = await conn.sendRequest(AGENT_METHODS.session_prompt, { sessionId: store.sessionId, prompt });
      store.dispatch({ type: 'promptEnded', at: this.now, stopReason: res.stopReason });
    } catch (err) {
      // A lost agent is reported once, by onExit, for every session.
      if (conn.isClosed && await this.waitForExit()) return;
      store.dispatch({ type: 'promptFailed', at: this.now, error: errorText(err) });
    }
  }

  /** session/set_mode; the store follows the agent's answer (and any current_mode_update). */
  async setMode(modeId: string): Promise<void> {
    const store = this.store;
    if (!store) return;
    await this.requireConnection().sendRequest(AGENT_METHODS.session_set_mode, { sessionId: store.sessionId, modeId });
    store.dispatch({ type: 'modeChanged', at: this.now, currentModeId: modeId });
  }

  /** session/set_config_option; the agent answers with the full, possibly changed, option list. */
  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    const store = this.store;
    if (!store) return;
    const params = typeof value === 'boolean'
      ? { sessionId: store.sessionId, configId, type: 'boolean' as const, value }
      : { sessionId: store.sessionId, configId, value };
    const res = await this.requireConnection().sendRequest(AGENT_METHODS.session_set_config_option, params);
    store.dispatch({ type: 'configOptionsChanged', at: this.now, configOptions: res.configOptions });
  }

  cancel(): void {
    const store = this.store;
    if (!store || !this.conn || this.conn.isClosed || store.state.meta.status !== 'working') return;
    this.conn.sendNotification(AGENT_METHODS.session_cancel, { sessionId: store.sessionId });
    // After the notification, as the protocol asks: pending permission prompts answer `cancelled`.
    this.cancelled.fire(store.sessionId);
  }

  private onUpdate(n: SessionNotification): void {
    if (this.store && n.sessionId === this.store.sessionId) {
      this.store.dispatch({ type: 'update', update: n.update, at: this.now });
    } else if (!this.store || this.early.length < MAX_EARLY_UPDATES) {
      if (this.store) this.opts.logger.warn(`session/update for unknown session ${n.sessionId}: held until that session opens`);
      this.early.push(n);
    } else {
      this.opts.logger.warn(`session/update for unknown session ${n.sessionId}: dropped`);
    }
  }

  private onExit(exit: AgentExit): void {
    if (this.isDisposed) return;
    this.conn?.close(exit.message);
    this.store?.dispatch({ type: 'disconnected', at: this.now, error: exit.message });
    this.opts.logger.error(exit.message);
    this.setView({ state: exit.error ? 'error' : 'exited', message: exit.message });
  }

  /** Resolves with the exit once onExit has handled it, or undefined if the process outlives `ms`. */
  private waitForExit(ms = 1500): Promise<AgentExit | undefined> {
    const proc = this.proc;
    if (!proc) return Promise.resolve(undefined);
    if (proc.exited) return Promise.resolve(proc.exited);
    return new Promise((resolve) => {
      const timer = setTimeout(() => { sub.dispose(); resolve(undefined); }, ms);
      // Registered after onExit's listener, so the session is already marked when this runs.
      const sub = proc.onDidExit((e) => { clearTimeout(timer); sub.dispose(); resolve(e); });
    });
  }

  private requireConnection(): AcpConnection {
    if (!this.conn || this.conn.isClosed) throw new Error(`${this.opts.agent.name} is not running.`);
    return this.conn;
  }

  private setView(v: Partial<AgentView>): void {
    this.view = { ...this.view, ...v };
    this.agentChanged.fire(this.view);
  }

  /** Ends the connection scope: kills the agent's process group, fails pending requests. */
  override dispose(): void {
    if (this.isDisposed) return;
    this.conn?.close('Tandem closed the connection to the agent.');
    this.store?.dispose();
    super.dispose();
  }

  /** Kills the agent and waits until its whole process group is gone. */
  async shutdown(): Promise<void> {
    const proc = this.proc;
    this.dispose();
    await proc?.kill();
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
