// A workspace folder opened through a symlink (macOS /tmp, ~/code -> /Volumes/…): the agent's
// writes resolve to the real path, the scan, the editor and the agent's diffs use the folder's.
// Each file is one entry, under the real path, and a restore sees an editor's unsaved buffer
// whichever form its path has.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyRestore, planRestore } from '../../../src/checkpoints/restore';
import { clockPast, harness, S } from './harness';

test('in a workspace opened through a symlink each change is recorded once, under the real path', async () => {
  const h = await harness(undefined, undefined, { throughLink: true });
  writeFileSync(join(h.ws, 'a.txt'), 'a0\n');
  writeFileSync(join(h.ws, 'b.txt'), 'b0\n');
  writeFileSync(join(h.ws, 'c.txt'), 'c0\n');
  await clockPast(h.ws);
  await h.store.prepare();
  const turn = h.prompt();
  await h.write(join(h.folder, 'a.txt'), 'a1\n'); // the agent names the folder's path
  await h.write('b.txt', 'b1\n'); // relative to the session's cwd (the folder's path)
  execFileSync('sh', ['-c', 'printf c1 > c.txt'], { cwd: h.folder }); // a command
  // An edit applied in the editor (Code · Rename), reported under the editor's path.
  h.tracker.snapshot(S, turn, join(h.folder, 'a.txt'), null, { source: 'write' });
  h.tracker.markApplied(S, turn, join(h.folder, 'a.txt'));
  await h.store.noteSaved(join(h.folder, 'a.txt')); // the editor saved it: the watcher's path
  await h.endTurn();

  const paths = h.tracker.changes(S, turn).map((c) => c.path);
  assert.deepEqual(
    paths.sort(),
    ['a.txt', 'b.txt', 'c.txt'].map((n) => join(h.ws, n)),
  );
  assert.equal(Buffer.from(h.tracker.get(S, turn, join(h.folder, 'a.txt'))!.before!).toString(), 'a0\n');

  const plan = await planRestore(h.store, S, h.store.session(S).timeline.ofTurn(turn)!.id, new Set());
  assert.deepEqual(
    plan.files.map((f) => [f.label, f.action]),
    [
      ['a.txt', 'write'],
      ['b.txt', 'write'],
      ['c.txt', 'write'],
    ],
    'one entry per file, labelled relative to the folder',
  );
});

test('in a workspace opened through a symlink a restore leaves a buffer with unsaved edits alone', async () => {
  const h = await harness(undefined, undefined, { throughLink: true });
  const real = join(h.ws, 'config.json');
  writeFileSync(real, 'v0\n');
  await clockPast(h.ws);
  await h.store.prepare();
  h.prompt();
  await h.write(join(h.folder, 'config.json'), 'v1\n');
  await h.endTurn();

  // The editor has the file open under the folder's path, with unsaved edits.
  const unsaved = new Set([join(h.folder, 'config.json')]);
  const plan = await planRestore(h.store, S, h.store.session(S).timeline.ofTurn(0)!.id, unsaved);
  assert.deepEqual(plan.conflicts, [real]);
  const result = await applyRestore(h.store, plan);
  assert.deepEqual(result.restored, []);
  assert.match(result.skipped[0].reason, /config\.json has unsaved changes/);
  assert.equal(readFileSync(real, 'utf8'), 'v1\n', 'the file under the unsaved buffer is not written');
});

test('checkpoints saved with the folder’s symlinked paths are read back under the real paths', async () => {
  const h = await harness(undefined, undefined, { throughLink: true });
  writeFileSync(join(h.ws, 'a.txt'), 'a0\n');
  await clockPast(h.ws);
  await h.store.prepare();
  h.prompt();
  await h.write(join(h.folder, 'a.txt'), 'a1\n');
  await h.endTurn();
  await h.store.whenIdle();
  // As an earlier version wrote them: every path under the folder's given path.
  const rewrite = (file: string) =>
    writeFileSync(file, readFileSync(file, 'utf8').split(JSON.stringify(h.ws).slice(1, -1)).join(h.folder));
  rewrite(join(h.dir, 'manifest.json'));
  rewrite(join(h.dir, 'sessions', `${S}.jsonl`));

  const r = await h.reopen();
  assert.deepEqual(
    r.tracker.changes(S, 0).map((c) => c.path),
    [join(h.ws, 'a.txt')],
  );
  r.prompt();
  await r.endTurn(); // a scan: the manifest's files are not new, nothing is listed again
  assert.deepEqual(r.tracker.changes(S, 1), []);
  const plan = await planRestore(r.store, S, r.store.session(S).timeline.ofTurn(0)!.id, new Set());
  assert.deepEqual(
    plan.files.map((f) => [f.label, f.action]),
    [['a.txt', 'write']],
  );
});
