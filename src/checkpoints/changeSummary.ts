// A changed file as the session view lists it: created / deleted / modified, and the lines added
// and removed (the same line diff as the per-hunk review, so both count alike). Binary content
// (not exact UTF-8) has no line counts.
import { computeHunks, decodeExact } from './hunks';

export interface ChangeSummary {
  readonly kind: 'created' | 'deleted' | 'modified';
  readonly added?: number;
  readonly removed?: number;
}

/** `before` / `after`: the file's bytes (null: it did not exist). */
export function summarizeChange(before: Uint8Array | null, after: Uint8Array | null): ChangeSummary {
  const kind = before === null ? 'created' : after === null ? 'deleted' : 'modified';
  const a = before === null ? '' : decodeExact(before);
  const b = after === null ? '' : decodeExact(after);
  if (a === undefined || b === undefined) return { kind };
  let added = 0;
  let removed = 0;
  for (const h of computeHunks(a, b)) {
    added += h.newLines.length;
    removed += h.oldLines.length;
  }
  return { kind, added, removed };
}
