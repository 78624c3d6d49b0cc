// The sessions open on one agent connection: their stores, which one the view shows, and the
// updates that arrive for a session before its session/new (or load) answer does.
import type { NewSessionResponse, SessionNotification } from '@agentclientprotocol/sdk';
import { Disposable } from '../../common/disposable';
import { Emitter } from '../../common/event';
import type { Logger } from '../../common/logger';
import type { SessionState } from '../../session/reducer';
import type { SessionPlace } from './sessionPlace';
import { SessionStore, type SessionChange } from '../../session/store';

/** Updates for a session id we don't know yet are held this long in count (session/new race). */
const MAX_EARLY_UPDATES = 1000;

/** One open session as the session switcher shows it. */
export interface SessionSummary {
  sessionId: string;
  title?: string;
  status: string;
  turns: number;
  /** The session works in a folder of its own (sessionPlace.ts): its label (a worktree's branch). */
  place?: string;
  /** The session was forked from another: how that one was named when it was forked. */
  forkOf?: string;
}

export class SessionSet extends Disposable {
  private readonly stores = new Map<string, SessionStore>();
  private activeId?: string;
  private readonly early: SessionNotification[] = [];
  /** Sessions that work in a folder of their own instead of the workspace. */
  private readonly places = new Map<string, SessionPlace>();
  /** Forked sessions: the name of the session each was forked from. */
  private readonly forks = new Map<string, string>();

  private readonly sessionChanged = this._register(new Emitter<SessionChange>());
  /** Patches of any open session (each names its session). */
  readonly onDidChangeSession = this.sessionChanged.event;
  private readonly sessionReplaced = this._register(new Emitter<SessionStore>());
  /** The active session changed (new, loaded, switched to, or the active one closed). */
  readonly onDidReplaceSession = this.sessionReplaced.event;
  private readonly sessionsChanged = this._register(new Emitter<void>());
  /** A session was opened or closed, or one's title/status changed: the switcher needs a refresh. */
  readonly onDidChangeSessions = this.sessionsChanged.event;
  private readonly sessionClosed = this._register(new Emitter<string>());
  /** A session was closed (its pending requests are void). */
  readonly onDidCloseSession = this.sessionClosed.event;

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {
    super();
  }

  get active(): SessionStore | undefined {
    return this.activeId ? this.stores.get(this.activeId) : undefined;
  }
  get(sessionId: string): SessionStore | undefined {
    return this.stores.get(sessionId);
  }
  all(): SessionStore[] {
    return [...this.stores.values()];
  }

  summaries(): SessionSummary[] {
    return this.all().map((st) => {
      const m = st.state.meta;
      const place = this.places.get(st.sessionId)?.label;
      const forkOf = this.forks.get(st.sessionId);
      return {
        sessionId: st.sessionId,
        title: m.title,
        status: m.status,
        turns: st.state.turns.length,
        ...(place ? { place } : {}),
        ...(forkOf !== undefined ? { forkOf } : {}),
      };
    });
  }

  /** `sessionId` was forked from a session named `from` (its title, or "an untitled session"). */
  markFork(sessionId: string, from: string): void {
    this.forks.set(sessionId, from);
  }

  placeOf(sessionId: string): SessionPlace | undefined {
    return this.places.get(sessionId);
  }
  /** Set before session/new|load is answered: the agent may read files or ask permission meanwhile. */
  setPlace(sessionId: string, place: SessionPlace | undefined): void {
    if (place) this.places.set(sessionId, place);
    else this.places.delete(sessionId);
  }

  /** A store for a session being opened (session/load replays into it before the answer); `initial`: a fork's copy. */
  create(sessionId: string, initial?: SessionState): SessionStore {
    const store = new SessionStore(sessionId, this.now, initial);
    this.stores.set(sessionId, store);
    let lastStatus = store.state.meta.status;
    let lastTitle = store.state.meta.title;
    store.onDidChange((c) => {
      this.sessionChanged.fire(c);
      const m = store.state.meta;
      if (m.status !== lastStatus || m.title !== lastTitle) {
        lastStatus = m.status;
        lastTitle = m.title;
        this.sessionsChanged.fire();
      }
    });
    return store;
  }

  /** A session that failed to open: forgotten. */
  discard(store: SessionStore): void {
    if (this.stores.get(store.sessionId) === store) {
      this.stores.delete(store.sessionId);
      this.places.delete(store.sessionId);
    }
    store.dispose();
  }

  /** The updates held for a session not open yet (what the agent sent before answering). */
  held(sessionId: string): SessionNotification[] {
    return this.early.filter((n) => n.sessionId === sessionId);
  }

  /** The agent answered session/new|load|resume: the session starts and becomes the active one. */
  adopt(sessionId: string, res: Partial<NewSessionResponse>, existing?: SessionStore): SessionStore {
    const store = existing ?? this.create(sessionId);
    store.dispatch({
      type: 'started',
      at: this.now(),
      modes: res.modes?.availableModes,
      currentModeId: res.modes?.currentModeId,
      configOptions: res.configOptions ?? undefined,
    });
    // Updates that raced ahead of the answer.
    const early = this.held(sessionId);
    if (early.length) {
      this.early.splice(0, this.early.length, ...this.early.filter((n) => n.sessionId !== sessionId));
      for (const n of early) store.dispatch({ type: 'update', update: n.update, at: this.now() });
    }
    this.activeId = sessionId;
    this.sessionReplaced.fire(store);
    this.sessionsChanged.fire();
    return store;
  }

  switchTo(sessionId: string): void {
    const store = this.stores.get(sessionId);
    if (!store || this.activeId === sessionId) return;
    this.activeId = sessionId;
    this.sessionReplaced.fire(store);
    this.sessionsChanged.fire();
  }

  /** Forgets a closed session; the most recent other one becomes active if it was. */
  remove(sessionId: string): void {
    const store = this.stores.get(sessionId);
    if (!store) return;
    this.stores.delete(sessionId);
    this.places.delete(sessionId);
    this.forks.delete(sessionId);
    this.sessionClosed.fire(sessionId);
    store.dispose();
    if (this.activeId === sessionId) {
      this.activeId = [...this.stores.keys()].pop();
      const next = this.active;
      if (next) this.sessionReplaced.fire(next);
    }
    this.sessionsChanged.fire();
  }

  /** A session/update: into its store, or held until the session opens. */
  update(n: SessionNotification): void {
    const store = this.stores.get(n.sessionId);
    if (store) {
      store.dispatch({ type: 'update', update: n.update, at: this.now() });
    } else if (this.early.length < MAX_EARLY_UPDATES) {
      this.logger.debug(`session/update for session ${n.sessionId}, not open yet: held until it opens`);
      this.early.push(n);
    } else {
      this.logger.warn(`session/update for unknown session ${n.sessionId}: dropped`);
    }
  }

  override dispose(): void {
    if (this.isDisposed) return;
    for (const store of this.stores.values()) store.dispose();
    super.dispose();
  }
}
