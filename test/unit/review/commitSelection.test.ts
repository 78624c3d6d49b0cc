// Which files "Commit Kept Changes…" offers and selects at first, and what a choice of files and
// hunks stages: whole files by path, partly committed files by a patch of their chosen hunks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  type CommitCandidate,
  describeHunk,
  initialChoices,
  sessionFiles,
  stagingPlan,
} from '../../../src/review/commitSelection';
import { lineDiff, splitLines } from '../../../src/shared/lineDiff';

test('a file is offered unless every change of it was undone; pending when one still waits for review', () => {
  const files = sessionFiles([
    { path: '/w/b.ts', turn: 1, state: 'kept' },
    { path: '/w/a.ts', turn: 0, state: 'kept' },
    { path: '/w/a.ts', turn: 2, state: 'pending' },
    { path: '/w/gone.ts', turn: 0, state: 'reverted' },
    { path: '/w/c.ts', turn: 0, state: 'reverted' },
    { path: '/w/c.ts', turn: 3, state: 'kept' },
    { path: '/w/d.ts', turn: 1, state: 'kept' },
    { path: '/w/d.ts', turn: 2, state: 'reverted' },
  ]);
  assert.deepEqual(files, [
    { path: '/w/a.ts', state: 'pending', firstTurn: 0 },
    // Its first change was undone, a later one kept: the first change's snapshot is still the file before the session.
    { path: '/w/c.ts', state: 'kept', firstTurn: 0 },
    { path: '/w/b.ts', state: 'kept', firstTurn: 1 },
    // A later change undone leaves the earlier kept one in the file.
    { path: '/w/d.ts', state: 'kept', firstTurn: 1 },
  ]);
});

const BASE = Array.from({ length: 12 }, (_, i) => `line ${i + 1}\n`).join('');
const NOW = BASE.replace('line 2\n', 'line two\n').replace('line 11\n', 'line eleven\n');
const split = { lines: splitLines(BASE), hunks: lineDiff(BASE, NOW).hunks };
const candidates: CommitCandidate[] = [
  { path: '/r/a.ts', rel: 'a.ts', state: 'kept', otherChanges: false, split },
  { path: '/r/src/b.ts', rel: 'src/b.ts', state: 'pending', otherChanges: false },
  { path: '/r/c.ts', rel: 'c.ts', state: 'kept', otherChanges: true, split },
];

test('every file is selected at first except one that also holds uncommitted work from before the session', () => {
  assert.deepEqual(initialChoices(candidates), [{ path: '/r/a.ts' }, { path: '/r/src/b.ts' }]);
});

test('two files of three chosen whole: exactly those two are staged, by their repository paths', () => {
  const plan = stagingPlan(candidates, [{ path: '/r/a.ts' }, { path: '/r/src/b.ts' }]);
  assert.deepEqual(plan, { whole: ['a.ts', 'src/b.ts'], patches: [], files: ['a.ts', 'src/b.ts'] });
});

test('one hunk of two: a patch of that hunk only, recorded as part of the file', () => {
  const plan = stagingPlan(candidates, [{ path: '/r/a.ts', hunks: [1] }, { path: '/r/src/b.ts' }]);
  assert.deepEqual(plan.whole, ['src/b.ts']);
  assert.equal(plan.patches.length, 1);
  assert.equal(plan.patches[0].rel, 'a.ts');
  assert.match(plan.patches[0].patch, /^-line 11\n\+line eleven\n/m);
  assert.doesNotMatch(plan.patches[0].patch, /line two/);
  assert.deepEqual(plan.files, ['a.ts (1 of 2 changes)', 'src/b.ts']);
});

test('every hunk chosen is the whole file; no hunk chosen leaves the file out', () => {
  assert.deepEqual(stagingPlan(candidates, [{ path: '/r/a.ts', hunks: [1, 0, 1] }]), {
    whole: ['a.ts'],
    patches: [],
    files: ['a.ts'],
  });
  assert.deepEqual(stagingPlan(candidates, [{ path: '/r/a.ts', hunks: [] }]), { whole: [], patches: [], files: [] });
});

test('hunks of a file that can only go whole, or a file the session did not change, are refused', () => {
  assert.throws(
    () => stagingPlan(candidates, [{ path: '/r/src/b.ts', hunks: [0] }]),
    /src\/b\.ts can only be committed whole/,
  );
  assert.throws(() => stagingPlan(candidates, [{ path: '/r/other.ts' }]), /not one of the session's changed files/);
});

test('a hunk is shown by where it is, its size and its first changed lines', () => {
  const [changed] = lineDiff('a\nold line\nc\n', 'a\nnew line\nc\n').hunks;
  assert.deepEqual(describeHunk(changed), { label: 'Line 2', description: '+1 −1', detail: '− old line   + new line' });
  const [added] = lineDiff('a\n', 'a\n  first\n\nthird\n').hunks;
  assert.deepEqual(describeHunk(added), {
    label: 'Lines 2–4',
    description: '+3 −0',
    detail: '+ first   + (blank line)',
  });
  const [removed] = lineDiff('a\nb\nc\n', 'a\n').hunks;
  assert.deepEqual(describeHunk(removed), {
    label: 'Removed before line 2',
    description: '+0 −2',
    detail: '− b   − c',
  });
  const [long] = lineDiff('', `${'x'.repeat(100)}\n`).hunks;
  assert.equal(describeHunk(long).detail, `+ ${'x'.repeat(59)}…`);
});
