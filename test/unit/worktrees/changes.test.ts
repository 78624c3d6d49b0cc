import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { changesOf, commitAll, createWorktree } from '../../../src/worktrees/worktrees';
import { fixture, headOf, identity, put, sh } from './helpers';

const files = {
  'a.txt': 'one\ntwo\nthree\n',
  'gone.txt': 'bye\n',
  'old/name.ts': 'export const unchanged = "a line long enough to be recognised as the same file";\n'.repeat(5),
  'img.bin': '\0\x01\x02binary',
  '.gitignore': 'dist/\n',
};

test('changesOf lists committed, uncommitted and untracked changes against base, with line counts (none for binary files)', async (t) => {
  const { repo, parent } = fixture(t, files);
  const s = await createWorktree({ repoRoot: repo, parentDir: parent, name: 'changes', carryChanges: false });
  // Committed on the branch:
  put(s.path, 'committed.ts', 'a\nb\n');
  sh(s.path, 'add', 'committed.ts');
  sh(s.path, 'commit', '-q', '-m', 'agent commit');
  // Uncommitted, staged or not, and untracked:
  put(s.path, 'a.txt', 'one\n2\nthree\nfour\n');
  rmSync(join(s.path, 'gone.txt'));
  // Renamed by hand, not by git mv: the new name is untracked and the old one missing.
  mkdirSync(join(s.path, 'new'));
  renameSync(join(s.path, 'old/name.ts'), join(s.path, 'new/name.ts'));
  put(s.path, 'img.bin', '\0\x03binary changed');
  put(s.path, 'untracked/new.md', 'x\ny\nz\n');
  put(s.path, 'dist/bundle.js', 'ignored\n');
  const indexBefore = sh(s.path, 'ls-files', '-s');

  assert.deepEqual(await changesOf(s), [
    { path: 'a.txt', status: 'modified', added: 2, removed: 1 },
    { path: 'committed.ts', status: 'added', added: 2, removed: 0 },
    { path: 'gone.txt', status: 'deleted', added: 0, removed: 1 },
    { path: 'img.bin', status: 'modified', added: undefined, removed: undefined },
    { path: 'new/name.ts', oldPath: 'old/name.ts', status: 'renamed', added: 0, removed: 0 },
    { path: 'untracked/new.md', status: 'added', added: 3, removed: 0 },
  ]);
  // Reading the changes stages nothing in the worktree.
  assert.equal(sh(s.path, 'ls-files', '-s'), indexBefore);
});

test('a fresh worktree has no changes', async (t) => {
  const { repo, parent } = fixture(t, files);
  const s = await createWorktree({ repoRoot: repo, parentDir: parent, name: 'none', carryChanges: false });
  assert.deepEqual(await changesOf(s), []);
});

test('commitAll commits everything (untracked files too) on the session branch, and returns undefined when there is nothing', async (t) => {
  const { repo, parent } = fixture(t, files);
  const s = await createWorktree({ repoRoot: repo, parentDir: parent, name: 'commit', carryChanges: false });
  assert.equal(await commitAll(s, 'nothing yet', { identity }), undefined);
  assert.equal(headOf(s.path), s.base);

  put(s.path, 'a.txt', 'changed\n');
  put(s.path, 'fresh.txt', 'new\n');
  put(s.path, 'dist/out.js', 'ignored\n');
  const before = await changesOf(s);
  const sha = await commitAll(s, 'agent work', { identity });
  assert.match(sha ?? '', /^[0-9a-f]{40}$/);
  assert.equal(sha, headOf(s.path));
  assert.equal(sh(repo, 'rev-parse', 'refs/heads/tandem/commit').trim(), sha);
  assert.equal(sh(s.path, 'log', '-1', '--format=%s%n%an').trim(), `agent work\n${identity.name}`);
  assert.equal(sh(s.path, 'status', '--porcelain'), '');
  assert.equal(sh(s.path, 'ls-files', 'dist'), ''); // ignored stays out
  // The changes against base are the same, now committed.
  assert.deepEqual(await changesOf(s), before);
  assert.equal(await commitAll(s, 'again', { identity }), undefined);
  // The user's branch did not move.
  assert.equal(headOf(repo), s.base);
});
