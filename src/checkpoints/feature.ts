// Takes the checkpoints at the right moments of every session on an agent connection: one when
// a user prompt starts a turn (the reducer's promptStarted: a new turn and status 'working';
// turns replayed by session/load are not prompts), and the settling scan when a turn ends.
// Neither is awaited: a prompt never waits for a checkpoint. A session that works in a worktree
// is checkpointed in its folder (sessionRoots.ts).
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
    // A session in a folder of its own (a worktree) is checkpointed and restored there: its place
    // is told to the store when the session opens (a restore may come before any prompt) and
    // again before each scan.
    const usePlace = (store: CheckpointStore, sessionId: string) => {
      const place = ctx.placeOf?.(sessionId);
      if (place) store.sessionRoots.use(sessionId, place.cwd);
    };
    const opened = ctx.client.onDidChangeSessions(() => {
      const store = this.store();
      if (store) for (const s of ctx.client.sessions()) usePlace(store, s.sessionId);
    });
    const changed =
      ctx.onDidChangeSession?.(({ sessionId, patches }) => {
        const store = this.store();
        if (!store) return;
        usePlace(store, sessionId);
        const working = patches.some((p) => p.op === 'meta' && p.meta.status === 'working');
        for (const p of patches) {
          if (p.op !== 'turn') continue;
          if (p.turn.endedAt === undefined) {
            if (working) store.checkpoint(sessionId, p.turn.index);
          } else void store.settle(sessionId, p.turn.index);
        }
      }) ?? opened;
    return { dispose: () => (opened.dispose(), changed.dispose()) };
  }
}
