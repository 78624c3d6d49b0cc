// One agent connection: the process, its ACP connection and the sessions on it. This object is
// the connection-lifetime disposal scope: restarting the agent disposes it and builds a new one.
import type {
  AgentCapabilities,
  AuthMethod,
  ContentBlock,
  InitializeResponse,
  SessionInfo,
} from '@agentclientprotocol/sdk';
import type { AgentExit, AgentProcess } from '../../acp/agentProcess';
import { type AcpConnection } from '../../acp/connection';
import { errorDetail } from '../../acp/errors';
import { AGENT_METHODS, CLIENT_METHODS } from '../../acp/methods';
import { Disposable } from '../../common/disposable';
import { Emitter } from '../../common/event';
import type { Logger } from '../../common/logger';
import type { SessionStore } from '../../session/store';
import type { AgentConfig } from '../agents/agentConfig';
import { AUTH_STATUS_UPDATE, accountChange, toAuthMethod, type AgentStatus } from './agentStatus';
import { isAuthRequired } from './authRequired';
import { attachFeatures, type ClientFeature, type FeatureContext } from './feature';
import { PromptTurns } from './promptTurns';
import type { SessionPlace } from './sessionPlace';
import { SessionRequests } from './sessionRequests';
import { SessionSet, type SessionSummary } from './sessionSet';
import { steer, type SteerOutcome } from './steering';
import { openTransport, waitForExit } from './transport';

export const PROTOCOL_VERSION = 1;

export interface AgentClientOptions {
  features?: readonly ClientFeature[];
  agent: AgentConfig;
  /** Workspace folder: the process's cwd and the cwd of sessions without a place (sessionPlace.ts). */
  cwd: string;
  /** Other workspace folders (multi-root), sent as additionalDirectories where the agent supports it. */
  additionalDirectories?: string[];
  /** The first session: `resume` reopened when the agent can, else a new one; in `place` if given. */
  firstSession?: { resume?: string; place?: SessionPlace };
  logger: Logger;
  traffic?: (direction: 'in' | 'out', message: unknown) => void;
  clientInfo: { name: string; title?: string; version: string };
  maxLineBytes?: number;
  now?: () => number;
  /** After session/cancel, how long a hung agent may keep the turn before it ends here (5000 ms). */
  cancelTimeoutMs?: number;
}

export class AgentClient extends Disposable {
  private proc?: AgentProcess;
  private conn?: AcpConnection;
  private status: AgentStatus;
  private readonly set: SessionSet;
  private init?: InitializeResponse;
  private featureCtx?: FeatureContext;
  private readonly turns: PromptTurns;
  private readonly requests: SessionRequests;

