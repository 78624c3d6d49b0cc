// One agent connection: the process, its ACP connection and the sessions on it. This object is
// the connection-lifetime disposal scope: restarting the agent disposes it and builds a new one.
import type {
  AgentCapabilities,
  AuthMethod,
  ClientCapabilities,
  ContentBlock,
  InitializeResponse,
  LoadSessionResponse,
  McpServer,
  SessionInfo,
} from '@agentclientprotocol/sdk';
import { spawnAgent, type AgentExit, type AgentProcess } from '../acp/agentProcess';
import { AcpConnection, AcpError, errorDetail } from '../acp/connection';
import { AGENT_METHODS, CLIENT_METHODS } from '../acp/methods';
import { Disposable } from '../common/disposable';
import { Emitter } from '../common/event';
import type { Logger } from '../common/logger';
import type { AgentView } from '../shared/protocol';
import type { SessionStore } from '../session/store';
import type { AgentConfig } from './agentConfig';
import type { ClientFeature, FeatureContext } from './feature';
import { SessionSet, type SessionSummary } from './sessionSet';

export type { SessionSummary } from './sessionSet';

export const PROTOCOL_VERSION = 1;

export interface AgentClientOptions {
  features?: readonly ClientFeature[];
  agent: AgentConfig;
  /** Workspace folder: the session's cwd and the process's default cwd. */
  cwd: string;
  /** Other workspace folders (multi-root), sent as additionalDirectories where the agent supports it. */
  additionalDirectories?: string[];
  /** Open this session (session/load or session/resume) instead of a new one, when the agent can. */
  resumeSessionId?: string;
  logger: Logger;
  traffic?: (direction: 'in' | 'out', message: unknown) => void;
  clientInfo: { name: string; title?: string; version: string };
  maxLineBytes?: number;
  now?: () => number;
  /**
   * After session/cancel, how long to wait for the agent's `cancelled` answer before ending the
   * turn here (a hung agent must not keep the view busy forever). Default 5000 ms.
   */
  cancelTimeoutMs?: number;
}

/** ACP's "authentication required" error code. */
export const AUTH_REQUIRED = -32000;

export class AgentClient extends Disposable {
  private proc?: AgentProcess;
  private conn?: AcpConnection;
  private view: AgentView;
  private readonly set: SessionSet;
  private init?: InitializeResponse;
  private featureCtx?: FeatureContext;
  /** Turns waiting for the answer to session/cancel: ends them here when the agent never answers. */
  private readonly cancelWaits = new Map<string, { give: () => void; timer?: ReturnType<typeof setTimeout> }>();

  private readonly agentChanged = this._register(new Emitter<AgentView>());
  readonly onDidChangeAgent = this.agentChanged.event;
  private readonly cancelled = this._register(new Emitter<string>());
  /** session/cancel was sent for this session id. */
  readonly onDidCancel = this.cancelled.event;
  /** Patches of the open sessions (each names its session). */
  readonly onDidChangeSession: SessionSet['onDidChangeSession'];
  /** The active session changed (new, loaded, switched to, or the active one closed). */
  readonly onDidReplaceSession: SessionSet['onDidReplaceSession'];
  /** A session was opened or closed, or one's title/status changed: the switcher needs a refresh. */
  readonly onDidChangeSessions: SessionSet['onDidChangeSessions'];
  /** A session was closed (its pending requests are void). */
  readonly onDidCloseSession: SessionSet['onDidCloseSession'];

  constructor(private readonly opts: AgentClientOptions) {
    super();
    this.view = { name: opts.agent.name, state: 'none' };
    this.set = this._register(new SessionSet(opts.logger, () => this.now));
    this.onDidChangeSession = this.set.onDidChangeSession;
    this.onDidReplaceSession = this.set.onDidReplaceSession;
    this.onDidChangeSessions = this.set.onDidChangeSessions;
    this.onDidCloseSession = this.set.onDidCloseSession;
  }

  get agent(): AgentView {
    return this.view;
  }
  /** The active session. */
  get session(): SessionStore | undefined {
    return this.set.active;
  }
  get initializeResult(): InitializeResponse | undefined {
    return this.init;
  }
  get agentCapabilities(): AgentCapabilities | undefined {
    return this.init?.agentCapabilities ?? undefined;
  }
  get authMethods(): AuthMethod[] {
    return this.init?.authMethods ?? [];
  }

  sessions(): SessionSummary[] {
    return this.set.summaries();
  }

