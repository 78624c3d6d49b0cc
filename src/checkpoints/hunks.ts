// Per-hunk keep / undo of the agent's pending changes to one file: the model that the session
// view's changes list and the editor's decorations share. Three texts: `original` (the file
// before the agent's changes), `baseline` (the original plus every hunk the user kept) and
// `current` (the file now). The pending hunks are the diff baseline → current. Keeping a hunk
// copies it into the baseline; undoing one puts the baseline's lines back into the current text;
// every other hunk stays as it is. Lines keep their terminators, so CRLF files and a last line
// without a newline come back byte for byte. The line diff is jsdiff's (Myers), bounded: past
// MAX_EDIT_LENGTH edits the changed middle becomes a single hunk instead of stalling the host.
import { diffArrays } from 'diff';

export interface Hunk {
  /** First line (0-based) of the hunk in the baseline, and the lines it has there. */
  readonly oldStart: number;
  readonly oldLines: readonly string[];
  /** First line (0-based) of the hunk in the current text, and the lines it has now. */
  readonly newStart: number;
  readonly newLines: readonly string[];
}

/** A replacement of whole lines [startLine, endLine) of a text by `text`. */
export interface LineEdit {
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
}

/** pending: hunks to review; kept: none left, the file differs from the original; undone: it is the original again. */
export type FileReviewState = 'pending' | 'kept' | 'undone';

const MAX_EDIT_LENGTH = 4000;

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

/** The text of `bytes` when they are UTF-8 text that encodes back to the same bytes; else undefined (binary). */
export function decodeExact(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
  return text;
}

export function computeHunks(baseline: string, current: string): Hunk[] {
  const a = splitLines(baseline);
  const b = splitLines(current);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  if (!am.length && !bm.length) return [];
  const parts = diffArrays(am, bm, { maxEditLength: MAX_EDIT_LENGTH }) ?? [
    { value: am, removed: true, added: false, count: am.length },
    { value: bm, added: true, removed: false, count: bm.length },
  ];
  const hunks: Hunk[] = [];
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
    } else {
      open.newLines.push(...p.value);
      n += p.value.length;
    }
  }
  if (open) hunks.push(open);
  return hunks;
}

/** The edit of the current text that undoes `h` (its lines go back to the baseline's). */
export function undoEdit(h: Hunk): LineEdit {
  return { startLine: h.newStart, endLine: h.newStart + h.newLines.length, text: h.oldLines.join('') };
}

function replaceLines(text: string, start: number, count: number, lines: readonly string[]): string {
  const all = splitLines(text);
  all.splice(start, count, ...lines);
  return all.join('');
}

/** One file's review: the pending hunks, keep / undo per hunk or all, and the resulting state. */
export class FileReview {
  private cached: Hunk[] | undefined;

  constructor(
    readonly path: string,
    readonly original: string,
    private currentText: string,
    private baselineText: string = original,
  ) {}

  get current(): string {
    return this.currentText;
  }

  /** The original plus the hunks the user kept. */
  get baseline(): string {
    return this.baselineText;
  }

  get hunks(): readonly Hunk[] {
    return (this.cached ??= computeHunks(this.baselineText, this.currentText));
  }

  get state(): FileReviewState {
    if (this.hunks.length) return 'pending';
    return this.currentText === this.original ? 'undone' : 'kept';
  }

  /** The file changed (the agent wrote again, the user typed): its hunks are recomputed. */
  update(current: string): void {
    this.currentText = current;
    this.cached = undefined;
  }

  /** Accepts hunk `i`: it joins the baseline and is no longer pending. */
  keep(i: number): void {
    const h = this.hunk(i);
    this.baselineText = replaceLines(this.baselineText, h.oldStart, h.oldLines.length, h.newLines);
    this.cached = undefined;
  }

  /** Undoes hunk `i` in the current text; returns the edit the editor applies (the rest stays). */
  undo(i: number): LineEdit {
    const h = this.hunk(i);
    const edit = undoEdit(h);
    this.currentText = replaceLines(this.currentText, h.newStart, h.newLines.length, h.oldLines);
    this.cached = undefined;
    return edit;
  }

  keepAll(): void {
    this.baselineText = this.currentText;
    this.cached = undefined;
  }

  /** Undoes every pending hunk (kept ones stay); returns the whole new text. */
  undoAll(): string {
    this.currentText = this.baselineText;
    this.cached = undefined;
    return this.currentText;
  }

  private hunk(i: number): Hunk {
    const h = this.hunks[i];
    if (!h) throw new RangeError(`${this.path} has no pending change number ${i + 1}.`);
    return h;
  }
}
