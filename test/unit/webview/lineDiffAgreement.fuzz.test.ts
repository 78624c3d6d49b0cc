// Property: for the same before / after, the host's +/− counts of a changed file (the changes list,
// checkpoints/changeSummary.ts), its per-hunk review (checkpoints/hunks.ts) and the webview's
// rendered inline diff (components/DiffView.tsx) agree, as they share one line diff
// (src/shared/lineDiff.ts); also when the diff is past its bound, which every side reports as such.
// `FULL=1` runs 10×.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { summarizeChange } from '../../../src/checkpoints/changeSummary';
import { FileReview } from '../../../src/checkpoints/hunks';
import { lineDiff, splitLines } from '../../../src/shared/lineDiff';
import { diffLines } from '../../../src/webview/diff';
import { DiffView } from '../../../src/webview/components/DiffView';
import { runs } from '../fuzz/runs';

const bytes = (s: string) => new TextEncoder().encode(s);
const count = (html: string, re: RegExp) => html.match(re)?.length ?? 0;

/** Texts of lines that repeat (so the diff has choices to make), in LF or CRLF, with or without a last newline. */
const text = fc
  .tuple(
    fc.array(fc.constantFrom('a', 'b', 'c', '}', '', 'x = 1;'), { maxLength: 40 }),
    fc.constantFrom('\n', '\r\n'),
    fc.boolean(),
  )
  .map(([ls, nl, last]) => ls.join(nl) + (last && ls.length ? nl : ''));
/** An edit of `before` (the usual case), or an unrelated text. */
const pair = fc.oneof(
  fc.tuple(text, text),
  fc
    .tuple(text, fc.nat(40), fc.nat(5), fc.array(fc.constantFrom('new\n', 'b\n', '}\r\n'), { maxLength: 5 }))
    .map(([before, at, cut, add]): [string, string] => {
      const ls = before.split(/(?<=\n)/);
      ls.splice(at % (ls.length + 1), cut, ...add);
      return [before, ls.join('')];
    }),
);

function views(before: string, after: string) {
  const host = summarizeChange(bytes(before), bytes(after));
  const review = new FileReview('/ws/f.txt', before, after);
  const rows = diffLines(before, after);
  const html = renderToString(
    h(DiffView, { path: '/ws/f.txt', oldText: before, newText: after, toolCallId: 'c', index: 0 }),
  );
  return { host, review, rows, html };
}

test('property: host counts, review hunks and the rendered inline diff agree', () => {
  fc.assert(
    fc.property(pair, ([before, after]) => {
      const { host, review, rows, html } = views(before, after);
      const reviewAdded = review.hunks.reduce((n, x) => n + x.newLines.length, 0);
      const reviewRemoved = review.hunks.reduce((n, x) => n + x.oldLines.length, 0);
      assert.deepEqual([host.added, host.removed], [reviewAdded, reviewRemoved], 'counts = the review hunks');
      assert.deepEqual([rows.added, rows.removed], [host.added, host.removed], 'webview counts = host counts');
      assert.equal(count(html, /diff-line-add/g), host.added, 'rendered + rows');
      assert.equal(count(html, /diff-line-del/g), host.removed, 'rendered − rows');
      assert.match(html, new RegExp(`\\+${host.added}<.*−${host.removed}<`), 'the header says the same');
      // The rows are both texts: unchanged and removed ones the old, unchanged and added ones the new.
      const side = (skip: string) => rows.lines.filter((l) => l.t !== skip).map((l) => l.text);
      const bare = (t: string) => splitLines(t).map((l) => l.replace(/\r?\n$/, ''));
      assert.deepEqual(side('+'), bare(before));
      assert.deepEqual(side('-'), bare(after));
      assert.equal(host.tooLarge, undefined);
      assert.equal(rows.tooLarge, false);
    }),
    { numRuns: runs(400) },
  );
});

test('past the bound every side says "too large to diff", with the same upper-bound counts', () => {
  const numbered = (p: string) => Array.from({ length: 3000 }, (_, i) => `${p}${i}\n`).join('');
  const [before, after] = [`same\n${numbered('old')}`, `same\n${numbered('new')}`];
  assert.equal(lineDiff(before, after).tooLarge, true);
  const { host, review, rows, html } = views(before, after);
  assert.deepEqual(host, { kind: 'modified', added: 3000, removed: 3000, tooLarge: true });
  assert.equal(review.hunks.length, 1, 'the review offers the whole changed middle as one hunk');
  assert.deepEqual([rows.added, rows.removed, rows.tooLarge, rows.lines.length], [3000, 3000, true, 0]);
  assert.match(html, /data-testid="diff-too-large"/);
  assert.equal(count(html, /diff-line-add|diff-line-del/g), 0, 'no rows pretend to be a diff');
});
