// Takes the checkpoints at the right moments of every session on an agent connection: one when
// a user prompt starts a turn (the reducer's promptStarted: a new turn and status 'working';
// turns replayed by session/load are not prompts), and the settling scan when a turn ends.
// Neither is awaited: a prompt never waits for a checkpoint.
import type { ClientCapabilities } from '@agentclientprotocol/sdk';
import type { IDisposable } from '../common/disposable';
import type { ClientFeature, FeatureContext } from '../client/connection/feature';
import type { CheckpointStore } from './checkpointStore';

export class CheckpointsFeature implements ClientFeature {
  /** `store` may not be open yet (it opens from disk at activation): then nothing is taken. */
  constructor(private readonly store: () => CheckpointStore | undefined) {}

  capabilities(_caps: ClientCapabilities): void {
    /* nothing to advertise */
  }

  attach(ctx: FeatureContext): IDisposable {
    return (
      ctx.onDidChangeSession?.(({ sessionId, patches }) => {
        const store = this.store();
        if (!store) return;
        const working = patches.some((p) => p.op === 'meta' && p.meta.status === 'working');
        for (const p of patches) {
          if (p.op !== 'turn') continue;
          if (p.turn.endedAt === undefined) {
            if (working) store.checkpoint(sessionId, p.turn.index);
          } else void store.settle(sessionId, p.turn.index);
        }
      }) ?? { dispose() {} }
    );
  }
}
