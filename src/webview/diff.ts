// Rows of the inline diff of a `{type:"diff"}` tool content: the shared line diff
// (src/shared/lineDiff.ts, the one the host counts changed lines with, so the +/− here and in the
// changes list agree) laid out as numbered rows, then folded to the changed rows with some context.
import { diffLineArrays, splitLines } from '../shared/lineDiff';

export type DiffLine = {
  t: ' ' | '+' | '-';
  /** The line without its terminator. */
  text: string;
  oldNo?: number;
  newNo?: number;
  /** The text's last line, without a newline at its end (only the newline may have changed). */
  noNewline?: true;
};

export interface DiffResult {
  /** Every line of both texts in order; empty when tooLarge. */
  lines: DiffLine[];
  added: number;
  removed: number;
  /** oldText was null: a new file. */
  isNew: boolean;
  /** Past the line diff's bound: no rows, and added / removed count the whole changed middle. */
  tooLarge: boolean;
}

export function diffLines(oldText: string | null | undefined, newText: string): DiffResult {
  const isNew = oldText == null;
  const a = splitLines(oldText ?? '');
  const b = splitLines(newText);
  const d = diffLineArrays(a, b);
  const result = { added: d.added, removed: d.removed, isNew, tooLarge: d.tooLarge === true };
  if (d.tooLarge) return { ...result, lines: [] };
  const lines: DiffLine[] = [];
  let o = 0;
  let n = 0;
  const row = (t: DiffLine['t'], line: string): void => {
    const r: DiffLine = { t, text: line.replace(/\r?\n$/, '') };
    if (t !== '+') r.oldNo = ++o;
    if (t !== '-') r.newNo = ++n;
    if (!line.endsWith('\n')) r.noNewline = true;
    lines.push(r);
  };
  for (const h of d.hunks) {
    while (o < h.oldStart) row(' ', a[o]);
    for (const l of h.oldLines) row('-', l);
    for (const l of h.newLines) row('+', l);
  }
  while (o < a.length) row(' ', a[o]);
  return { ...result, lines };
}

/** Keeps changed lines with `context` lines around them; gaps become one `null` entry. */
export function foldUnchanged(lines: DiffLine[], context = 3): (DiffLine | null)[] {
  const keep = new Uint8Array(lines.length);
  lines.forEach((l, i) => {
    if (l.t === ' ') return;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) keep[j] = 1;
  });
  const out: (DiffLine | null)[] = [];
  let gap = false;
  for (let i = 0; i < lines.length; i++) {
    if (keep[i]) {
      out.push(lines[i]);
      gap = false;
    } else if (!gap) {
      out.push(null);
      gap = true;
    }
  }
  return out;
}
