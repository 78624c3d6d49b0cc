// The ChangeTracker's entries and the stored copies of their `before`: kept once per distinct
// bytes while the session runs (entryRef), and after a reload the newest turns' entries go back
// into the tracker with their bytes, so Review Changes lists them again and can revert them.
// Entries whose content was too big to keep stay out (a revert would have nothing to write); the
// restore plan reports them.
import type { FileChange } from '../client/changeTracker';
import { TooBigToKeep } from './blobStore';
import type { CheckpointStore, SessionData } from './checkpointStore';
import type { BlobRef, ChangeRecord } from './timeline';

/** How many of the newest turns' entries go back into the tracker (the tracker's own cap). */
const RELOADED_TURNS = 50;

/** The newest turns' entries, with their bytes, back into the tracker. */
export async function reloadTracker(store: CheckpointStore, sessions: readonly SessionData[]): Promise<void> {
  const groups: { at: number; s: SessionData; recs: ChangeRecord[] }[] = [];
  for (const s of sessions) {
    const byTurn = new Map<number, ChangeRecord[]>();
    for (const { rec } of s.timeline.changes.values())
      if (rec.applied && (rec.before === null || typeof rec.before === 'string'))
        byTurn.set(rec.turn, [...(byTurn.get(rec.turn) ?? []), rec]);
    for (const [turn, recs] of byTurn) groups.push({ at: s.timeline.ofTurn(turn)?.at ?? 0, s, recs });
  }
  groups.sort((a, b) => a.at - b.at);
  const entries: FileChange[] = [];
  for (const { s, recs } of groups.slice(-RELOADED_TURNS))
    for (const { turn, path: file, before: ref, exact, source, toolCallIds, state, applied } of recs) {
      try {
        const before = await store.read(ref);
        entries.push({ sessionId: s.id, turn, path: file, before, exact, source, toolCallIds, state, applied });
        s.refs.set(`${turn}\u0000${file}`, { bytes: before, ref });
      } catch (err) {
        store.warn(err instanceof Error ? err.message : String(err));
      }
    }
  store.opts.tracker.load(entries);
}

/** The blob of a tracker entry's `before` (stored once per distinct bytes). */
export async function entryRef(store: CheckpointStore, s: SessionData, e: FileChange): Promise<BlobRef> {
  const k = `${e.turn}\u0000${e.path}`;
  const cached = s.refs.get(k);
  if (cached && cached.bytes === e.before) return cached.ref;
  let ref: BlobRef = null;
  if (e.before) {
    try {
      ref = await store.blobs.put(e.before, e.path);
    } catch (err) {
      if (!(err instanceof TooBigToKeep)) throw err;
      store.warn(err.message);
      ref = { tooBig: e.before.length };
    }
  }
  s.refs.set(k, { bytes: e.before, ref });
  return ref;
}
