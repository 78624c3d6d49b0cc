// A changed file as the session view lists it: created / deleted / modified, and the lines added
// and removed by the shared line diff (src/shared/lineDiff.ts: the same as the per-hunk review and
// the webview's inline diff, so all three count alike). Binary content (not exact UTF-8) has no
// line counts.
import { lineDiff } from '../shared/lineDiff';
import { decodeExact } from './hunks';

export interface ChangeSummary {
  readonly kind: 'created' | 'deleted' | 'modified';
  readonly added?: number;
  readonly removed?: number;
  /**
   * Too large to diff within the line diff's bound: `added` / `removed` count the whole changed
   * middle as replaced, so they are upper bounds (absent when the counts are exact).
   */
  readonly tooLarge?: true;
}

/** `before` / `after`: the file's bytes (null: it did not exist). */
export function summarizeChange(before: Uint8Array | null, after: Uint8Array | null): ChangeSummary {
  const kind = before === null ? 'created' : after === null ? 'deleted' : 'modified';
  const a = before === null ? '' : decodeExact(before);
  const b = after === null ? '' : decodeExact(after);
  if (a === undefined || b === undefined) return { kind };
  const { added, removed, tooLarge } = lineDiff(a, b);
  return tooLarge ? { kind, added, removed, tooLarge } : { kind, added, removed };
}
