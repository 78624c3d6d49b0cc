import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  APPLY_MODES,
  DISCARD,
  DISCARD_ALL,
  DISCARD_KEEP_BRANCH,
  discardQuestion,
  isApplyMode,
  nameList,
  reviewTitle,
} from '../../../src/vscode/worktrees/bringBackText';

test('a list of names shows at most five, then how many more', () => {
  assert.equal(nameList([]), '');
  assert.equal(nameList(['a.ts']), 'a.ts');
  assert.equal(nameList(['a.ts', 'b.ts']), 'a.ts and b.ts');
  assert.equal(nameList(['1', '2', '3', '4', '5']), '1, 2, 3, 4 and 5');
  assert.equal(nameList(['1', '2', '3', '4', '5', '6', '7']), '1, 2, 3, 4, 5 and 2 more');
});

test('the discard question names the uncommitted files and the commits your branch lacks, and offers to keep the branch', () => {
  const q = discardQuestion('fix login', 'tandem/fix-login', {
    uncommitted: ['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts', 'f.ts'],
    commits: [
      { sha: '1'.repeat(40), subject: 'Fix the redirect' },
      { sha: 'abcdef0123'.repeat(4), subject: '' },
    ],
  });
  assert.match(q.message, /"fix login" loses work/);
  assert.match(q.detail, /6 uncommitted files: a\.ts, b\.ts, c\.ts, d\.ts, e\.ts and 1 more\./);
  assert.match(q.detail, /2 commits not in your branch:\n {2}• Fix the redirect\n {2}• abcdef0/);
  assert.match(q.detail, /keeps the commits on tandem\/fix-login/);
  assert.match(q.detail, /uncommitted files are lost either way/);
  assert.deepEqual(q.buttons, [DISCARD_ALL, DISCARD_KEEP_BRANCH]);
});

test('only uncommitted files, or only commits: the question names just those', () => {
  const files = discardQuestion('s', 'tandem/s', { uncommitted: ['x.ts'], commits: [] });
  assert.match(files.detail, /^1 uncommitted file: x\.ts\./);
  assert.doesNotMatch(files.detail, /commit(s)? not in your branch/);
  const commits = discardQuestion('s', 'tandem/s', {
    uncommitted: [],
    commits: Array.from({ length: 7 }, (_, i) => ({ sha: `${i}`.repeat(40), subject: `c${i}` })),
  });
  assert.doesNotMatch(commits.detail, /uncommitted/);
  assert.match(commits.detail, /7 commits not in your branch:\n(.*\n){5} {2}• and 2 more/);
});

test('nothing to lose: a plain confirmation with one button', () => {
  const q = discardQuestion('s', 'tandem/s', { uncommitted: [], commits: [] });
  assert.match(q.detail, /^Nothing is lost/);
  assert.deepEqual(q.buttons, [DISCARD]);
});

test('the review title names the branch and the count; the apply modes are the engine’s three', () => {
  assert.equal(reviewTitle('tandem/x', 1), 'tandem/x — 1 file changed');
  assert.equal(reviewTitle('tandem/x', 3), 'tandem/x — 3 files changed');
  assert.deepEqual(
    APPLY_MODES.map((m) => m.mode),
    ['merge', 'cherry-pick', 'uncommitted'],
  );
  assert.ok(APPLY_MODES.every((m) => m.description.length > 20 && !m.description.includes('\n')));
  assert.ok(isApplyMode('merge') && !isApplyMode('rebase') && !isApplyMode(undefined));
});
