// The shared line diff (src/shared/lineDiff.ts): its hunks rebuild the new text from the old, its
// counts are the minimal ones, line terminators count, and past its bound it says "too large"
// with the whole changed middle as one hunk instead of searching on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  editCap,
  type LineDiff,
  lineDiff,
  MAX_EDIT_LENGTH,
  splitLines,
  WORK_BUDGET,
} from '../../../src/shared/lineDiff';
import { runs } from '../fuzz/runs';

/** `before` with the diff's hunks applied, from the last so that earlier starts stay valid. */
function apply(before: string, d: LineDiff): string {
  const lines = splitLines(before);
  for (const h of [...d.hunks].reverse()) {
    assert.deepEqual(
      lines.slice(h.oldStart, h.oldStart + h.oldLines.length),
      h.oldLines,
      'a hunk quotes its old lines',
    );
    lines.splice(h.oldStart, h.oldLines.length, ...h.newLines);
  }
  return lines.join('');
}

/** Longest common subsequence of two line lists (quadratic: small inputs only). */
function lcs(a: string[], b: string[]): number {
  let prev = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    const row = [0];
    for (let j = 0; j < b.length; j++) row.push(x === b[j] ? prev[j] + 1 : Math.max(prev[j + 1], row[j]));
    prev = row;
  }
  return prev[b.length];
}

const lines = (prefix: string, n: number, from = 0) => Array.from({ length: n }, (_, i) => `${prefix}${from + i}\n`);

test('hunks, counts and line numbers of a small change', () => {
  const d = lineDiff('a\nb\nc\nd\n', 'a\nB\nc\nd\ne\n');
  assert.deepEqual(d, {
    hunks: [
      { oldStart: 1, oldLines: ['b\n'], newStart: 1, newLines: ['B\n'] },
      { oldStart: 4, oldLines: [], newStart: 4, newLines: ['e\n'] },
    ],
    added: 2,
    removed: 1,
  });
  assert.deepEqual(lineDiff('same\n', 'same\n'), { hunks: [], added: 0, removed: 0 });
  assert.deepEqual(lineDiff('', 'x\ny'), {
    hunks: [{ oldStart: 0, oldLines: [], newStart: 0, newLines: ['x\n', 'y'] }],
    added: 2,
    removed: 0,
  });
});

test('line terminators are part of the line: CRLF → LF and a newline added at the end are changes', () => {
  assert.deepEqual(splitLines('x\r\ny\nz'), ['x\r\n', 'y\n', 'z']);
  assert.deepEqual(splitLines(''), []);
  const crlf = lineDiff('p\r\nq\r\n', 'p\nq\r\n');
  assert.deepEqual([crlf.added, crlf.removed], [1, 1]);
  const eol = lineDiff('a\nb', 'a\nb\n');
  assert.deepEqual(eol.hunks, [{ oldStart: 1, oldLines: ['b'], newStart: 1, newLines: ['b\n'] }]);
});

test('property: the hunks turn the old text into the new one, and the counts are minimal', () => {
  const line = fc.constantFrom('a', 'b', 'c', '}', '', '  x');
  const text = fc
    .tuple(fc.array(line, { maxLength: 25 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
    .map(([ls, nl, last]) => ls.join(nl) + (last && ls.length ? nl : ''));
  fc.assert(
    fc.property(text, text, (before, after) => {
      const d = lineDiff(before, after);
      assert.equal(d.tooLarge, undefined, 'small inputs are within the bound');
      assert.equal(apply(before, d), after);
      assert.equal(
        d.added,
        d.hunks.reduce((n, h) => n + h.newLines.length, 0),
      );
      assert.equal(
        d.removed,
        d.hunks.reduce((n, h) => n + h.oldLines.length, 0),
      );
      const [a, b] = [splitLines(before), splitLines(after)];
      assert.equal(d.added + d.removed, a.length + b.length - 2 * lcs(a, b), 'as few changed lines as can be');
      d.hunks.forEach((h, i) => {
        assert.ok(h.oldLines.length + h.newLines.length > 0, 'no empty hunk');
        const prev = d.hunks[i - 1];
        if (prev) assert.ok(h.oldStart > prev.oldStart + prev.oldLines.length, 'unchanged lines between hunks');
      });
    }),
    { numRuns: runs(500) },
  );
});

test('a rewrite past the edit cap is "too large": one hunk, the changed middle, counted as replaced', () => {
  const before = ['head\n', ...lines('a', 5000), 'tail\n'].join('');
  const after = ['head\n', ...lines('b', 5000), 'tail\n'].join('');
  const d = lineDiff(before, after);
  assert.equal(d.tooLarge, true);
  assert.equal(d.hunks.length, 1);
  assert.deepEqual([d.hunks[0].oldStart, d.hunks[0].newStart], [1, 1], 'the common head stays out of it');
  assert.deepEqual([d.added, d.removed], [5000, 5000], 'upper bounds: the whole middle');
  assert.equal(apply(before, d), after, 'still a correct (if coarse) change');
});

test('the edit cap: exact up to MAX_EDIT_LENGTH line edits, "too large" past it', () => {
  const base = lines('l', 3000);
  const changed = (n: number) => base.map((l, i) => (i % 3 === 0 && i / 3 < n ? `X${l}` : l)).join('');
  // n changed lines are n removals plus n additions.
  const within = lineDiff(base.join(''), changed(MAX_EDIT_LENGTH / 2));
  assert.equal(within.tooLarge, undefined);
  assert.equal(within.hunks.length, MAX_EDIT_LENGTH / 2);
  const past = lineDiff(base.join(''), changed(MAX_EDIT_LENGTH / 2 + 1));
  assert.equal(past.tooLarge, true);
  assert.equal(past.hunks.length, 1);
});

test('lines that repeat keep the quick lower bound low, and the search still stops at the cap', () => {
  // Same lines, same numbers of each, in another order: only the search can tell the distance.
  const before = Array.from({ length: 6000 }, (_, i) => (i % 2 ? '}\n' : '\n')).join('');
  const after = Array.from({ length: 6000 }, (_, i) => (i % 4 < 2 ? '}\n' : '\n')).join('');
  const d = lineDiff(before, after);
  assert.equal(d.tooLarge, true);
  assert.equal(apply(before, d), after);
});

test('a long changed middle gets a smaller edit cap, so lines × edits stays within the work budget', () => {
  assert.equal(editCap(10), MAX_EDIT_LENGTH);
  assert.equal(editCap(200_000), WORK_BUDGET / 200_000);
  const few = (n: number, count: number) =>
    lineDiff(
      lines('l', n).join(''),
      lines('l', n)
        .map((l, i) => (i % (n / count) === 0 ? `X${l}` : l))
        .join(''),
    );
  // 150 changed lines (300 edits): exact in a 3,000-line file, too large in a 150,000-line one.
  assert.equal(few(3000, 150).tooLarge, undefined);
  assert.equal(few(3000, 150).added, 150);
  assert.ok(editCap(300_000) < 300);
  assert.equal(few(150_000, 150).tooLarge, true);
});

test('only one side with lines left needs no search, however long', () => {
  const d = lineDiff('', lines('n', 100_000).join(''));
  assert.equal(d.tooLarge, undefined);
  assert.equal(d.added, 100_000);
  const cut = lineDiff(['keep\n', ...lines('gone', 100_000)].join(''), 'keep\n');
  assert.deepEqual([cut.added, cut.removed, cut.tooLarge], [0, 100_000, undefined]);
});
