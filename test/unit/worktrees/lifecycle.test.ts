import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  WorktreeError,
  archive,
  createWorktree,
  discard,
  restore,
  status,
  whatDiscardLoses,
} from '../../../src/worktrees/worktrees';
import { fixture, headOf, identity, put, read, sh, userState } from './helpers';

const branches = (repo: string) => sh(repo, 'branch', '--format=%(refname:short)').split('\n').filter(Boolean).sort();
const worktreePaths = (repo: string) =>
  sh(repo, 'worktree', 'list', '--porcelain')
    .split('\n')
    .filter((l) => l.startsWith('worktree '))
    .map((l) => l.slice('worktree '.length));

test('archive commits the uncommitted work and removes the folder; restore brings the same branch and files back', async (t) => {
  const { repo, parent } = fixture(t);
  const s = await createWorktree({ repoRoot: repo, parentDir: parent, name: 'Round trip', carryChanges: false });
  put(s.path, 'a.txt', 'edited by the agent\n');
  put(s.path, 'docs/new.md', 'new file\n');
  const before = userState(repo);

  const record = await archive(s, { identity });
  assert.equal(existsSync(s.path), false);
  assert.deepEqual(worktreePaths(repo), [repo]);
  assert.deepEqual(JSON.parse(JSON.stringify(record)), record); // plain data for workspaceState
  assert.equal(record.branch, 'tandem/round-trip');
  assert.equal(record.head, sh(repo, 'rev-parse', 'refs/heads/tandem/round-trip').trim());
  assert.equal(sh(repo, 'log', '-1', '--format=%s', record.branch).trim(), 'Tandem: archived session Round trip');
  assert.deepEqual(userState(repo), before);

  const back = await restore(record, parent);
  assert.equal(back.path, s.path); // the old folder name was free again
  assert.equal(back.branch, s.branch);
  assert.equal(back.base, s.base);
  assert.equal(back.name, s.name);
  assert.equal(back.createdAt, s.createdAt);
  assert.equal(read(back.path, 'a.txt'), 'edited by the agent\n');
  assert.equal(read(back.path, 'docs/new.md'), 'new file\n');
  assert.equal(sh(back.path, 'branch', '--show-current').trim(), 'tandem/round-trip');
  assert.equal(await status(back), 'ok');
  assert.deepEqual(userState(repo), before);
});

test('archive of a clean worktree adds no commit; restore goes to a new folder when the old one is taken, and refuses a deleted branch', async (t) => {
  const { repo, parent } = fixture(t);
  const s = await createWorktree({ repoRoot: repo, parentDir: parent, name: 'clean', carryChanges: false });
  const record = await archive(s, { identity });
  assert.equal(record.head, s.base);
  put(parent, 'clean/stray.txt', 'someone else put a folder here');
  const back = await restore(record, parent);
  assert.equal(back.path, join(parent, 'clean-2'));
  const again = await archive(back, { identity });
  sh(repo, 'branch', '-D', again.branch);
  await assert.rejects(
    restore(again, parent),
    (err: unknown) => err instanceof WorktreeError && err.code === 'branchMissing',
  );
});

test('discard removes the folder, uncommitted work and all, and deletes the branch only when asked', async (t) => {
  const { repo, parent } = fixture(t);
  const keep = await createWorktree({ repoRoot: repo, parentDir: parent, name: 'keep branch', carryChanges: false });
  const drop = await createWorktree({ repoRoot: repo, parentDir: parent, name: 'drop branch', carryChanges: false });
  put(keep.path, 'a.txt', 'uncommitted\n');
  put(drop.path, 'x.txt', 'untracked\n');
  const before = userState(repo);

  await discard(keep, { deleteBranch: false });
  await discard(drop, { deleteBranch: true });
  assert.equal(existsSync(keep.path), false);
  assert.equal(existsSync(drop.path), false);
  assert.deepEqual(worktreePaths(repo), [repo]);
  assert.deepEqual(branches(repo), ['main', 'tandem/keep-branch']);
  assert.deepEqual(userState(repo), before);
});

test('whatDiscardLoses names the uncommitted files and the commits the current branch lacks', async (t) => {
  const { repo, parent } = fixture(t);
  const s = await createWorktree({ repoRoot: repo, parentDir: parent, name: 'losses', carryChanges: false });
  assert.deepEqual(await whatDiscardLoses(s), { uncommitted: [], commits: [] });

  put(s.path, 'merged.txt', 'merged\n');
  sh(s.path, 'add', '-A');
  sh(s.path, 'commit', '-q', '-m', 'already picked');
  sh(repo, 'cherry-pick', headOf(s.path)); // the user took this one: its change is not lost
  put(s.path, 'work.txt', 'committed\n');
  sh(s.path, 'add', '-A');
  sh(s.path, 'commit', '-q', '-m', 'unmerged work');
  const unmerged = headOf(s.path);
  put(s.path, 'a.txt', 'uncommitted edit\n');
  put(s.path, 'scratch/untracked.txt', 'untracked\n');

  assert.deepEqual(await whatDiscardLoses(s), {
    uncommitted: ['a.txt', 'scratch/untracked.txt'],
    commits: [{ sha: unmerged, subject: 'unmerged work' }],
  });
});

test('status: ok, missing when the folder is deleted or moved by hand, notGit when the repository is gone', async (t) => {
  const { repo, parent, scratch } = fixture(t);
  const s = await createWorktree({ repoRoot: repo, parentDir: parent, name: 'status', carryChanges: false });
  assert.equal(await status(s), 'ok');
  rmSync(s.path, { recursive: true, force: true });
  assert.equal(await status(s), 'missing');
  assert.match(sh(repo, 'worktree', 'list', '--porcelain'), /prunable/);

  const moved = await createWorktree({ repoRoot: repo, parentDir: parent, name: 'moved', carryChanges: false });
  renameSync(moved.path, join(scratch, 'moved'));
  assert.equal(await status(moved), 'missing');

  // A missing worktree can still be discarded (git's record is pruned), its branch kept.
  await discard(s, { deleteBranch: false });
  assert.equal(sh(repo, 'rev-parse', '--verify', 'refs/heads/tandem/status').trim(), s.base);
  assert.doesNotMatch(sh(repo, 'worktree', 'list', '--porcelain'), new RegExp(s.path));

  rmSync(join(repo, '.git'), { recursive: true, force: true });
  assert.equal(await status(moved), 'notGit');
  rmSync(repo, { recursive: true, force: true });
  assert.equal(await status(moved), 'notGit');
});
