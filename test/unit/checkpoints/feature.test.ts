import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, utimesSync, writeFileSync } from 'node:fs';
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
  const ctx = {
    onDidChangeSession: (l: Parameters<SessionStore['onDidChange']>[0]) => session.onDidChange(l),
    client: { onDidChangeSessions: () => ({ dispose() {} }), sessions: () => [] },
  } as unknown as FeatureContext;
  const sub = new CheckpointsFeature(() => h.store).attach(ctx);

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

test("a worktree session is checkpointed in its own folder: the folder's first scan is its start, a command's change there is restorable, the workspace is not touched", async () => {
  const h = await harness();
  const place = join(h.ws, '..', 'worktree');
  mkdirSync(place);
  const mine = join(place, 'm.txt');
  const theirs = join(h.ws, 'w.txt');
  writeFileSync(mine, 'worktree before\n');
  writeFileSync(theirs, 'workspace\n');
  await clockPast(mine);
  await h.store.prepare(); // the workspace's first scan
  const session = new SessionStore('wt');
  const opened = new Set<() => void>();
  const ctx = {
    onDidChangeSession: (l: Parameters<SessionStore['onDidChange']>[0]) => session.onDidChange(l),
    placeOf: (id: string) => (id === 'wt' ? { cwd: place, label: 'tandem/x' } : undefined),
    client: {
      onDidChangeSessions: (l: () => void) => (opened.add(l), { dispose: () => opened.delete(l) }),
      sessions: () => [{ sessionId: 'wt' }],
    },
  } as unknown as FeatureContext;
  const sub = new CheckpointsFeature(() => h.store).attach(ctx);
  for (const l of opened) l();
  assert.deepEqual(h.store.sessionRoots.of('wt'), [realpathSync(place)], 'the session opened: its folder is known');

  session.dispatch({ type: 'promptStarted', at: Date.now(), prompt: [{ type: 'text', text: 'go' }] });
  // Touched before the folder's first scan ran: that scan cannot know what the file held before,
  // so it is the session's start, not a change (one taken as new would be deleted by a restore).
  // (Its time set a little after the checkpoint's: the file system's clock is coarse.)
  const at = h.store.checkpoints('wt')[0].at;
  utimesSync(mine, new Date(), new Date(at + 20));
  await h.store.whenIdle();
  assert.deepEqual(h.tracker.changes('wt', 0), [], "the worktree's files as they were are no change of the session");
  execFileSync('sed', ['-i', 's/before/after/', mine]);
  writeFileSync(theirs, 'the user edits the workspace meanwhile\n');
  session.dispatch({ type: 'promptEnded', at: Date.now(), stopReason: 'end_turn' });
  await h.store.whenIdle();
  assert.deepEqual(
    h.tracker.changes('wt', 0).map((c) => c.path),
    [realpathSync(mine)],
    "the settling scan walked the worktree only: the command's change, not the user's workspace edit",
  );
  const plan = await planRestore(h.store, 'wt', h.store.checkpoints('wt')[0].id, new Set());
  await applyRestore(h.store, plan);
  assert.equal(readFileSync(mine, 'utf8'), 'worktree before\n', 'restored in the worktree');
  assert.equal(readFileSync(theirs, 'utf8'), 'the user edits the workspace meanwhile\n', 'the workspace untouched');
  sub.dispose();
});

test("a worktree session's scans leave the workspace's files alone: none is taken as deleted, then as new", async () => {
  const h = await harness();
  const place = join(h.ws, '..', 'worktree');
  mkdirSync(place);
  writeFileSync(join(place, 'm.txt'), 'worktree\n');
  const theirs = join(h.ws, 'w.txt');
  writeFileSync(theirs, 'workspace\n');
  await clockPast(theirs);
  await h.store.prepare();
  // A workspace session's turn runs while the worktree session's scans walk their own folder.
  const live = new SessionStore('live');
  const wt = new SessionStore('wt');
  const ctxOf = (s: SessionStore, placeOf: (id: string) => { cwd: string; label: string } | undefined) =>
    ({
      onDidChangeSession: (l: Parameters<SessionStore['onDidChange']>[0]) => s.onDidChange(l),
      placeOf,
      client: { onDidChangeSessions: () => ({ dispose() {} }), sessions: () => [] },
    }) as unknown as FeatureContext;
  const f = new CheckpointsFeature(() => h.store);
  const subs = [f.attach(ctxOf(live, () => undefined)), f.attach(ctxOf(wt, () => ({ cwd: place, label: 'tandem/x' })))];
  live.dispatch({ type: 'promptStarted', at: Date.now(), prompt: [{ type: 'text', text: 'go' }] });
  wt.dispatch({ type: 'promptStarted', at: Date.now(), prompt: [{ type: 'text', text: 'go' }] });
  await h.store.whenIdle();
  // The workspace session's command changes its file after the worktree session's scan ran.
  execFileSync('sed', ['-i', 's/workspace/changed by a command/', theirs]);
  wt.dispatch({ type: 'promptEnded', at: Date.now(), stopReason: 'end_turn' });
  live.dispatch({ type: 'promptEnded', at: Date.now(), stopReason: 'end_turn' });
  await h.store.whenIdle();
  const [change] = h.tracker.changes('live', 0);
  assert.equal(change?.path, theirs);
  assert.equal(change.before && Buffer.from(change.before).toString(), 'workspace\n', 'what it held before is known');
  const plan = await planRestore(h.store, 'live', h.store.checkpoints('live')[0].id, new Set());
  await applyRestore(h.store, plan);
  assert.equal(readFileSync(theirs, 'utf8'), 'workspace\n', 'a restore brings the file back (it is not deleted)');
  for (const s of subs) s.dispose();
});
