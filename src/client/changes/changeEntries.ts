// Tracker entries whose `before` is not held in memory: read when asked (from the checkpoint
// store's copy) instead of kept. An entry reloaded after a window reload starts that way, so
// activation reads no file content; an entry past the tracker's byte cap is turned into one.
// Every consumer reads `entry.before` as before; only copying an entry must keep the getter,
// which clone() does (a spread would read the bytes and keep them).
// The entry types live here too (changeTracker.ts re-exports them), beside the helpers.

export type ChangeSource = 'write' | 'diff' | 'scan';
export type ChangeState = 'pending' | 'kept' | 'reverted';

export interface FileChange {
  readonly sessionId: string;
  readonly turn: number;
  readonly path: string;
  /** The file before the agent's first change in this turn; null: it did not exist. */
  readonly before: Uint8Array | null;
  /** False when the snapshot was rebuilt from a diff's oldText rather than read from the file. */
  readonly exact: boolean;
  readonly source: ChangeSource;
  /** Tool calls that touched the file in this turn (diff content), if known. */
  readonly toolCallIds: readonly string[];
  readonly state: ChangeState;
  /** Changed on disk by the agent (for diff-sourced entries: the call completed). */
  readonly applied: boolean;
  /** The bytes left memory (the cap): `before` reads the stored copy, or throws SnapshotGone. */
  readonly dropped?: boolean;
}

export interface TurnChanges {
  readonly sessionId: string;
  readonly turn: number;
  readonly files: readonly FileChange[];
}

/** Keeps the entries beyond memory: told every entry as it is after each change. */
export interface ChangeJournal {
  /** `entry` undefined: the entry was dropped (its change never happened). */
  record(sessionId: string, turn: number, path: string, entry: FileChange | undefined): void;
  /**
   * The file as the agent left it after its change in `turn`, when something changed it since
   * (a later turn, the user's saved edit, a restore); undefined: nothing did that it knows of.
   */
  afterOf?(sessionId: string, turn: number, path: string): Promise<Uint8Array | null | undefined>;
  /** The stored copy of an entry's `before` (synchronous: `before` is a property); throws if none. */
  readBefore?(sessionId: string, turn: number, path: string): Uint8Array | null;
}

const notHeld = new WeakSet<FileChange>();

/** True when `e.before` is held in memory (false: it is read from storage when asked). */
export function snapshotInMemory(e: FileChange): boolean {
  return !notHeld.has(e);
}

/** Bytes of `e.before` held in memory. */
export function heldBytes(e: FileChange): number {
  return notHeld.has(e) ? 0 : (e.before?.length ?? 0);
}

/** An entry whose `before` is read by `load` each time it is asked for (never kept). */
export function storedEntry(meta: Omit<FileChange, 'before'>, load: () => Uint8Array | null): FileChange {
  const out = { ...meta } as FileChange;
  Object.defineProperty(out, 'before', { get: load, enumerable: true, configurable: true });
  notHeld.add(out);
  return out;
}

/** `e` with `patch` applied, keeping a stored `before` stored unless the patch replaces it. */
export function clone(e: FileChange, patch: Partial<FileChange>): FileChange {
  const out = Object.defineProperties({}, Object.getOwnPropertyDescriptors(e)) as FileChange;
  for (const [k, value] of Object.entries(patch))
    Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
  if (notHeld.has(e) && !('before' in patch)) notHeld.add(out);
  return out;
}

/** Said when a dropped snapshot has no stored copy to read back. */
export class SnapshotGone extends Error {
  constructor(path: string, turn: number) {
    super(
      `The snapshot of ${path} from before prompt ${turn + 1} is gone: it was dropped to keep memory bounded and no checkpoint copy of it exists.`,
    );
    this.name = 'SnapshotGone';
  }
}

/**
 * `e.before`, or undefined when it is gone (dropped past the cap with no stored copy): views list
 * such a change as modified with its snapshot gone, instead of failing to list the whole turn.
 */
export function beforeIfKnown(e: Pick<FileChange, 'before'>): Uint8Array | null | undefined {
  try {
    return e.before;
  } catch (err) {
    if (err instanceof SnapshotGone) return undefined;
    throw err;
  }
}