  private readonly agentChanged = this._register(new Emitter<AgentStatus>());
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
    this.status = { name: opts.agent.name, state: 'none' };
    this.set = this._register(new SessionSet(opts.logger, () => this.now));
    this.requests = new SessionRequests({
      ...opts,
      set: this.set,
      agentName: opts.agent.name,
      now: () => this.now,
      connection: () => this.conn,
      capabilities: () => this.agentCapabilities,
      featureContext: () => this.featureCtx,
      cancel: (sessionId) => this.cancel(sessionId),
    });
    this.turns = this._register(
      new PromptTurns({
        ...opts,
        agentName: opts.agent.name,
        now: () => this.now,
        lost: () => waitForExit(this.proc),
        authRequired: (err) => this.needAuth(err),
      }),
    );
    this.onDidChangeSession = this.set.onDidChangeSession;
    this.onDidReplaceSession = this.set.onDidReplaceSession;
    this.onDidChangeSessions = this.set.onDidChangeSessions;
    this.onDidCloseSession = this.set.onDidCloseSession;
  }

  get agent(): AgentStatus {
    return this.status;
  }
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
    this.setStatus({ state: 'starting', message: `Starting ${agent.name}…` });
    try {
      const transport = openTransport(this.opts);
      const proc = (this.proc = this._register(transport.proc));
      const conn = (this.conn = this._register(transport.conn));
      this._register(this.set.onDidCloseSession((id) => transport.subagents.forget(id)));
      this._register(proc.onDidExit((exit) => this.onExit(exit)));
      this._register(conn.onNotification(CLIENT_METHODS.session_update, (p) => this.set.update(p)));
      this._register(conn.onNotification(AUTH_STATUS_UPDATE, (p) => this.setStatus(accountChange(p))));
      const ctx: FeatureContext = {
        client: this,
        connection: conn,
        logger,
        cwd: this.opts.cwd,
        placeOf: (id) => this.set.placeOf(id),
        agentName: agent.name,
        session: (id) => this.set.get(id),
        activeSession: () => this.session,
        onDidCancel: this.onDidCancel,
        onDidCloseSession: this.onDidCloseSession,
        onDidChangeSession: this.onDidChangeSession,
      };
      this.featureCtx = ctx;
      const clientCapabilities = attachFeatures(this.opts.features ?? [], ctx, (d) => this._register(d));
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
      const ai = init.agentInfo;
      const info = ai ? { name: ai.name, title: ai.title ?? undefined, version: ai.version } : undefined;
      this.setStatus({ state: 'starting', message: 'Opening a session…', info });
      await this.openFirstSession();
    } catch (err) {
      if (this.isDisposed) return;
      // The output closes a moment before the exit is known: wait for it, its message says more.
      const exit = this.conn?.isClosed ? await waitForExit(this.proc) : undefined;
      if (exit) return; // onExit has reported it.
      const message = `Could not start ${agent.name}: ${errorDetail(err)}`;
      logger.error(message);
      this.setStatus({ state: 'error', message });
      this.proc?.dispose();
    }
  }

  /** Resumes the requested session when possible, else opens a new one; an auth error asks to sign in. */
  private async openFirstSession(): Promise<void> {
    try {
      const { resume: id, place } = this.opts.firstSession ?? {};
      if (id && this.canReopen()) {
        try {
          await this.loadSession(id, place);
        } catch (err) {
          this.opts.logger.warn(`Could not reopen session ${id}: ${errorDetail(err)}; starting a new one`);
          await this.newSession(undefined, place);
        }
      } else {
        await this.newSession(undefined, place);
      }
      this.setStatus({ state: 'ready', message: undefined, authMethods: undefined });
    } catch (err) {
      if (!isAuthRequired(err)) throw err;
      this.needAuth(err);
    }
  }

  private needAuth(err: unknown): void {
    const methods = this.authMethods;
    this.setStatus({
      state: 'auth',
      message: `${this.opts.agent.name} needs you to sign in${methods.length ? '' : ' (it offers no sign-in method: sign in with its own tool, then restart the agent)'}. ${errorDetail(err)}`,
      authMethods: methods.map(toAuthMethod),
    });
  }

  /** `authenticate` with an agent-handled method, then open the session that needed it. */
  async authenticate(methodId: string): Promise<void> {
    await this.requests.connection().sendRequest(AGENT_METHODS.authenticate, { methodId });
    this.setStatus({ state: 'starting', message: 'Opening a session…' });
    await this.openFirstSession();
  }

  /** session/load replays history into a fresh store; session/resume reopens without replay. */
  canReopen(): boolean {
    return !!this.agentCapabilities?.loadSession || !!this.agentCapabilities?.sessionCapabilities?.resume;
  }

  /** A new session (in `place`, a folder of its own) or a fork of `forkOf`, maybe up to a point (SessionRequests). */
  newSession(...args: Parameters<SessionRequests['newSession']>): Promise<SessionStore> {
    return this.requests.newSession(...args);
  }
  loadSession(sessionId: string, place?: SessionPlace): Promise<SessionStore> {
    return this.requests.loadSession(sessionId, place);
  }
  listSessions(): Promise<SessionInfo[]> {
    return this.requests.listSessions();
  }
  switchTo(sessionId: string): void {
    this.set.switchTo(sessionId);
  }
  closeSession(sessionId: string): Promise<void> {
    return this.requests.closeSession(sessionId);
  }
  deleteSession(sessionId: string): Promise<void> {
    return this.requests.deleteSession(sessionId);
  }
  setMode(modeId: string): Promise<void> {
    return this.requests.setMode(this.session, modeId);
  }
  setConfigOption(configId: string, value: string | boolean): Promise<void> {
    return this.requests.setConfigOption(this.session, configId, value);
  }

  /** Sends a prompt and records the turn; resolves when the turn ends. Errors land in the turn. */
  async prompt(content: string | ContentBlock[], sessionId?: string): Promise<void> {
    const store = sessionId ? this.set.get(sessionId) : this.session;
    const conn = this.conn;
    if (!store || !conn || conn.isClosed || store.state.meta.status === 'working') return;
    await this.turns.run(conn, store, typeof content === 'string' ? [{ type: 'text', text: content }] : content);
    void this.requests.refreshTitles(); // (a title some agents give in session/list only, after a turn)
  }

  /** `_session/steering`: adds a prompt to the session's running turn (where steeringSupported). */
  steer(sessionId: string, prompt: ContentBlock[]): Promise<SteerOutcome> {
    return steer(this.requests.connection(), sessionId, prompt);
  }

  cancel(sessionId?: string): void {
    const store = sessionId ? this.set.get(sessionId) : this.session;
    if (!store || !this.conn || this.conn.isClosed || store.state.meta.status !== 'working') return;
    this.conn.sendNotification(AGENT_METHODS.session_cancel, { sessionId: store.sessionId });
    this.turns.cancelled(store.sessionId);
    // After the notification, as the protocol asks: pending permission prompts answer `cancelled`.
    this.cancelled.fire(store.sessionId);
  }

  stopSubagent(toolCallId: string): boolean {
    return this.requests.stopSubagent(this.session, toolCallId);
  }
  private onExit(exit: AgentExit): void {
    if (this.isDisposed) return;
    this.conn?.close(exit.message);
    for (const store of this.set.all()) store.dispatch({ type: 'disconnected', at: this.now, error: exit.message });
    this.opts.logger.error(exit.message);
    this.setStatus({ state: exit.error ? 'error' : 'exited', message: exit.message });
  }
  private setStatus(v: Partial<AgentStatus>): void {
    this.status = { ...this.status, ...v };
    this.agentChanged.fire(this.status);
  }

  /** Ends the connection scope: kills the agent's process group, fails pending requests. */
  override dispose(): void {
    if (this.isDisposed) return;
    this.conn?.close('Tandem closed the connection to the agent.');
    super.dispose();
  }

  /** Kills the agent and waits until its whole process group is gone. */
  async shutdown(): Promise<void> {
    const proc = this.proc;
    this.dispose();
    await proc?.kill();
  }
}
