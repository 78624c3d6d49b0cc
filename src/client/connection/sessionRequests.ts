// ACP's session methods on one agent connection: session/new, load, resume, fork (unstable), list,
// close, delete, set_mode and set_config_option, each reflected in the connection's SessionSet.
import type { AgentCapabilities, LoadSessionResponse, McpServer, SessionInfo } from '@agentclientprotocol/sdk';
import type { AcpConnection } from '../../acp/connection';
import { errorDetail } from '../../acp/errors';
import { AGENT_METHODS } from '../../acp/methods';
import type { Logger } from '../../common/logger';
import { forkedState } from '../../session/fork';
import type { SessionStore } from '../../session/store';
import { stoppableChild } from '../../shared/subagentRow';
import type { ClientFeature, FeatureContext } from './feature';
import { agentReplayed, forkSupported, sendFork } from './fork';
import { type ForkPoint, forkPointMeta } from './rewind';
import type { SessionPlace } from './sessionPlace';
import type { SessionSet } from './sessionSet';

export interface SessionRequestsDeps {
  set: SessionSet;
  /** Workspace folder: the cwd of sessions without a place. */
  cwd: string;
  /** Other workspace folders, sent where the agent supports additionalDirectories. */
  additionalDirectories?: string[];
  features?: readonly ClientFeature[];
  logger: Logger;
  agentName: string;
  now(): number;
  /** The ACP connection, once started (closed when the agent is gone). */
  connection(): AcpConnection | undefined;
  capabilities(): AgentCapabilities | undefined;
  featureContext(): FeatureContext | undefined;
  /** session/cancel for a working session that is being closed. */
  cancel(sessionId: string): void;
}

export class SessionRequests {
  constructor(private readonly d: SessionRequestsDeps) {}

  /** The open connection; throws when the agent is not running. */
  connection(): AcpConnection {
    const conn = this.d.connection();
    if (!conn || conn.isClosed) throw new Error(`${this.d.agentName} is not running.`);
    return conn;
  }

  /**
   * A new session; with `forkOf`, one that continues that open session's conversation
   * (session/fork, in the source's place), up to `at` if given (Edit and resend: rewind/ForkPoint);
   * with `place`, one that works in that folder.
   */
  async newSession(forkOf?: string, place?: SessionPlace, at?: ForkPoint): Promise<SessionStore> {
    if (forkOf !== undefined) return this.fork(forkOf, at);
    const res = await this.openSession(
      (mcpServers) => this.connection().sendRequest(AGENT_METHODS.session_new, { ...this.folders(place), mcpServers }),
      place,
    );
    this.d.set.setPlace(res.sessionId, place);
    return this.d.set.adopt(res.sessionId, res);
  }

  /** cwd and additionalDirectories of a session/new|load|resume|fork: a place has one folder only. */
  private folders(place: SessionPlace | undefined): { cwd: string; additionalDirectories?: string[] } {
    return place ? { cwd: place.cwd } : { cwd: this.d.cwd, ...this.additionalDirectories() };
  }

  private async fork(sourceId: string, at?: ForkPoint): Promise<SessionStore> {
    const source = this.d.set.get(sourceId);
    if (!source) throw new Error(`Session ${sourceId} is not open.`);
    if (!forkSupported(this.d.capabilities())) throw new Error(`${this.d.agentName} cannot fork sessions.`);
    if (source.state.meta.status === 'working')
      throw new Error(`${this.d.agentName} is still working in this session: fork it when the turn has ended.`);
    const conn = this.connection();
    const place = this.d.set.placeOf(sourceId);
    const res = await this.openSession(
      (mcpServers) =>
        // Forked before the first prompt, nothing of the conversation stays: that is a new session.
        at && !at.messageId
          ? conn.sendRequest(AGENT_METHODS.session_new, { ...this.folders(place), mcpServers })
          : sendFork(conn, { sessionId: sourceId, ...this.folders(place), mcpServers, ...forkPointMeta(at) }),
      place,
    );
    // An agent that answers with an open session's id would have the fork replace that session here.
    if (this.d.set.get(res.sessionId))
      throw new Error(
        `${this.d.agentName} answered session/fork with session ${res.sessionId}, which is open already.`,
      );
    const held = this.d.set.held(res.sessionId);
    const copy = agentReplayed(held) ? undefined : forkedState(source.state, res.sessionId, at?.turn);
    this.d.set.setPlace(res.sessionId, place);
    this.d.set.markFork(res.sessionId, source.state.meta.title || 'an untitled session');
    return this.d.set.adopt(res.sessionId, res, this.d.set.create(res.sessionId, copy));
  }

  /** Reopens a past session (in `place`, if it had one): session/load (history replayed into the view) or session/resume. */
  async loadSession(sessionId: string, place?: SessionPlace): Promise<SessionStore> {
    const existing = this.d.set.get(sessionId);
    if (existing) {
      this.d.set.switchTo(sessionId);
      return existing;
    }
    const caps = this.d.capabilities();
    const conn = this.connection();
    // The store must exist before the answer: the agent replays history as session/update first.
    const store = this.d.set.create(sessionId);
    // Before the answer: the agent may read files or ask permission while it replays.
    this.d.set.setPlace(sessionId, place);
    try {
      const params = { sessionId, ...this.folders(place) };
      const res: LoadSessionResponse | null = await this.openSession<LoadSessionResponse | null>(
        (mcpServers) =>
          caps?.loadSession
            ? conn.sendRequest(AGENT_METHODS.session_load, { ...params, mcpServers })
            : conn.sendRequest(AGENT_METHODS.session_resume, { ...params, mcpServers }),
        place,
        sessionId,
      );
      const opened = this.d.set.adopt(sessionId, res ?? {}, store);
      void this.refreshTitles();
      return opened;
    } catch (err) {
      this.d.set.setPlace(sessionId, undefined);
      this.d.set.discard(store);
      throw err;
    }
  }

