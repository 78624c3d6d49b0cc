// The ChangeTracker's entries and the stored copies of their `before`: kept once per distinct
// bytes while the session runs (entryRef), and after a reload the newest turns' entries go back
// into the tracker, so Review Changes lists them again and can revert them. Their bytes are read
// from the stored copy only when asked (activation reads no content: at 50 turns of a codemod
// that would be every changed file, inflated), and so are those the tracker dropped past its cap.
// Entries whose content was too big to keep stay out (a revert would have nothing to write); the
// restore plan reports them.
import { SnapshotGone, snapshotInMemory, storedEntry } from '../client/changes/changeEntries';
import type { FileChange } from '../client/changes/changeTracker';
import { TooBigToKeep } from './blobStore';
import type { CheckpointStore, SessionData } from './checkpointStore';
import type { BlobRef, ChangeRecord } from './timeline';

/** How many of the newest turns' entries go back into the tracker (the tracker's own cap). */
const RELOADED_TURNS = 50;

/** The newest turns' entries back into the tracker (their bytes read when asked). */
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
  const onDisk = await store.blobs.list();
  for (const { s, recs } of groups.slice(-RELOADED_TURNS))
    for (const { turn, path: file, before: ref, exact, source, toolCallIds, state, applied } of recs) {
      if (typeof ref === 'string' && !onDisk.has(ref)) {
        store.warn(`The checkpoint copy ${ref.slice(0, 12)} of ${file} is missing from ${store.blobs.dir}.`);
        continue; // nothing to revert to: left out, as the restore plan reports it
      }
      const meta = { sessionId: s.id, turn, path: file, exact, source, toolCallIds, state, applied };
      entries.push(storedEntry(meta, () => readStored(store, ref)));
      s.refs.set(`${turn}\u0000${file}`, { bytes: undefined, ref });
    }
  store.opts.tracker.load(entries);
}

/** The blob of a tracker entry's `before` (stored once per distinct bytes). */
export async function entryRef(store: CheckpointStore, s: SessionData, e: FileChange): Promise<BlobRef> {
  const k = `${e.turn}\u0000${e.path}`;
  const cached = s.refs.get(k);
  // An entry whose bytes are not in memory holds the stored copy's (reading them would load them).
  if (cached && (!snapshotInMemory(e) || cached.bytes === e.before)) return cached.ref;
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

/** The stored copy of a tracker entry's `before`, read synchronously (ChangeJournal.readBefore). */
export function readBefore(store: CheckpointStore, sessionId: string, turn: number, file: string): Uint8Array | null {
  const ref = store.sessions.get(sessionId)?.refs.get(`${turn}\u0000${file}`)?.ref;
  if (ref === undefined) throw new SnapshotGone(file, turn);
  return readStored(store, ref);
}

function readStored(store: CheckpointStore, ref: BlobRef): Uint8Array | null {
  return ref === null ? null : store.blobs.getSync(shaOf(ref));
}

/** The blob id of a stored copy (a file too big to keep has none). */
export function shaOf(ref: Exclude<BlobRef, null>): string {
  if (typeof ref !== 'string') throw new TooBigToKeep('That file was too big to keep.', ref.tooBig);
  return ref;
}

/** Adds the blobs `s` needs (its log's, and its tracker entries' not yet logged) to `live`. */
export function liveBlobs(s: SessionData, live: Set<string>): void {
  s.timeline.blobs(live);
  for (const { ref } of s.refs.values()) if (typeof ref === 'string') live.add(ref);
}
