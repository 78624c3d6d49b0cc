// Per-hunk keep / undo of the agent's pending changes to one file: the model that the session
// view's changes list and the editor's decorations share. Three texts: `original` (the file
// before the agent's changes), `baseline` (the original plus every hunk the user kept) and
// `current` (the file now). The pending hunks are the diff baseline → current. Keeping a hunk
// copies it into the baseline; undoing one puts the baseline's lines back into the current text;
// every other hunk stays as it is. Lines keep their terminators, so CRLF files and a last line
// without a newline come back byte for byte. The line diff is the shared one
// (src/shared/lineDiff.ts, also the webview's), bounded: past its bound the changed middle is a
// single hunk instead of stalling the host.
import { type Hunk, lineDiff, splitLines } from '../shared/lineDiff';

export { type Hunk, splitLines };

/** A replacement of whole lines [startLine, endLine) of a text by `text`. */
export interface LineEdit {
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
}

/** pending: hunks to review; kept: none left, the file differs from the original; undone: it is the original again. */
export type FileReviewState = 'pending' | 'kept' | 'undone';

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

/** The hunks from `baseline` to `current` (one whole-middle hunk past the diff's bound). */
export function computeHunks(baseline: string, current: string): readonly Hunk[] {
  return lineDiff(baseline, current).hunks;
}

/** The edit of the current text that undoes `h` (its lines go back to the baseline's). */
export function undoEdit(h: Hunk): LineEdit {
  return { startLine: h.newStart, endLine: h.newStart + h.newLines.length, text: h.oldLines.join('') };
}

function replaceLines(text: string, start: number, count: number, lines: readonly string[]): string {
  const all = splitLines(text);
  // Not splice(start, count, ...lines): a hunk past the diff's bound can have more lines than a
  // call may take arguments.
  return [...all.slice(0, start), ...lines, ...all.slice(start + count)].join('');
}

/** One file's review: the pending hunks, keep / undo per hunk or all, and the resulting state. */
export class FileReview {
  private cached: readonly Hunk[] | undefined;

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
