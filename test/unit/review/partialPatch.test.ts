// The patch of some hunks of a file, applied with the real `git apply --cached` in a temporary
// repository: the index then holds the file's committed text with exactly the chosen hunks, and the
// working tree is untouched. Hunks come from the project's line diff, as the command computes them.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { partialPatch, quotePath, type LineHunk } from '../../../src/review/partialPatch';
import { lineDiff, splitLines } from '../../../src/shared/lineDiff';
import { fixture, put, read, sh } from '../worktrees/helpers';

/** Stages the chosen hunks of `base` → `now` for `rel` committed as `base`; returns what the index holds. */
function stageHunks(t: TestContext, rel: string, base: string, now: string, chosen: number[]) {
  const { repo } = fixture(t, { [rel]: base });
  put(repo, rel, now);
  const { hunks } = lineDiff(base, now);
  const patch = partialPatch(rel, splitLines(base), hunks, chosen);
  execFileSync('git', ['apply', '--cached', '--whitespace=nowarn', '-'], { cwd: repo, input: patch, stdio: 'pipe' });
  return { index: sh(repo, 'show', `:${rel}`), working: read(repo, rel), hunks, patch, repo };
}

/** `base` with hunks `chosen` applied, computed without any patch. */
function expected(base: string, hunks: readonly LineHunk[], chosen: number[]): string {
  const lines = splitLines(base);
  for (const i of [...chosen].sort((a, b) => hunks[b].oldStart - hunks[a].oldStart))
    lines.splice(hunks[i].oldStart, hunks[i].oldLines.length, ...hunks[i].newLines);
  return lines.join('');
}

const TEN = Array.from({ length: 10 }, (_, i) => `line ${i + 1}\n`).join('');
const twoHunks = TEN.replace('line 2\n', 'line 2 changed\n').replace('line 9\n', 'line 9 changed\n');

test('one of two hunks staged: the index has that hunk only, the working tree keeps both', (t) => {
  const r = stageHunks(t, 'a.txt', TEN, twoHunks, [0]);
  assert.equal(r.hunks.length, 2);
  assert.equal(r.index, TEN.replace('line 2\n', 'line 2 changed\n'));
  assert.equal(r.working, twoHunks);
});

test("a hunk's new lines are numbered after the chosen hunks before it, not after the ones left out", (t) => {
  const now = TEN.replace('line 1\n', 'line 1\nadded a\nadded b\nadded c\n').replace('line 9\n', 'line 9 changed\n');
  const r = stageHunks(t, 'a.txt', TEN, now, [1]);
  assert.equal(r.index, TEN.replace('line 9\n', 'line 9 changed\n'));
  // Lines 6-10 on both sides: not line 9, where the left-out hunk's three lines would have put it.
  assert.match(r.patch, /^@@ -6,5 \+6,5 @@$/m);
  // With the first hunk chosen too, the new side of the second moves down by its three lines.
  const both = stageHunks(t, 'b.txt', TEN, now, [0, 1]);
  assert.equal(both.index, now);
  assert.match(both.patch, /^@@ -6,5 \+9,5 @@$/m);
});

test('hunks whose context lines meet are one patch hunk with correct counts', (t) => {
  const now = TEN.replace('line 3\n', 'three\n').replace('line 6\n', '').replace('line 8\n', 'eight\nmore\n');
  const r = stageHunks(t, 'a.txt', TEN, now, [0, 2]);
  assert.equal(r.hunks.length, 3);
  assert.equal(r.index, expected(TEN, r.hunks, [0, 2]));
  assert.equal((r.patch.match(/^@@/gm) ?? []).length, 1, r.patch);
});

test('a last line without a newline, changed or kept as context, comes out byte for byte', (t) => {
  const base = 'a\nb\nc\nd\ne\nf\ng\nh\nlast';
  const now = 'A\nb\nc\nd\ne\nf\ng\nh\nlast changed';
  assert.equal(stageHunks(t, 'a.txt', base, now, [1]).index, 'a\nb\nc\nd\ne\nf\ng\nh\nlast changed');
  assert.equal(stageHunks(t, 'b.txt', base, 'a\nb\nc\nd\ne\nf\ng\nH\nlast', [0]).index, 'a\nb\nc\nd\ne\nf\ng\nH\nlast');
  // A newline added at the end is a change of the last line.
  const mid = 'm\n'.repeat(8);
  assert.equal(stageHunks(t, 'c.txt', `x\n${mid}y`, `X\n${mid}y\n`, [1]).index, `x\n${mid}y\n`);
});

test('CRLF lines keep their carriage returns', (t) => {
  const base = 'one\r\ntwo\r\nthree\r\nfour\r\nfive\r\nsix\r\nseven\r\neight\r\nnine\r\n';
  const now = base.replace('two\r\n', 'TWO\r\n').replace('nine\r\n', 'NINE\r\n');
  assert.equal(stageHunks(t, 'w.txt', base, now, [1]).index, base.replace('nine\r\n', 'NINE\r\n'));
});

test('lines removed at the top and added at the end of a file', (t) => {
  const now = TEN.replace('line 1\nline 2\n', '') + 'line 11\n';
  assert.equal(stageHunks(t, 'a.txt', TEN, now, [0]).index, TEN.replace('line 1\nline 2\n', ''));
  assert.equal(stageHunks(t, 'b.txt', TEN, now, [1]).index, `${TEN}line 11\n`);
});

test('a file name with spaces, quotes and non-ASCII letters', (t) => {
  const rel = 'dir with space/"quoted" é.txt';
  assert.equal(quotePath('a/plain name.txt'), 'a/plain name.txt');
  assert.equal(quotePath('a/"q"\\b\tc'), '"a/\\"q\\"\\\\b\\tc"');
  assert.equal(stageHunks(t, rel, TEN, twoHunks, [1]).index, TEN.replace('line 9\n', 'line 9 changed\n'));
});

test('nothing chosen is no patch; an index with no hunk is refused', () => {
  const { hunks } = lineDiff(TEN, twoHunks);
  assert.equal(partialPatch('a.txt', splitLines(TEN), hunks, []), '');
  assert.throws(() => partialPatch('a.txt', splitLines(TEN), hunks, [2]), /no change number 3/);
});

test('random edits and random choices of hunks: the index always holds exactly the chosen ones', (t) => {
  const { repo } = fixture(t, { 'r.txt': '' });
  let seed = 7;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  for (let round = 0; round < 25; round++) {
    const base = Array.from({ length: 5 + rand(30) }, () => `${'abcde'[rand(5)]}\n`);
    if (rand(3) === 0) base.push('tail'); // no newline at the end
    const now = [...base];
    for (let e = 1 + rand(6); e > 0; e--) {
      const at = rand(now.length + 1);
      if (rand(2)) now.splice(at, rand(3), ...Array.from({ length: rand(3) }, () => `new ${rand(99)}\n`));
      else now.splice(at, 1);
    }
    const [b, n] = [base.join(''), now.join('')];
    const { hunks } = lineDiff(b, n);
    const chosen = hunks.map((_, i) => i).filter(() => rand(2) === 0);
    put(repo, 'r.txt', b);
    sh(repo, 'add', 'r.txt');
    const patch = partialPatch('r.txt', splitLines(b), hunks, chosen);
    if (patch) execFileSync('git', ['apply', '--cached', '-'], { cwd: repo, input: patch, stdio: 'pipe' });
    assert.equal(
      sh(repo, 'show', ':r.txt'),
      expected(b, hunks, chosen),
      `round ${round}: ${JSON.stringify({ b, n, chosen })}`,
    );
  }
});
