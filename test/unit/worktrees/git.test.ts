import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { GitError } from '../../../src/worktrees/worktrees';
import { git, gitResult } from '../../../src/worktrees/git';
import { fixture } from './helpers';

test("a failing git command rejects with a GitError naming the command, the folder and git's stderr", async (t) => {
  const { repo } = fixture(t);
  await assert.rejects(
    git(['rev-parse', '--verify', 'no-such-branch'], { cwd: repo }),
    (err: unknown) =>
      err instanceof GitError &&
      err.exitCode === 128 &&
      err.command === 'git rev-parse --verify no-such-branch' &&
      err.message.startsWith(`git rev-parse --verify no-such-branch failed in ${repo}: fatal:`) &&
      /fatal: /.test(err.stderr),
  );
  // gitResult hands the exit code back instead.
  const r = await gitResult(['diff', '--quiet', 'HEAD'], { cwd: repo });
  assert.equal(r.exitCode, 0);
});

test('a folder that does not exist is named as such, not as a missing git', async (t) => {
  const { scratch } = fixture(t);
  await assert.rejects(git(['status'], { cwd: join(scratch, 'nope') }), /failed in .*nope: the folder does not exist/);
});

test('paths come back unquoted and as given, and stdin input reaches git', async (t) => {
  const { repo } = fixture(t, { 'café/ünï code.txt': 'x\n', '.gitignore': '*.log\n' });
  assert.equal(await git(['ls-files', '-z'], { cwd: repo }), '.gitignore\0café/ünï code.txt\0');
  const r = await gitResult(['check-ignore', '-z', '--stdin'], { cwd: repo, input: 'a.log\0b.txt\0' });
  assert.deepEqual([r.exitCode, r.stdout], [0, 'a.log\0']);
});
