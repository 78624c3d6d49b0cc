import { Emitter } from '../common/event';
import type { Patch, SessionSnapshot } from '../shared/sessionModel';
import type { SessionAction } from './actions';
import type { FullTurn, TurnSource } from '../shared/turnOutline';
import { getToolCall, toSnapshot, turnWithCalls } from './snapshot';
import { createSessionState, reduce, type SessionState } from './reducer';

export interface SessionChange {
  sessionId: string;
  patches: Patch[];
}

/** Holds one session's state; every dispatch runs the pure reducer and announces its patches. */
export class SessionStore implements TurnSource {
  private current: SessionState;
  private readonly changed = new Emitter<SessionChange>();
  readonly onDidChange = this.changed.event;

  /** `initial`: the state it starts from (a fork's copy of its source), else an empty session. */
  constructor(
    readonly sessionId: string,
    private readonly now: () => number = Date.now,
    initial?: SessionState,
  ) {
    this.current = initial ?? createSessionState(sessionId);
  }

  get state(): SessionState {
    return this.current;
  }

  dispatch(action: SessionAction): void {
    const r = reduce(this.current, action);
    this.current = r.state;
    if (r.patches.length) this.changed.fire({ sessionId: this.sessionId, patches: r.patches });
  }

  /** Stamps the current time on an action without one (the reducer itself never reads a clock). */
  timestamp(): number {
    return this.now();
  }

  snapshot(): SessionSnapshot {
    return toSnapshot(this.current);
  }

  fullTurn(index: number): FullTurn | undefined {
    return turnWithCalls(this.current, index);
  }

  turnOfCall(toolCallId: string): number | undefined {
    return getToolCall(this.current, toolCallId)?.turn;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
