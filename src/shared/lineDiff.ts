// The one line diff of the extension, shared by the host (the per-hunk review, the +/− counts of a
// changed file) and the webview (the inline diff of a tool call's `{type:"diff"}` content), so the
// counts the changes list shows and the lines the inline diff marks come from the same computation
// and cannot disagree. The algorithm is jsdiff's Myers (`diffArrays`) on whole lines after trimming
// the common head and tail. Lines keep their terminators: a CRLF → LF change, or a newline added at
// the end, is a changed line (the review must undo it byte for byte), on both sides alike.
//
// Bounded, so that neither the extension host nor the webview stalls on a huge or rewritten file.
// Myers' cost grows with the square of the edit distance D, plus the changed lines times D (with D
// capped at 4,000, a rewrite of 10,000 lines took 2.4 s, and lines that repeat, like `}` or blank
// ones, make it worse). The bound is deterministic, not a clock, so that host and webview give the
// same answer for the same texts:
//  - D may not exceed MAX_EDIT_LENGTH, nor WORK_BUDGET divided by the changed lines (a long file
//    gets a smaller D, keeping the lines × D term bounded too);
//  - a lower bound on D that costs one pass (the lines that one side has more often than the other)
//    skips Myers at once when it is already past that cap (a rewrite).
// With these, the slowest case measured (lines that repeat, edits just under the cap) took 0.7 s.
// Past the bound the result says `tooLarge`: callers show "too large to diff"; its hunk is the whole
// changed middle, replaced, so its counts are upper bounds, not the true numbers.
import { diffArrays } from 'diff';

/** Lines replaced by other lines. Starts are 0-based line indexes; every line keeps its terminator. */
export interface Hunk {
  /** First line of the hunk in the old text, and the lines it has there. */
  readonly oldStart: number;
  readonly oldLines: readonly string[];
  /** First line of the hunk in the new text, and the lines it has there. */
  readonly newStart: number;
  readonly newLines: readonly string[];
}

export interface LineDiff {
  /** In order; unchanged lines between them. Empty: the texts are the same. */
  readonly hunks: readonly Hunk[];
  /** Lines added and removed: the hunks' new and old lines. */
  readonly added: number;
  readonly removed: number;
  /**
   * The texts were too large or too different to diff within the bound: `hunks` is one hunk, the
   * whole changed middle replaced, and `added` / `removed` count that middle (at least the true
   * counts). Callers say so instead of showing it as a diff.
   */
  readonly tooLarge?: true;
}

/** The most line edits (insertions plus deletions) the diff looks for; past it, `tooLarge`. */
export const MAX_EDIT_LENGTH = 1000;
/** The edit cap shrinks so that changed lines × edits stays under this. */
export const WORK_BUDGET = 20_000_000;

/** The lines of `text`, each with its own terminator (\n or \r\n; the last may have none). */
export function splitLines(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', start)) {
    out.push(text.slice(start, i + 1));
    start = i + 1;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/** The line diff from `before` to `after`. */
export function lineDiff(before: string, after: string): LineDiff {
  return diffLineArrays(splitLines(before), splitLines(after));
}

/** The line diff of texts already split by splitLines (a caller that also needs the lines). */
export function diffLineArrays(a: readonly string[], b: readonly string[]): LineDiff {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  if (!am.length && !bm.length) return { hunks: [], added: 0, removed: 0 };
  const wholeMiddle: Hunk = { oldStart: head, oldLines: am, newStart: head, newLines: bm };
  // Only one side has lines left: that is the diff, no search needed.
  if (!am.length || !bm.length) return { hunks: [wholeMiddle], added: bm.length, removed: am.length };
  const cap = editCap(am.length + bm.length);
  const parts = surelyPastCap(am, bm, cap) ? undefined : diffArrays(am, bm, { maxEditLength: cap });
  if (!parts) return { hunks: [wholeMiddle], added: bm.length, removed: am.length, tooLarge: true };
  return collectHunks(parts, head);
}

/** The edit cap for a changed middle of `lines` lines (both sides): see the header. */
export function editCap(lines: number): number {
  return Math.min(MAX_EDIT_LENGTH, Math.floor(WORK_BUDGET / lines));
}

/**
 * Whether the edit distance is surely past `cap`, in one pass over both sides instead of Myers'
 * lines × edits: every copy of a line that one side has and the other has not must be inserted or
 * deleted, so counting those gives a lower bound. It stops as soon as that count passes the cap.
 */
function surelyPastCap(a: readonly string[], b: readonly string[], cap: number): boolean {
  if (Math.abs(a.length - b.length) > cap) return true;
  const unmatched = new Map<string, number>();
  for (const l of a) unmatched.set(l, (unmatched.get(l) ?? 0) + 1);
  let edits = 0;
  for (const l of b) {
    const n = unmatched.get(l);
    if (n) unmatched.set(l, n - 1);
    else if (++edits > cap) return true; // No copy left on the old side: an insertion.
  }
  for (const n of unmatched.values()) if ((edits += n) > cap) return true; // Deletions.
  return false;
}

/** jsdiff's runs of kept / removed / added lines as hunks; `head` lines precede them unchanged. */
function collectHunks(parts: { value: string[]; added: boolean; removed: boolean }[], head: number): LineDiff {
  const hunks: Hunk[] = [];
  let added = 0;
  let removed = 0;
  let o = head;
  let n = head;
  let open: { oldStart: number; oldLines: string[]; newStart: number; newLines: string[] } | undefined;
  for (const p of parts) {
    if (!p.added && !p.removed) {
      if (open) hunks.push(open);
      open = undefined;
      o += p.value.length;
      n += p.value.length;
      continue;
    }
    open ??= { oldStart: o, oldLines: [], newStart: n, newLines: [] };
    if (p.removed) {
      open.oldLines.push(...p.value);
      o += p.value.length;
      removed += p.value.length;
    } else {
      open.newLines.push(...p.value);
      n += p.value.length;
      added += p.value.length;
    }
  }
  if (open) hunks.push(open);
  return { hunks, added, removed };
}
