import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { WorktreeError, WorktreeSetupError, createWorktree, slugify } from '../../../src/worktrees/worktrees';
import { fixture, headOf, identity, put, read, sh, userState } from './helpers';

/** The user's tree with a bit of everything uncommitted: an edit, a staged edit, a staged new file, untracked and ignored files. */
function dirtyTheUsersTree(repo: string): void {
  put(repo, 'a.txt', 'one\ntwo (edited, unstaged)\nthree\n');
  put(repo, 'b.txt', 'b staged\n');
  sh(repo, 'add', 'b.txt');
  put(repo, 'src/new-staged.ts', 'export const n = 1;\n');
  sh(repo, 'add', 'src/new-staged.ts');
  put(repo, 'notes/untracked.md', '# mine\n');
  put(repo, 'run.sh', '#!/bin/sh\necho hi\n');
  chmodSync(join(repo, 'run.sh'), 0o755);
  put(repo, 'build/out.js', 'ignored\n');
}

const indexFile = (repo: string) => ({
  bytes: readFileSync(join(repo, '.git/index')),
  mtimeMs: statSync(join(repo, '.git/index')).mtimeMs,
});

function touchEveryFile(repo: string): void {
  const later = new Date(Date.now() + 5_000);
  for (const rel of sh(repo, 'ls-files').split('\n').filter(Boolean)) utimesSync(join(repo, rel), later, later);
}

const files = { 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'b\n', '.gitignore': 'build/\n' };

test('a worktree without carried changes is a clean checkout of HEAD on a new branch, and the user keeps their tree and index as they were', async (t) => {
  const { repo, parent } = fixture(t, files);
  dirtyTheUsersTree(repo);
  const before = userState(repo);
  const s = await createWorktree({ repoRoot: repo, parentDir: parent, name: 'Fix the Parser!', carryChanges: false });
  assert.deepEqual(userState(repo), before);
  assert.equal(s.branch, 'tandem/fix-the-parser');
  assert.equal(s.path, join(parent, 'fix-the-parser'));
  assert.equal(s.base, headOf(repo));
  assert.equal(s.repoRoot, repo);
  assert.equal(s.name, 'Fix the Parser!');
  assert.equal(typeof s.createdAt, 'number');
  assert.equal(sh(s.path, 'branch', '--show-current').trim(), 'tandem/fix-the-parser');
  assert.equal(headOf(s.path), s.base);
  assert.equal(sh(s.path, 'status', '--porcelain', '--untracked-files=all'), '');
  assert.equal(read(s.path, 'a.txt'), 'one\ntwo\nthree\n');
  assert.equal(existsSync(join(s.path, 'notes/untracked.md')), false);
  assert.equal(existsSync(join(s.path, 'src/new-staged.ts')), false);
});

test('carried changes arrive in the worktree (unstaged, staged, new staged, untracked, modes) while ignored files and the user tree stay put', async (t) => {
  const { repo, parent } = fixture(t, files);
  dirtyTheUsersTree(repo);
  touchEveryFile(repo); // stale stats: a git that refreshed the user's index would rewrite it now
  const before = userState(repo);
  const indexBefore = indexFile(repo);
  const s = await createWorktree({ repoRoot: repo, parentDir: parent, name: 'carry', carryChanges: true });
  assert.deepEqual(indexFile(repo), indexBefore); // not even the file stats in it
  assert.deepEqual(userState(repo), before);
  assert.equal(read(s.path, 'a.txt'), 'one\ntwo (edited, unstaged)\nthree\n');
  assert.equal(read(s.path, 'b.txt'), 'b staged\n');
  assert.equal(read(s.path, 'src/new-staged.ts'), 'export const n = 1;\n');
  assert.equal(read(s.path, 'notes/untracked.md'), '# mine\n');
  assert.equal(statSync(join(s.path, 'run.sh')).mode & 0o111, 0o111);
  assert.equal(existsSync(join(s.path, 'build/out.js')), false);
  // Staged as the user had it: the staged edits are in the index, the unstaged one is not.
  const wtStatus = sh(s.path, 'status', '--porcelain', '--untracked-files=all').split('\n').filter(Boolean).sort();
  assert.deepEqual(
    wtStatus,
    [' M a.txt', 'A  src/new-staged.ts', 'M  b.txt', '?? notes/untracked.md', '?? run.sh'].sort(),
  );
  assert.equal(headOf(s.path), s.base); // nothing committed on the branch
});

