// Who made a change that a workspace scan found (a command, an agent writing the disk itself,
// the user): decided by the time it happened. During a turn (from its prompt's checkpoint until
// it ended) it is the agent's, recorded as a ChangeTracker entry (source 'scan') with the content
// the previous scan kept as its `before`; after the turn ended it happened between turns, and is
// recorded before the next checkpoint so that a restore to an earlier one still finds the state
// the file had then. A file the agent had already reported in that turn keeps the agent's
// snapshot, made exact from the scan's copy when it came from a diff after the fact.
import { sha256 } from './blobStore';
import type { CheckpointStore, SessionData } from './checkpointStore';
import type { FileDelta } from './manifest';

/**
 * Checkpoint times are read from the file system's clock (CheckpointStore.clock), so they compare
 * with file times directly; a save event's time (Date.now) may be ahead of the file's by a tick.
 */
const CLOCK_SLACK_MS = 10;

/** Who changed a file the scan found changed: the turn running then, or nobody (between turns). */
export async function attribute(store: CheckpointStore, s: SessionData, d: FileDelta): Promise<void> {
  const tl = s.timeline;
  const before = d.before ?? null;
  const prompt = tl.promptAt(d.mtimeMs);
  if (!prompt || prompt.turn === undefined) return; // before this session began
  const ended = tl.settled.get(prompt.turn);
  const { tracker } = store.opts;
  const known = tracker.get(s.id, prompt.turn, d.path);
  // An editor saved it and the agent did not write it: the user's buffer (also when VS Code saves
  // dirty buffers as a side effect of the agent's edit).
  const savedAt = store.savedAt(d.path);
  const bySave = !known && savedAt !== undefined && savedAt >= d.mtimeMs - CLOCK_SLACK_MS;
  if ((ended !== undefined && d.mtimeMs > ended) || bySave) {
    const cp = tl.firstAfter(d.mtimeMs)?.id ?? tl.nextId;
    store.append(s, { k: 'between', cp, path: d.path, before, after: d.after });
    return;
  }
  const readBeforeTurn = d.beforeMtimeMs !== undefined && d.beforeMtimeMs < prompt.at;
  if (known && readBeforeTurn && typeof before === 'string') {
    // Reported by the agent: its snapshot is exact unless it came from a diff after the fact.
    if (!known.exact) tracker.exactBefore(s.id, prompt.turn, d.path, await store.blobs.get(before));
    else if (known.source !== 'scan') {
      const after = known.before ? sha256(known.before) : null;
      if (after !== before) store.append(s, { k: 'between', cp: prompt.id, path: d.path, before, after });
    }
    return;
  }
  if (known) return;
  if (before !== null && typeof before !== 'string') {
    store.warn(`${d.path} was changed in turn ${prompt.turn + 1} but was too big to keep: it cannot be restored.`);
    store.append(s, {
      k: 'change',
      turn: prompt.turn,
      path: d.path,
      before,
      source: 'scan',
      exact: true,
      toolCallIds: [],
      state: 'pending',
      applied: true,
    });
    return;
  }
  const bytes = before === null ? null : await store.blobs.get(before);
  tracker.snapshot(s.id, prompt.turn, d.path, bytes, { source: 'scan', exact: true, applied: true });
}
