import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type ApplyMode, WorktreeError, abortApply, apply, createWorktree } from '../../../src/worktrees/worktrees';
import { fixture, headOf, identity, put, read, sh, userState } from './helpers';

const files = { 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'b\n', 'c.txt': 'c\n', '.gitignore': '*.log\n' };
const make = (repo: string, parent: string, name: string) =>
  createWorktree({ repoRoot: repo, parentDir: parent, name, carryChanges: false });
const commitIn = (cwd: string, message: string) => {
  sh(cwd, 'add', '-A');
  sh(cwd, 'commit', '-q', '-m', message);
};
const stages = (repo: string) =>
  sh(repo, 'ls-files', '-u')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split(/\s+/)[2])
    .join(',');

test("merge brings the branch's commits and its uncommitted work into the user's branch with a merge commit", async (t) => {
  const { repo, parent } = fixture(t, files);
  const s = await make(repo, parent, 'merge me');
  put(s.path, 'b.txt', 'b by the agent\n');
  commitIn(s.path, 'agent: b');
  put(s.path, 'a.txt', 'one\ntwo\nthree\nfour\n'); // uncommitted
  put(s.path, 'new/file.ts', 'export {};\n'); // untracked
  put(repo, 'c.txt', 'the user is editing c\n'); // not touched by the session: may stay dirty

  const r = await apply(s, 'merge', { identity });
  assert.deepEqual(r, { applied: true, conflicts: [], message: 'Merged tandem/merge-me (3 files).' });
  assert.equal(read(repo, 'a.txt'), 'one\ntwo\nthree\nfour\n');
  assert.equal(read(repo, 'b.txt'), 'b by the agent\n');
  assert.equal(read(repo, 'new/file.ts'), 'export {};\n');
  assert.equal(read(repo, 'c.txt'), 'the user is editing c\n');
  assert.equal(sh(repo, 'status', '--porcelain'), ' M c.txt\n');
  assert.equal(sh(repo, 'rev-list', '--parents', '-n', '1', 'HEAD').trim().split(' ').length, 3);
  assert.equal(sh(repo, 'log', '-1', '--format=%s').trim(), 'Tandem: merge session merge me (tandem/merge-me)');
  assert.equal(sh(s.path, 'status', '--porcelain'), ''); // its uncommitted work was committed first

  const again = await apply(s, 'merge', { identity });
  assert.equal(again.applied, false);
  assert.match(again.message, /^Nothing to apply/);
});

test('two sessions editing the same line: the second merge stops with the file in conflict, and abortApply restores the tree', async (t) => {
  const { repo, parent } = fixture(t, files);
  const first = await make(repo, parent, 'first');
  const second = await make(repo, parent, 'second');
  put(first.path, 'a.txt', 'one\nTWO from first\nthree\n');
  put(second.path, 'a.txt', 'one\nTWO from second\nthree\n');
  put(second.path, 'b.txt', 'b from second\n');

  assert.equal((await apply(first, 'merge', { identity })).applied, true);
  const afterFirst = userState(repo);
  const r = await apply(second, 'merge', { identity });
  assert.equal(r.applied, false);
  assert.deepEqual(r.conflicts, ['a.txt']);
  assert.match(r.message, /left 1 conflicted file:/);
  const text = read(repo, 'a.txt');
  assert.match(text, /^<<<<<<< HEAD\nTWO from first\n=======\nTWO from second\n>>>>>>> tandem\/second\n/m);
  assert.equal(stages(repo), '1,2,3'); // base, ours, theirs: what the merge editor opens

  await abortApply(repo);
  assert.deepEqual(userState(repo), afterFirst);
  await assert.rejects(
    abortApply(repo),
    (err: unknown) => err instanceof WorktreeError && err.code === 'nothingToAbort',
  );
});

test("cherry-pick takes the branch's commits only, and a conflicting one can be aborted", async (t) => {
  const { repo, parent } = fixture(t, files);
  const s = await make(repo, parent, 'pick');
  put(s.path, 'b.txt', 'b picked\n');
  commitIn(s.path, 'agent: b');
  put(s.path, 'c.txt', 'c picked\n');
  commitIn(s.path, 'agent: c');
  put(s.path, 'a.txt', 'left behind\n'); // uncommitted: not part of a cherry-pick

  const r = await apply(s, 'cherry-pick', { identity });
  assert.equal(r.applied, true);
  assert.match(r.message, /Cherry-picked 2 commits\. The worktree has uncommitted changes; they are not included/);
  assert.deepEqual(sh(repo, 'log', '--format=%s', '-3').trim().split('\n'), ['agent: c', 'agent: b', 'initial']);
  assert.equal(read(repo, 'a.txt'), 'one\ntwo\nthree\n');
  assert.equal(sh(repo, 'status', '--porcelain'), '');

  const other = await make(repo, parent, 'pick conflict'); // from the new HEAD
  put(other.path, 'b.txt', 'b from the other session\n');
  commitIn(other.path, 'other: b');
  put(repo, 'b.txt', 'b committed by the user meanwhile\n');
  commitIn(repo, 'user: b');
  const before = userState(repo);
  const c = await apply(other, 'cherry-pick', { identity });
  assert.deepEqual([c.applied, c.conflicts], [false, ['b.txt']]);
  assert.match(read(repo, 'b.txt'), /<<<<<<< HEAD/);
  await abortApply(repo);
  assert.deepEqual(userState(repo), before);
});