test('carrying from a clean tree gives a clean worktree', async (t) => {
  const { repo, parent } = fixture(t);
  const s = await createWorktree({ repoRoot: repo, parentDir: parent, name: 'clean', carryChanges: true });
  assert.equal(sh(s.path, 'status', '--porcelain', '--untracked-files=all'), '');
});

test('a slug is lowercase a-z, 0-9 and dashes, at most 40 characters, never empty', () => {
  assert.equal(slugify('Fix the Parser!'), 'fix-the-parser');
  assert.equal(slugify('  --Ünïcode café--  '), 'unicode-cafe');
  assert.equal(slugify('a/b\\c:d*e?f'), 'a-b-c-d-e-f');
  assert.equal(slugify('日本語'), 'session');
  assert.equal(slugify(''), 'session');
  const long = slugify('word '.repeat(30));
  assert.ok(long.length <= 40 && !long.endsWith('-'), long);
  assert.match(long, /^[a-z0-9-]+$/);
});

test('a name taken by a branch or a folder gets -2, -3, …', async (t) => {
  const { repo, parent } = fixture(t);
  const first = await createWorktree({ repoRoot: repo, parentDir: parent, name: 'Task', carryChanges: false });
  const second = await createWorktree({ repoRoot: repo, parentDir: parent, name: 'task', carryChanges: false });
  assert.equal(first.branch, 'tandem/task');
  assert.equal(second.branch, 'tandem/task-2');
  assert.equal(second.path, join(parent, 'task-2'));
  // A folder left in the parent (not a worktree) and a branch of the user's both block a name.
  mkdirSync(join(parent, 'task-3'));
  sh(repo, 'branch', 'tandem/task-4');
  const fifth = await createWorktree({ repoRoot: repo, parentDir: parent, name: 'task', carryChanges: false });
  assert.equal(fifth.branch, 'tandem/task-5');
  assert.equal(fifth.path, join(parent, 'task-5'));
  const long = 'x'.repeat(60);
  const a = await createWorktree({ repoRoot: repo, parentDir: parent, name: long, carryChanges: false });
  const b = await createWorktree({ repoRoot: repo, parentDir: parent, name: long, carryChanges: false });
  assert.equal(a.branch, `tandem/${'x'.repeat(40)}`);
  assert.equal(b.branch, `tandem/${'x'.repeat(38)}-2`);
});

test('a folder outside any repository and a repository without a commit are refused with a clear reason', async (t) => {
  const { scratch, parent } = fixture(t);
  await assert.rejects(
    createWorktree({ repoRoot: scratch, parentDir: parent, name: 'x', carryChanges: false }),
    (err: unknown) =>
      err instanceof WorktreeError && err.code === 'notGitRepository' && /is not a git repository/.test(err.message),
  );
  const empty = join(scratch, 'empty');
  mkdirSync(empty);
  sh(empty, 'init', '-q', '-b', 'main');
  await assert.rejects(
    createWorktree({ repoRoot: empty, parentDir: parent, name: 'x', carryChanges: false }),
    (err: unknown) => err instanceof WorktreeError && err.code === 'noCommits' && /no commit yet/.test(err.message),
  );
  assert.equal(existsSync(join(parent, 'x')), false);
});

test('the setup runner runs in the new worktree; when it fails the session is handed back with the error', async (t) => {
  const { repo, parent } = fixture(t);
  const ran: string[] = [];
  const s = await createWorktree({
    repoRoot: repo,
    parentDir: parent,
    name: 'setup',
    carryChanges: false,
    runSetup: async (cwd) => {
      ran.push(cwd);
      put(cwd, 'node_modules/.installed', 'yes');
    },
  });
  assert.deepEqual(ran, [s.path]);
  assert.equal(readFileSync(join(s.path, 'node_modules/.installed'), 'utf8'), 'yes');
  await assert.rejects(
    createWorktree({
      repoRoot: repo,
      parentDir: parent,
      name: 'setup',
      carryChanges: false,
      identity,
      runSetup: () => Promise.reject(new Error('npm ci exited with 1')),
    }),
    (err: unknown) =>
      err instanceof WorktreeSetupError &&
      err.session.branch === 'tandem/setup-2' &&
      existsSync(err.session.path) &&
      /setup failed: npm ci exited with 1/.test(err.message),
  );
});
