// Turns that end, in every open session of every agent connection (not only the shown one): what
// the prompt queue sends on and what the "agent finished" notification tells. A client feature:
// each connection is followed from its start, and no longer once its scope is disposed.
import type { ClientCapabilities } from '@agentclientprotocol/sdk';
import type { AgentClient } from '../../client/connection/agentClient';
import type { ClientFeature, FeatureContext } from '../../client/connection/feature';
import { Disposable, type IDisposable } from '../../common/disposable';
import { Emitter } from '../../common/event';
import type { TurnOutcome } from '../../session/promptQueue';
import type { SessionChange } from '../../session/store';

export interface TurnEnd {
  client: AgentClient;
  sessionId: string;
  outcome: TurnOutcome;
  /** The failed turn's error. */
  error?: string;
}

export class TurnEnds extends Disposable implements ClientFeature {
  private readonly ended = this._register(new Emitter<TurnEnd>());
  readonly onDidEnd = this.ended.event;

  capabilities(_caps: ClientCapabilities): void {
    /* nothing to advertise: it only follows the connection's sessions */
  }

  attach(ctx: FeatureContext): IDisposable {
    const { client } = ctx;
    return client.onDidChangeSession((c) => {
      const end = turnEnd(c);
      if (end) this.ended.fire({ client, sessionId: c.sessionId, ...end });
    });
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