  async listSessions(): Promise<SessionInfo[]> {
    if (!this.d.capabilities()?.sessionCapabilities?.list) return [];
    const out: SessionInfo[] = [];
    let cursor: string | undefined;
    // A few pages are plenty for a picker; an agent that pages forever must not hang us.
    for (let page = 0; page < 10; page++) {
      const res = await this.connection().sendRequest(AGENT_METHODS.session_list, {
        cwd: this.d.cwd,
        ...(cursor ? { cursor } : {}),
      });
      out.push(...res.sessions);
      cursor = res.nextCursor ?? undefined;
      if (!cursor) break;
    }
    return out;
  }

  /**
   * The open sessions' titles from session/list: opencode and Kilo name a session only there
   * (after its first turn), never in a session_info_update. One page per folder the open sessions
   * work in (the agent lists the latest first); never throws.
   */
  async refreshTitles(): Promise<void> {
    const conn = this.d.connection();
    if (!conn || conn.isClosed || !this.d.capabilities()?.sessionCapabilities?.list) return;
    const open = this.d.set.all();
    const folders = new Set(open.map((s) => this.d.set.placeOf(s.sessionId)?.cwd ?? this.d.cwd));
    for (const cwd of folders) {
      try {
        const res = await conn.sendRequest(AGENT_METHODS.session_list, { cwd });
        for (const info of res.sessions) {
          const store = this.d.set.get(info.sessionId);
          if (store && info.title) store.dispatch({ type: 'titleListed', at: this.d.now(), title: info.title });
        }
      } catch (err) {
        this.d.logger.debug(`session/list for the sessions' titles failed: ${errorDetail(err)}`);
      }
    }
  }

  /** Closes a session here (and with session/close where the agent supports it). */
  async closeSession(sessionId: string): Promise<void> {
    const store = this.d.set.get(sessionId);
    if (!store) return;
    if (store.state.meta.status === 'working') this.d.cancel(sessionId);
    const conn = this.d.connection();
    if (this.d.capabilities()?.sessionCapabilities?.close && conn && !conn.isClosed) {
      try {
        await conn.sendRequest(AGENT_METHODS.session_close, { sessionId });
      } catch (err) {
        this.d.logger.warn(`session/close ${sessionId} failed: ${errorDetail(err)}`);
      }
    }
    this.d.set.remove(sessionId);
    this.d.set.setPlace(sessionId, undefined);
  }

  /** session/delete, where the agent supports it; closes the session here first. */
  async deleteSession(sessionId: string): Promise<void> {
    await this.closeSession(sessionId);
    if (this.d.capabilities()?.sessionCapabilities?.delete) {
      await this.connection().sendRequest(AGENT_METHODS.session_delete, { sessionId });
    }
  }

  private additionalDirectories(): { additionalDirectories?: string[] } {
    const dirs = this.d.additionalDirectories ?? [];
    return dirs.length && this.d.capabilities()?.sessionCapabilities?.additionalDirectories
      ? { additionalDirectories: dirs }
      : {};
  }

  /**
   * Runs session/new|load|resume with the MCP servers client features add (Tandem's client
   * tools); each feature is told which session its servers ended up serving, or that the request
   * failed so it can release what it prepared. `knownId` names the session when the answer does not.
   */
  private async openSession<R>(
    send: (mcp: McpServer[]) => Promise<R>,
    place: SessionPlace | undefined,
    knownId?: string,
  ): Promise<R> {
    const ctx = this.d.featureContext();
    const caps = this.d.capabilities();
    const sets = ctx
      ? await Promise.all(
          (this.d.features ?? []).filter((f) => f.mcpServers).map((f) => f.mcpServers!(caps, ctx, place)),
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

  /** session/set_mode; the store follows the agent's answer (and any current_mode_update). */
  async setMode(store: SessionStore | undefined, modeId: string): Promise<void> {
    if (!store) return;
    await this.connection().sendRequest(AGENT_METHODS.session_set_mode, { sessionId: store.sessionId, modeId });
    store.dispatch({ type: 'modeChanged', at: this.d.now(), currentModeId: modeId });
  }

  /** session/set_config_option; the agent answers with the full, possibly changed, option list. */
  async setConfigOption(store: SessionStore | undefined, configId: string, value: string | boolean): Promise<void> {
    if (!store) return;
    const params =
      typeof value === 'boolean'
        ? { sessionId: store.sessionId, configId, type: 'boolean' as const, value }
        : { sessionId: store.sessionId, configId, value };
    const res = await this.connection().sendRequest(AGENT_METHODS.session_set_config_option, params);
    store.dispatch({ type: 'configOptionsChanged', at: this.d.now(), configOptions: res.configOptions });
  }

  /**
   * The Stop of a subagent's row: session/cancel on its child session, which ends the child's
   * current work only (where the agent allows it: the child's `cancel` capability). False: nothing to stop.
   */
  stopSubagent(store: SessionStore | undefined, toolCallId: string): boolean {
    const child = stoppableChild(store?.state.toolCalls.get(toolCallId));
    if (!child) return false;
    this.connection().sendNotification(AGENT_METHODS.session_cancel, { sessionId: child });
    return true;
  }
}