  getSession(sessionId: string): SessionStore | undefined {
    return this.set.get(sessionId);
  }
  private get now(): number {
    return (this.opts.now ?? Date.now)();
  }

  /** Spawns the agent, initializes, and opens a first session. Never throws: failures land in `agent`. */
  async start(): Promise<void> {
    const { agent, logger } = this.opts;
    this.setView({ state: 'starting', message: `Starting ${agent.name}…` });
    try {
      const proc = (this.proc = this._register(
        spawnAgent({
          command: agent.command,
          args: agent.args,
          env: agent.env,
          cwd: agent.cwd ?? this.opts.cwd,
          logger,
          name: agent.name,
        }),
      ));
      const conn = (this.conn = this._register(
        new AcpConnection({
          input: proc.stdout,
          output: proc.stdin,
          logger,
          traffic: this.opts.traffic,
          maxLineBytes: this.opts.maxLineBytes,
        }),
      ));
      this._register(proc.onDidExit((exit) => this.onExit(exit)));
      this._register(conn.onNotification(CLIENT_METHODS.session_update, (p) => this.set.update(p)));
      // Advertise only what a registered feature implements.
      const clientCapabilities: ClientCapabilities = {
        fs: { readTextFile: false, writeTextFile: false },
        terminal: false,
      };
      const ctx: FeatureContext = {
        connection: conn,
        logger,
        cwd: this.opts.cwd,
        agentName: agent.name,
        session: (id) => this.set.get(id),
        activeSession: () => this.session,
        onDidCancel: this.onDidCancel,
        onDidCloseSession: this.onDidCloseSession,
        onDidChangeSession: this.onDidChangeSession,
      };
      this.featureCtx = ctx;
      for (const f of this.opts.features ?? []) {
        f.capabilities(clientCapabilities);
        this._register(f.attach(ctx));
      }
      conn.listen();
      const init = (this.init = await conn.sendRequest(AGENT_METHODS.initialize, {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities,
        clientInfo: this.opts.clientInfo,
      }));
      if (init.protocolVersion !== PROTOCOL_VERSION) {
        throw new Error(
          `${agent.name} speaks ACP protocol version ${init.protocolVersion}; Tandem speaks version ${PROTOCOL_VERSION}.`,
        );
      }
      const info = init.agentInfo
        ? { name: init.agentInfo.name, title: init.agentInfo.title ?? undefined, version: init.agentInfo.version }
        : undefined;
      this.setView({ state: 'starting', message: 'Opening a session…', info });
      await this.openFirstSession();
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

  /** Resumes the requested session when possible, else opens a new one; an auth error asks to sign in. */
  private async openFirstSession(): Promise<void> {
    try {
      const id = this.opts.resumeSessionId;
      if (id && this.canReopen()) {
        try {
          await this.loadSession(id);
        } catch (err) {
          this.opts.logger.warn(`Could not reopen session ${id}: ${errorText(err)}; starting a new one`);
          await this.newSession();
        }
      } else {
        await this.newSession();
      }
      this.setView({ state: 'ready', message: undefined, authMethods: undefined });
    } catch (err) {
      if (!isAuthRequired(err)) throw err;
      this.needAuth(err);
    }
  }

  private needAuth(err: unknown): void {
    const methods = this.authMethods;
    this.setView({
      state: 'auth',
      message: `${this.opts.agent.name} needs you to sign in${methods.length ? '' : ' (it offers no sign-in method: sign in with its own tool, then restart the agent)'}. ${errorText(err)}`,
      authMethods: methods.map((m) => ({
        id: m.id,
        name: m.name,
        description: m.description ?? undefined,
        terminal: 'type' in m && m.type === 'terminal',
      })),
    });
  }

  /** `authenticate` with an agent-handled method, then open the session that needed it. */
  async authenticate(methodId: string): Promise<void> {
    await this.requireConnection().sendRequest(AGENT_METHODS.authenticate, { methodId });
    this.setView({ state: 'starting', message: 'Opening a session…' });
    await this.openFirstSession();
  }

  /** session/load replays history into a fresh store; session/resume reopens without replay. */
  canReopen(): boolean {
    const caps = this.agentCapabilities;
    return !!caps?.loadSession || !!caps?.sessionCapabilities?.resume;
  }

  async newSession(): Promise<SessionStore> {
    const res = await this.openSession((mcpServers) =>
      this.requireConnection().sendRequest(AGENT_METHODS.session_new, {
        cwd: this.opts.cwd,
        mcpServers,
        ...this.additionalDirectories(),
      }),
    );
    return this.set.adopt(res.sessionId, res);
  }

  /** Reopens a past session: session/load (history replayed into the view) or session/resume. */
  async loadSession(sessionId: string): Promise<SessionStore> {
    const existing = this.set.get(sessionId);
    if (existing) {
      this.set.switchTo(sessionId);
      return existing;
    }
    const caps = this.agentCapabilities;
    const conn = this.requireConnection();
    // The store must exist before the answer: the agent replays history as session/update first.
    const store = this.set.create(sessionId);
    try {
      const params = { sessionId, cwd: this.opts.cwd, ...this.additionalDirectories() };
      const res: LoadSessionResponse | null = await this.openSession<LoadSessionResponse | null>(
        (mcpServers) =>
          caps?.loadSession
            ? conn.sendRequest(AGENT_METHODS.session_load, { ...params, mcpServers })
            : conn.sendRequest(AGENT_METHODS.session_resume, { ...params, mcpServers }),
        sessionId,
      );
      return this.set.adopt(sessionId, res ?? {}, store);
    } catch (err) {
      this.set.discard(store);
      throw err;
    }
  }

  async listSessions(): Promise<SessionInfo[]> {
    if (!this.agentCapabilities?.sessionCapabilities?.list) return [];
    const out: SessionInfo[] = [];
    let cursor: string | undefined;
    // A few pages are plenty for a picker; an agent that pages forever must not hang us.
    for (let page = 0; page < 10; page++) {
      const res = await this.requireConnection().sendRequest(AGENT_METHODS.session_list, {
        cwd: this.opts.cwd,
        ...(cursor ? { cursor } : {}),
      });
      out.push(...res.sessions);
      cursor = res.nextCursor ?? undefined;
      if (!cursor) break;
    }
    return out;
  }

  switchTo(sessionId: string): void {
    this.set.switchTo(sessionId);
  }

  /** Closes a session here (and with session/close where the agent supports it). */
  async closeSession(sessionId: string): Promise<void> {
    const store = this.set.get(sessionId);
    if (!store) return;
    if (store.state.meta.status === 'working') this.cancel(sessionId);
    if (this.agentCapabilities?.sessionCapabilities?.close && this.conn && !this.conn.isClosed) {
      try {
        await this.conn.sendRequest(AGENT_METHODS.session_close, { sessionId });
      } catch (err) {
        this.opts.logger.warn(`session/close ${sessionId} failed: ${errorText(err)}`);
      }
    }
    this.set.remove(sessionId);
  }

  /** session/delete, where the agent supports it; closes the session here first. */
  async deleteSession(sessionId: string): Promise<void> {
    await this.closeSession(sessionId);
    if (this.agentCapabilities?.sessionCapabilities?.delete) {
      await this.requireConnection().sendRequest(AGENT_METHODS.session_delete, { sessionId });
    }
  }

  private additionalDirectories(): { additionalDirectories?: string[] } {
    const dirs = this.opts.additionalDirectories ?? [];
    return dirs.length && this.agentCapabilities?.sessionCapabilities?.additionalDirectories
      ? { additionalDirectories: dirs }
      : {};
  }

  /** Runs session/new|load|resume with the features' MCP servers, telling them how it went. */
  private async openSession<R>(send: (mcp: McpServer[]) => Promise<R>, knownId?: string): Promise<R> {
    const ctx = this.featureCtx;
    const sets = ctx
      ? await Promise.all(
          (this.opts.features ?? []).filter((f) => f.mcpServers).map((f) => f.mcpServers!(this.agentCapabilities, ctx)),
        )
      : [];
    let res: R;
    try {
      res = await send(sets.flatMap((s) => s.servers));
    } catch (err) {
      for (const s of sets) s.failed?.();
      throw err;
    }
    const id = (res as { sessionId?: string } | null)?.sessionId ?? knownId;
    for (const s of sets)
      if (id) s.opened?.(id);
      else s.failed?.();
    return res;
  }

  /** Sends a prompt and records the turn; resolves when the turn ends. Errors land in the turn. */
  async prompt(content: string | ContentBlock[], sessionId?: string): Promise<void> {
    const store = sessionId ? this.set.get(sessionId) : this.session;
    const conn = this.conn;
    if (!store || !conn || conn.isClosed) return;
    if (store.state.meta.status === 'working') return;
    const prompt: ContentBlock[] = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
    store.dispatch({ type: 'promptStarted', at: this.now, prompt });
    const sent = conn.sendRequest(AGENT_METHODS.session_prompt, { sessionId: store.sessionId, prompt });
    sent.catch(() => {
      /* handled below, or abandoned after an unanswered cancel */
    });
    let giveUp!: () => void;
    const abandoned = new Promise<'abandoned'>((resolve) => {
      giveUp = () => resolve('abandoned');
    });
    this.cancelWaits.set(store.sessionId, { give: giveUp });
    try {
      const res = await Promise.race([sent, abandoned]);
      if (res === 'abandoned') {
        const ms = this.opts.cancelTimeoutMs ?? 5000;
        const message = `${this.opts.agent.name} did not answer the cancel within ${ms} ms: the turn was ended here. Restart the agent if it stays busy.`;
        this.opts.logger.warn(message);
        store.dispatch({ type: 'promptFailed', at: this.now, error: message });
        return;
      }
      store.dispatch({ type: 'promptEnded', at: this.now, stopReason: res.stopReason });
    } catch (err) {
      // A lost agent is reported once, by onExit, for every session.
      if (conn.isClosed && (await this.waitForExit())) return;
      store.dispatch({ type: 'promptFailed', at: this.now, error: errorText(err) });
      if (isAuthRequired(err)) this.needAuth(err);
    } finally {
      const w = this.cancelWaits.get(store.sessionId);
      if (w?.give === giveUp) {
        clearTimeout(w.timer);
        this.cancelWaits.delete(store.sessionId);
      }
    }
  }

  /** session/set_mode; the store follows the agent's answer (and any current_mode_update). */
  async setMode(modeId: string): Promise<void> {
    const store = this.session;
    if (!store) return;
    await this.requireConnection().sendRequest(AGENT_METHODS.session_set_mode, { sessionId: store.sessionId, modeId });
    store.dispatch({ type: 'modeChanged', at: this.now, currentModeId: modeId });
  }

  /** session/set_config_option; the agent answers with the full, possibly changed, option list. */
  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    const store = this.session;
    if (!store) return;
    const params =
      typeof value === 'boolean'
        ? { sessionId: store.sessionId, configId, type: 'boolean' as const, value }
        : { sessionId: store.sessionId, configId, value };
    const res = await this.requireConnection().sendRequest(AGENT_METHODS.session_set_config_option, params);
    store.dispatch({ type: 'configOptionsChanged', at: this.now, configOptions: res.configOptions });
  }

  cancel(sessionId?: string): void {
    const store = sessionId ? this.set.get(sessionId) : this.session;
    if (!store || !this.conn || this.conn.isClosed || store.state.meta.status !== 'working') return;
    this.conn.sendNotification(AGENT_METHODS.session_cancel, { sessionId: store.sessionId });
    const w = this.cancelWaits.get(store.sessionId);
    if (w && !w.timer) w.timer = setTimeout(w.give, this.opts.cancelTimeoutMs ?? 5000);
    // After the notification, as the protocol asks: pending permission prompts answer `cancelled`.
    this.cancelled.fire(store.sessionId);
  }

  private onExit(exit: AgentExit): void {
    if (this.isDisposed) return;
    this.conn?.close(exit.message);
    for (const store of this.set.all()) store.dispatch({ type: 'disconnected', at: this.now, error: exit.message });
    this.opts.logger.error(exit.message);
    this.setView({ state: exit.error ? 'error' : 'exited', message: exit.message });
  }

  /** Resolves with the exit once onExit has handled it, or undefined if the process outlives `ms`. */
  private waitForExit(ms = 1500): Promise<AgentExit | undefined> {
    const proc = this.proc;
    if (!proc) return Promise.resolve(undefined);
    if (proc.exited) return Promise.resolve(proc.exited);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        sub.dispose();
        resolve(undefined);
      }, ms);
      // Registered after onExit's listener, so the session is already marked when this runs.
      const sub = proc.onDidExit((e) => {
        clearTimeout(timer);
        sub.dispose();
        resolve(e);
      });
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
    for (const w of this.cancelWaits.values()) clearTimeout(w.timer);
    this.cancelWaits.clear();
    super.dispose();
  }

  /** Kills the agent and waits until its whole process group is gone. */
  async shutdown(): Promise<void> {
    const proc = this.proc;
    this.dispose();
    await proc?.kill();
  }
}

export function isAuthRequired(err: unknown): boolean {
  return err instanceof AcpError
    ? err.code === AUTH_REQUIRED
    : (err as { code?: unknown } | null)?.code === AUTH_REQUIRED;
}

const errorText = errorDetail;