test("'uncommitted' applies the whole diff (commits, edits, new and deleted files) as staged changes, without a commit", async (t) => {
  const { repo, parent } = fixture(t, files);
  const s = await make(repo, parent, 'as changes');
  put(s.path, 'b.txt', 'b committed on the branch\n');
  commitIn(s.path, 'agent: b');
  put(s.path, 'a.txt', 'one\ntwo\nthree\nfour\n');
  rmSync(join(s.path, 'c.txt'));
  put(s.path, 'fresh/new.txt', 'untracked in the worktree\n');
  put(s.path, 'debug.log', 'ignored: stays behind\n');
  const head = headOf(repo);

  const r = await apply(s, 'uncommitted');
  assert.deepEqual(r, { applied: true, conflicts: [], message: 'Applied 4 files as staged changes.' });
  assert.equal(headOf(repo), head);
  assert.equal(read(repo, 'a.txt'), 'one\ntwo\nthree\nfour\n');
  assert.equal(read(repo, 'b.txt'), 'b committed on the branch\n');
  assert.equal(read(repo, 'fresh/new.txt'), 'untracked in the worktree\n');
  assert.equal(existsSync(join(repo, 'c.txt')), false);
  assert.equal(existsSync(join(repo, 'debug.log')), false);
  assert.deepEqual(sh(repo, 'status', '--porcelain').trim().split('\n').sort(), [
    'A  fresh/new.txt',
    'D  c.txt',
    'M  a.txt',
    'M  b.txt',
  ]);
  // The worktree itself is untouched by the apply.
  assert.equal(sh(s.path, 'status', '--porcelain'), ' M a.txt\n D c.txt\n?? fresh/\n');
  assert.equal(read(s.path, 'debug.log'), 'ignored: stays behind\n');
});

test("'uncommitted' over a line the user changed since leaves conflict markers and index stages", async (t) => {
  const { repo, parent } = fixture(t, files);
  const s = await make(repo, parent, 'as changes conflict');
  put(s.path, 'a.txt', 'one\nTWO from the session\nthree\n');
  put(s.path, 'b.txt', 'b from the session\n');
  put(repo, 'a.txt', 'one\nTWO from the user\nthree\n');
  commitIn(repo, 'user: a');

  const r = await apply(s, 'uncommitted');
  assert.equal(r.applied, false);
  assert.deepEqual(r.conflicts, ['a.txt']);
  assert.match(read(repo, 'a.txt'), /<<<<<<< ours\nTWO from the user\n=======\nTWO from the session\n>>>>>>> theirs\n/);
  assert.equal(stages(repo), '1,2,3');
  assert.equal(read(repo, 'b.txt'), 'b from the session\n'); // the rest applied
});

test("every mode refuses, naming the files, when the user has uncommitted changes to a file it touches, and the user's tree stays as it was", async (t) => {
  const { repo, parent } = fixture(t, files);
  const s = await make(repo, parent, 'refused');
  put(s.path, 'a.txt', 'one\nsession\nthree\n');
  put(s.path, 'out.log', 'the session commits a file the user ignores\n');
  sh(s.path, 'add', '-f', 'out.log');
  commitIn(s.path, 'agent');
  put(repo, 'a.txt', 'one\nunsaved work of the user\nthree\n');
  put(repo, 'out.log', 'the user log, ignored, in the way\n');
  const before = userState(repo);

  for (const mode of ['uncommitted', 'cherry-pick', 'merge'] as ApplyMode[]) {
    await assert.rejects(
      apply(s, mode, { identity }),
      (err: unknown) =>
        err instanceof WorktreeError &&
        err.code === 'userChanges' &&
        err.paths.join() === 'a.txt,out.log' &&
        /uncommitted changes .*\(a\.txt, out\.log\)/.test(err.message),
      mode,
    );
    assert.deepEqual(userState(repo), before, mode);
    assert.equal(read(repo, 'a.txt'), 'one\nunsaved work of the user\nthree\n');
  }
  // A staged change counts too.
  rmSync(join(repo, 'out.log'));
  sh(repo, 'add', 'a.txt');
  await assert.rejects(apply(s, 'merge', { identity }), /a\.txt/);
});
