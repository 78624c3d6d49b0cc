// Turns that end, in every open session of the running agent (not only the shown one): what the
// prompt queue sends on and what the "agent finished" notification tells. Follows the controller
// across agent restarts.
import type { AgentClient } from '../client/agentClient';
import { Disposable, type IDisposable } from '../common/disposable';
import { Emitter } from '../common/event';
import type { TurnOutcome } from '../session/promptQueue';
import type { SessionChange } from '../session/store';
import type { Controller } from './controller';

export interface TurnEnd {
  client: AgentClient;
  sessionId: string;
  outcome: TurnOutcome;
  /** The failed turn's error. */
  error?: string;
}

export class TurnEnds extends Disposable {
  private watched?: AgentClient;
  private watch?: IDisposable;
  private readonly ended = this._register(new Emitter<TurnEnd>());
  readonly onDidEnd = this.ended.event;

  constructor(ctl: Controller) {
    super();
    const follow = () => {
      const client = ctl.current;
      if (client === this.watched) return;
      this.watch?.dispose();
      this.watched = client;
      this.watch = client?.onDidChangeSession((c) => {
        const end = turnEnd(c);
        if (end) this.ended.fire({ client, sessionId: c.sessionId, ...end });
      });
    };
    this._register(ctl.onDidChangeAgent(follow));
    this._register(ctl.onDidReplace(follow));
    this._register({ dispose: () => this.watch?.dispose() });
  }
}

/** How a change ended the session's turn, if it did: a turn header with its end, and the session idle. */
export function turnEnd(c: SessionChange): { outcome: TurnOutcome; error?: string } | undefined {
  let ended: { outcome: TurnOutcome; error?: string } | undefined;
  let idle = false;
  for (const p of c.patches) {
    if (p.op === 'turn' && (p.turn.stopReason || p.turn.error))
      ended = p.turn.error
        ? { outcome: 'failed', error: p.turn.error }
        : { outcome: p.turn.stopReason === 'cancelled' ? 'cancelled' : 'ended' };
    else if (p.op === 'meta' && p.meta.status !== undefined) idle = p.meta.status === 'idle';
  }
  return idle ? ended : undefined;
}
