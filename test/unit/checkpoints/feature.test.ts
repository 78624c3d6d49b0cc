import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FeatureContext } from '../../../src/client/connection/feature';
import { CheckpointsFeature } from '../../../src/checkpoints/feature';
import { applyRestore, planRestore } from '../../../src/checkpoints/restore';
import { SessionStore } from '../../../src/session/store';
import { clockPast, harness } from './harness';

test('a prompt takes a checkpoint and its end settles the turn; turns replayed by a session load do not', async () => {
  const h = await harness();
  const f = join(h.ws, 'a.txt');
  writeFileSync(f, 'before\n');
  await clockPast(f);
  await h.store.prepare();
  const session = new SessionStore('live');
  const ctx = { onDidChangeSession: (l) => session.onDidChange(l) } as Pick<FeatureContext, 'onDidChangeSession'>;
  const sub = new CheckpointsFeature(() => h.store).attach(ctx as FeatureContext);

  // session/load replays an old turn: the agent speaks before any prompt.
  session.dispatch({
    type: 'update',
    at: Date.now(),
    update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'from history' } },
  });
  assert.deepEqual(h.store.checkpoints('live'), []);

  session.dispatch({ type: 'promptStarted', at: Date.now(), prompt: [{ type: 'text', text: 'go' }] });
  assert.deepEqual(
    h.store.checkpoints('live').map((c) => [c.kind, c.turn]),
    [['prompt', 1]],
  );
  execFileSync('sed', ['-i', 's/before/after/', f]);
  session.dispatch({ type: 'promptEnded', at: Date.now(), stopReason: 'end_turn' });
  await h.store.whenIdle();
  assert.equal(h.tracker.changes('live', 1)[0]?.path, f, 'the settling scan found the command’s change');
  const plan = await planRestore(h.store, 'live', h.store.checkpoints('live')[0].id, new Set());
  await applyRestore(h.store, plan);
  assert.equal(readFileSync(f, 'utf8'), 'before\n');
  sub.dispose();
});
