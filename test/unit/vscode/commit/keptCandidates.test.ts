// What "Commit Kept Changes…" learns from git about the session's files, in real repositories:
// which have something to commit, which also hold someone else's uncommitted work, which can be
// committed in part (their hunks from the index), which repository each is in; and the index
// helpers the git extension's API has no operation for (staging a patch, putting the index back).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChangeTracker } from '../../../../src/client/changes/changeTracker';
import { applyToIndex, blobIds, saveIndex } from '../../../../src/vscode/commit/commitIndex';
import { commitCandidates, filesByRepository } from '../../../../src/vscode/commit/keptCandidates';
import { partialPatch } from '../../../../src/review/partialPatch';
import { lineDiff, splitLines } from '../../../../src/shared/lineDiff';
import { fixture, put, sh } from '../../worktrees/helpers';

const TEN = Array.from({ length: 10 }, (_, i) => `line ${i + 1}\n`).join('');
const enc = (s: string) => new TextEncoder().encode(s);

/** Records that the agent changed `rel` in turn `turn` of session "s" (before: its bytes then; null: it did not exist). */
function changed(tracker: ChangeTracker, repo: string, rel: string, before: string | Uint8Array | null, turn = 0) {
  const bytes = typeof before === 'string' ? enc(before) : before;
  tracker.snapshot('s', turn, join(repo, rel), bytes, { source: 'write', applied: true });
}

test("the session's files as commit candidates: what is left to commit, others' work, and hunks", async (t) => {
  const { repo } = fixture(t, {
    'a.txt': TEN,
    'b.txt': 'b\n',
    'c.txt': 'c\n',
    'del.txt': 'bye\n',
    'staged.txt': 's\n',
    'undone.txt': 'u\n',
  });
  put(repo, 'bin.dat', Buffer.from([0, 1, 2, 3]));
  sh(repo, 'add', 'bin.dat');
  sh(repo, 'commit', '-q', '-m', 'binary');
  const tracker = new ChangeTracker();
  // Two hunks of the agent's.
  changed(tracker, repo, 'a.txt', TEN);
  put(repo, 'a.txt', TEN.replace('line 2\n', 'line two\n').replace('line 9\n', 'line nine\n'));
  changed(tracker, repo, 'b.txt', 'b\n', 1);
  put(repo, 'b.txt', 'b by the agent\n');
  // The user had changed c.txt before the session: it holds their work too.
  put(repo, 'c.txt', 'c by the user\n');
  changed(tracker, repo, 'c.txt', 'c by the user\n');
  put(repo, 'c.txt', 'c by the user\nand the agent\n');
  changed(tracker, repo, 'new.txt', null);
  put(repo, 'new.txt', 'created\n');
  changed(tracker, repo, 'del.txt', 'bye\n');
  rmSync(join(repo, 'del.txt'));
  changed(tracker, repo, 'bin.dat', Buffer.from([0, 1, 2, 3]));
  put(repo, 'bin.dat', Buffer.from([0, 1, 2, 4]));
  // Staged by the user just as the agent left it: nothing left to commit.
  changed(tracker, repo, 'staged.txt', 's\n');
  put(repo, 'staged.txt', 's by the agent\n');
  sh(repo, 'add', 'staged.txt');
  // Every change undone: not offered.
  changed(tracker, repo, 'undone.txt', 'u\n');
  tracker.setState('s', 0, join(repo, 'undone.txt'), 'reverted');

  const { byTop, outside } = await filesByRepository(tracker, 's');
  assert.deepEqual([[...byTop.keys()], outside], [[repo], []]);
  const got = await commitCandidates(repo, byTop.get(repo)!, tracker, 's');
  const summary = got.map((c) => [c.rel, c.state, c.otherChanges, c.split?.hunks.length ?? 'whole']);
  assert.deepEqual(summary, [
    ['a.txt', 'pending', false, 2],
    ['bin.dat', 'pending', false, 'whole'],
    ['c.txt', 'pending', true, 1],
    ['del.txt', 'pending', false, 'whole'],
    ['new.txt', 'pending', false, 'whole'],
    ['b.txt', 'pending', false, 1],
  ]);
  // The hunks of a file are from the index's text, which already has what the user staged.
  put(repo, 'b.txt', 'b by the agent\nmore\n');
  sh(repo, 'add', 'b.txt');
  put(repo, 'b.txt', 'b by the agent\nmore\nand more\n');
  const again = await commitCandidates(repo, byTop.get(repo)!, tracker, 's');
  assert.deepEqual(
    again.find((c) => c.rel === 'b.txt')?.split?.hunks.map((h) => h.newLines),
    [['and more\n']],
  );
});

test('files in two repositories are grouped by repository; a file in none is set apart', async (t) => {
  const one = fixture(t, { 'x.txt': 'x\n' });
  const two = fixture(t, { 'y.txt': 'y\n' });
  const tracker = new ChangeTracker();
  changed(tracker, one.repo, 'x.txt', 'x\n');
  changed(tracker, two.repo, 'sub/dir/y.txt', null);
  changed(tracker, one.scratch, 'loose.txt', null);
  mkdirSync(join(two.repo, 'sub'), { recursive: true });
  const { byTop, outside } = await filesByRepository(tracker, 's');
  assert.deepEqual([...byTop.keys()].sort(), [one.repo, two.repo].sort());
  assert.deepEqual(outside, [join(one.scratch, 'loose.txt')]);
  // A worktree session commits in its worktree only.
  const wt = await filesByRepository(tracker, 's', two.repo);
  assert.deepEqual([...wt.byTop.keys()], [two.repo]);
  assert.equal(wt.outside.length, 2);
});

test('a patch goes into the index only, and the saved index comes back exactly', async (t) => {
  const { repo } = fixture(t, { 'a.txt': TEN, 'b.txt': 'b\n' });
  put(repo, 'b.txt', 'b staged by the user\n');
  sh(repo, 'add', 'b.txt');
  put(repo, 'a.txt', TEN.replace('line 5\n', 'five\n'));
  const before = { index: sh(repo, 'ls-files', '-s', '--debug'), status: sh(repo, 'status', '--porcelain') };
  const saved = await saveIndex(repo);
  const now = TEN.replace('line 5\n', 'five\n');
  const patch = partialPatch('a.txt', splitLines(TEN), lineDiff(TEN, now).hunks, [0]);
  await applyToIndex(repo, patch);
  assert.equal(sh(repo, 'show', ':a.txt'), TEN.replace('line 5\n', 'five\n'));
  sh(repo, 'add', 'a.txt');
  await saved.restore();
  assert.deepEqual({ index: sh(repo, 'ls-files', '-s', '--debug'), status: sh(repo, 'status', '--porcelain') }, before);
  await assert.rejects(
    applyToIndex(repo, patch.replace('-line 5', '-line 50')),
    /git apply --cached.*patch does not apply/s,
  );
});

test('a file left in conflict by a merge is refused before anything is staged', async (t) => {
  const { repo } = fixture(t, { 'a.txt': 'base\n' });
  sh(repo, 'checkout', '-q', '-b', 'other');
  writeFileSync(join(repo, 'a.txt'), 'theirs\n');
  sh(repo, 'commit', '-q', '-am', 'theirs');
  sh(repo, 'checkout', '-q', 'main');
  writeFileSync(join(repo, 'a.txt'), 'ours\n');
  sh(repo, 'commit', '-q', '-am', 'ours');
  assert.throws(() => sh(repo, 'merge', '-q', 'other'));
  await assert.rejects(blobIds(repo, ['a.txt']), /a\.txt has unresolved merge conflicts/);
});
