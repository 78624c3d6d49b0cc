// Undo of one turn's change to a file (Review Changes, the session view's undo, Undo All in the
// editor). The file may have changed since the agent left it: a later turn, a command, the user's
// saved or unsaved edits. Writing the turn's `before` back would wipe those, so the file now is
// compared with what the agent left (its after-bytes): the same, and the exact `before` comes
// back; different, and only the turn's own hunks are reversed on top of the file now (a
// three-way merge whose base is the agent's version), when none of them touches a later change;
// otherwise the caller asks the user, saying what would be lost. Pure, but for agentAfterOf.
import { Buffer } from 'node:buffer';
import { type ChangeSummary, summarizeChange } from './changeSummary';
import type { CheckpointStore } from './checkpointStore';
import { computeHunks, decodeExact, type Hunk, splitLines } from './hunks';

export type UndoPlan =
  /** The file already is as it was before the turn. */
  | { readonly kind: 'none' }
  /** Nothing changed it since the agent: its exact bytes from before the turn (null: delete it). */
  | { readonly kind: 'whole'; readonly bytes: Uint8Array | null }
  /** Changed since: the turn's hunks reversed, the later changes kept. */
  | { readonly kind: 'merge'; readonly text: string }
  /** The turn's change cannot be taken out alone: only replacing the whole file undoes it. */
  | {
      readonly kind: 'conflict';
      readonly why: string;
      /** The changes made since the agent's, which replacing the file loses (undefined: none, or not text). */
      readonly lost: ChangeSummary | undefined;
      readonly bytes: Uint8Array | null;
    };

type Bytes = Uint8Array | null;

/**
 * `before`: the file before the turn; `after`: as the agent left it; `current`: the file now (the
 * editor's buffer when it has unsaved edits). null: the file did not / does not exist.
 */
export function planUndo(before: Bytes, after: Bytes, current: Bytes): UndoPlan {
  if (same(current, before)) return { kind: 'none' };
  if (same(current, after)) return { kind: 'whole', bytes: before };
  const conflict = (why: string): UndoPlan => ({
    kind: 'conflict',
    why,
    lost: after !== null && current !== null ? summarizeChange(after, current) : undefined,
    bytes: before,
  });
  if (current === null) return conflict('it was deleted after the agent changed it');
  if (before === null) return conflict('the agent created it, and it has changed since');
  if (after === null) return conflict('the agent deleted it, and it was created again since');
  const [b, a, c] = [decodeExact(before), decodeExact(after), decodeExact(current)];
  if (b === undefined || a === undefined || c === undefined)
    return conflict('it is not text, and it has changed since the agent changed it');
  const text = mergeUndo(b, a, c);
  return text === undefined
    ? conflict('the lines the agent changed have been changed again since')
    : { kind: 'merge', text };
}

/**
 * `current` with the change before → after taken out (after is the common base): undefined when
 * one of its hunks overlaps or touches a change after → current (a line between them is needed,
 * as in git's merge), so nobody's line is guessed at.
 */
export function mergeUndo(before: string, after: string, current: string): string | undefined {
  const undo = computeHunks(after, before);
  const later = computeHunks(after, current);
  if (undo.some((u) => later.some((l) => touches(u, l)))) return undefined;
  const base = splitLines(after);
  // Pieces, joined once: not out.push(...lines), as a hunk past the diff's bound can have more
  // lines than a call may take arguments.
  const pieces: string[] = [];
  let i = 0;
  for (const h of [...undo, ...later].sort((x, y) => x.oldStart - y.oldStart)) {
    pieces.push(base.slice(i, h.oldStart).join(''), h.newLines.join(''));
    i = h.oldStart + h.oldLines.length;
  }
  pieces.push(base.slice(i).join(''));
  return pieces.join('');
}

/** Both hunks' lines in the base, as closed ranges (an insertion is the point where it goes). */
function touches(a: Hunk, b: Hunk): boolean {
  return a.oldStart <= b.oldStart + b.oldLines.length && b.oldStart <= a.oldStart + a.oldLines.length;
}

function same(a: Bytes, b: Bytes): boolean {
  return a === null || b === null ? a === b : Buffer.from(a).equals(Buffer.from(b));
}

/** What the user is asked before the whole file is replaced: one question for every such file. */
export function undoQuestion(files: readonly { label: string; turn: number; plan: UndoPlan }[]): {
  message: string;
  detail: string;
} {
  const lines = files.map(({ label, turn, plan }) => {
    const why = plan.kind === 'conflict' ? plan.why : 'it has changed since';
    return `${label} (turn ${turn + 1}): ${why}. ${lostText(plan)}`;
  });
  const message =
    files.length === 1
      ? `Undo the agent's change to ${files[0].label}? It has changed since.`
      : `Undo the agent's changes to ${files.length} files? They have changed since.`;
  const detail = `${lines.join('\n')}\n\nUndo puts back the whole file as it was before the turn: whatever changed since is lost.`;
  return { message, detail };
}

function lostText(plan: UndoPlan): string {
  const lost = plan.kind === 'conflict' ? plan.lost : undefined;
  if (!lost || lost.added === undefined) return 'The changes made since would be lost.';
  // Past the line diff's bound the counts are the whole changed middle: say they are at most that.
  const upTo = lost.tooLarge ? 'up to ' : '';
  return `The changes made since (${upTo}${lost.added} line${lost.added === 1 ? '' : 's'} added, ${upTo}${lost.removed} removed) would be lost.`;
}

/**
 * The file as the agent left it after its change in `turn`, when the session's log shows
 * something changed it since (a later turn, an edit found between turns, a restore). Scans first,
 * so a command or a save since the last scan counts. undefined: nothing did (the file now is what
 * the agent left). Throws when that copy was too big to keep: then nothing is known to compare.
 */
export async function agentAfterOf(
  store: CheckpointStore,
  sessionId: string,
  turn: number,
  file: string,
): Promise<Uint8Array | null | undefined> {
  const s = store.sessions.get(sessionId);
  if (!s) return undefined;
  await freshScan(store, sessionId);
  const ref = s.timeline.afterChange(turn, store.canonical(file));
  return ref === undefined ? undefined : store.read(ref);
}

const scans = new WeakMap<CheckpointStore, Map<string, Promise<void>>>();

/**
 * A scan of the workspace, shared by the files of one undo (asked for together): each would
 * otherwise walk the whole workspace again.
 */
function freshScan(store: CheckpointStore, sessionId: string): Promise<void> {
  let running = scans.get(store);
  if (!running) scans.set(store, (running = new Map()));
  let scan = running.get(sessionId);
  if (!scan) {
    scan = store
      .rescan(sessionId)
      .then(() => store.whenIdle())
      .finally(() => running.delete(sessionId));
    running.set(sessionId, scan);
  }
  return scan;
}
