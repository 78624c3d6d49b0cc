// Where a review comment's lines are now. A comment keeps the text of its lines as they read when
// it was made (or last sent), and a few lines around them: after the agent's turn the lines are
// looked for again. Found as they were (in place, or moved by lines added or removed elsewhere):
// the comment still holds. Not found: the comment is outdated, and what stands between the lines
// that surrounded it is what the agent made of them (empty: it deleted them). Pure: lines in,
// places out; the vscode side reads the documents.

/** How many lines above and below a comment's lines are kept to find its place again. */
export const CONTEXT_LINES = 2;

/** A comment's lines as they read, where they were, and their neighbours. */
export interface LineAnchor {
  /** 0-based index of the first commented line. */
  readonly start: number;
  /** The commented lines' text (without line ends); at least one line. */
  readonly lines: readonly string[];
  /** Up to CONTEXT_LINES lines just above (fewer at the top of the file). */
  readonly before: readonly string[];
  /** Up to CONTEXT_LINES lines just below (fewer at the end of the file). */
  readonly after: readonly string[];
}

/** What became of an anchor's lines in the file as it is now. */
export type Located =
  /** The same lines at `start` (moved when it differs from the anchor's). */
  | { readonly kind: 'same'; readonly start: number }
  /** Other text stands where they were: `lines`, from `start`. */
  | { readonly kind: 'changed'; readonly start: number; readonly lines: readonly string[] }
  /** Nothing stands where they were: they were deleted; `start` is where they would be. */
  | { readonly kind: 'deleted'; readonly start: number }
  /** The file itself is gone. */
  | { readonly kind: 'fileGone' };

/** The anchor of lines `start`..`end` (0-based, inclusive) of `doc`. */
export function anchorAt(doc: readonly string[], start: number, end: number): LineAnchor {
  const first = clamp(start, 0, Math.max(0, doc.length - 1));
  const last = clamp(end, first, Math.max(first, doc.length - 1));
  return {
    start: first,
    lines: doc.length ? doc.slice(first, last + 1) : [''],
    before: doc.slice(Math.max(0, first - CONTEXT_LINES), first),
    after: doc.slice(last + 1, last + 1 + CONTEXT_LINES),
  };
}

/** The 0-based last line an anchor covers. */
export function anchorEnd(a: Pick<LineAnchor, 'start' | 'lines'>): number {
  return a.start + Math.max(1, a.lines.length) - 1;
}

/** Where `anchor`'s lines are in `doc` (null: the file is gone), or what replaced them. */
export function locate(anchor: LineAnchor, doc: readonly string[] | null): Located {
  if (doc === null) return { kind: 'fileGone' };
  if (linesAt(doc, anchor.start, anchor.lines)) return { kind: 'same', start: anchor.start };
  const moved = findMoved(anchor, doc);
  if (moved !== undefined) return { kind: 'same', start: moved };
  const { from, to } = replacedRegion(anchor, doc);
  return from >= to ? { kind: 'deleted', start: from } : { kind: 'changed', start: from, lines: doc.slice(from, to) };
}

/** True when the located lines no longer read as the comment quoted them. */
export function isOutdated(l: Located): boolean {
  return l.kind !== 'same';
}

/**
 * The nearest other place the lines stand, if their neighbours confirm it (an unchanged line
 * above or below): a lone `}` or blank line found elsewhere is not the commented one. Without
 * neighbours (the comment covers the whole file) the lines alone decide.
 */
function findMoved(anchor: LineAnchor, doc: readonly string[]): number | undefined {
  const hasContext = anchor.before.length > 0 || anchor.after.length > 0;
  let best: number | undefined;
  for (const at of occurrences(doc, anchor.lines)) {
    if (hasContext && !contextHolds(anchor, doc, at)) continue;
    if (best === undefined || Math.abs(at - anchor.start) < Math.abs(best - anchor.start)) best = at;
  }
  return best;
}

function contextHolds(anchor: LineAnchor, doc: readonly string[], at: number): boolean {
  const end = at + anchor.lines.length;
  const above = anchor.before.length ? linesAt(doc, at - anchor.before.length, anchor.before) : at === 0;
  const below = anchor.after.length ? linesAt(doc, end, anchor.after) : end === doc.length;
  return above || below;
}

/**
 * The lines that now stand between the comment's neighbours: after the neighbours above (found
 * nearest the old place) and before the neighbours below (the first after those). A side whose
 * neighbours are gone too is guessed from the other side and the comment's length.
 */
function replacedRegion(anchor: LineAnchor, doc: readonly string[]): { from: number; to: number } {
  const length = anchor.lines.length;
  const aboveEnds = anchor.before.length
    ? nearest(
        occurrences(doc, anchor.before).map((at) => at + anchor.before.length),
        anchor.start,
      )
    : 0;
  const searchFrom = aboveEnds ?? 0;
  const belowStarts = anchor.after.length
    ? nearest(
        occurrences(doc, anchor.after).filter((at) => at >= searchFrom),
        (aboveEnds ?? anchor.start) + length,
      )
    : doc.length;
  let from = aboveEnds ?? (belowStarts !== undefined ? Math.max(0, belowStarts - length) : anchor.start);
  let to = belowStarts ?? from + length;
  from = clamp(from, 0, doc.length);
  to = clamp(to, from, doc.length);
  return { from, to };
}

function nearest(candidates: readonly number[], target: number): number | undefined {
  let best: number | undefined;
  for (const c of candidates) if (best === undefined || Math.abs(c - target) < Math.abs(best - target)) best = c;
  return best;
}

/** Every index where `lines` stand in `doc`, in order. */
function occurrences(doc: readonly string[], lines: readonly string[]): number[] {
  const out: number[] = [];
  if (!lines.length) return out;
  for (let i = 0; i + lines.length <= doc.length; i++) if (linesAt(doc, i, lines)) out.push(i);
  return out;
}

function linesAt(doc: readonly string[], at: number, lines: readonly string[]): boolean {
  if (at < 0 || at + lines.length > doc.length) return false;
  for (let i = 0; i < lines.length; i++) if (doc[at + i] !== lines[i]) return false;
  return true;
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.min(Math.max(n, lo), hi);
}
