// What the agent changed, per session and turn: a snapshot of each file before the first agent
// change in that turn, so the user can diff (before ↔ now), keep or revert. Pure bookkeeping:
// no I/O. Snapshots come from fs/write_text_file (exact bytes read just before the write) and,
// for agents that write the disk themselves (claude-agent-acp), from the `diff` content of their
// tool calls: the client reads the file while the call is still pending (exact), or falls back
// to the diff's oldText when it only sees the call after the fact (marked inexact); the agent's
// own copy of the file (claude-agent-acp's `originalFile`) corrects a read that came too late.
// Changes made by commands are found by the checkpoint store's workspace scan (source 'scan').
// Memory only; a ChangeJournal (the checkpoint store) keeps every entry on disk and loads them
// back after a reload. Paths are taken in one form (setCanonical: the real path of the workspace
// folder, checkpoints/pathForms.ts), so a file reached through a symlinked folder is one entry.
// Bounded: the bytes held for all entries stay under `maxBytes`; past it, the oldest turns' bytes
// are dropped (the entries stay listed, `dropped`) and read back from the journal when asked
// (changeEntries.ts); entries reloaded from the journal are read only when asked, too.
import {
  type ChangeJournal,
  type ChangeSource,
  type ChangeState,
  type FileChange,
  type TurnChanges,
} from './changeEntries';
import { clone, heldBytes, SnapshotGone, storedEntry } from './changeEntries';
import { Emitter } from '../../common/event';

export type { ChangeJournal, ChangeSource, ChangeState, FileChange, TurnChanges } from './changeEntries';

/** Memory for all entries' snapshots together (the oldest turns' bytes are dropped past it). */
export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;

type Key = string;
const key = (sessionId: string, turn: number): Key => `${sessionId}\u0000${turn}`;

export class ChangeTracker {
  private readonly turns = new Map<Key, Map<string, FileChange>>();
  private readonly order: Key[] = [];
  private readonly changed = new Emitter<{ sessionId: string; turn: number }>();
  readonly onDidChange = this.changed.event;

  private journal: ChangeJournal | undefined;
  private canon: (path: string) => string = (p) => p;

  /** Bytes of snapshots held in memory. */
  private held = 0;

  constructor(
    private readonly maxTurns = 50,
    private readonly maxBytes = DEFAULT_MAX_BYTES,
  ) {}

  /** Bytes of snapshots held in memory now (at most `maxBytes`, past the newest entry). */
  get heldBytes(): number {
    return this.held;
  }

  setJournal(journal: ChangeJournal | undefined): void {
    this.journal = journal;
  }

  /** How a path is written in the entries, whatever form a caller has it in. */
  setCanonical(canonical: (path: string) => string): void {
    this.canon = canonical;
  }

  /** `path` in the form the entries use. */
  canonical(path: string): string {
    return this.canon(path);
  }

  /** Entries read back from the journal (after a reload): no journal records, one event per turn. */
  load(entries: readonly FileChange[]): void {
    const touched = new Map<Key, FileChange>();
    for (const loaded of entries) {
      const e = clone(loaded, { path: this.canon(loaded.path) });
      this.filesOf(e.sessionId, e.turn).set(e.path, e);
      this.held += heldBytes(e);
      touched.set(key(e.sessionId, e.turn), e);
    }
    for (const e of touched.values()) this.changed.fire({ sessionId: e.sessionId, turn: e.turn });
  }

  /** True when no snapshot of `path` exists yet for this turn (the caller should take one). */
  needsSnapshot(sessionId: string, turn: number, path: string): boolean {
    path = this.canon(path);
    return !this.turns.get(key(sessionId, turn))?.has(path);
  }

  /**
   * Records the state of `path` before the agent's first change in the turn. The first snapshot
   * wins; a later exact one replaces an inexact one that was not applied yet.
   */
  snapshot(
    sessionId: string,
    turn: number,
    path: string,
    before: Uint8Array | null,
    opts: { source: ChangeSource; exact?: boolean; toolCallId?: string; applied?: boolean },
  ): FileChange {
    path = this.canon(path);
    const files = this.filesOf(sessionId, turn);
    const prev = files.get(path);
    const exact = opts.exact ?? true;
    if (prev && !(exact && !prev.exact && !prev.applied)) {
      const next = this.withCall(clone(prev, { applied: prev.applied || !!opts.applied }), opts.toolCallId);
      if (next.applied !== prev.applied || next.toolCallIds !== prev.toolCallIds) this.put(files, next);
      return next;
    }
    const entry: FileChange = this.withCall(
      {
        sessionId,
        turn,
        path,
        before: before ? copy(before) : null,
        exact,
        source: opts.source,
        toolCallIds: prev?.toolCallIds ?? [],
        state: 'pending',
        applied: !!opts.applied || !!prev?.applied,
      },
      opts.toolCallId,
    );
    this.put(files, entry);
    return entry;
  }

  /**
   * The agent's own copy of the file before `toolCallId` changed it (claude-agent-acp's
   * `originalFile`). Replaces the snapshot when that call took it and the two differ in more than
   * line endings: the client's read came after the agent had already written.
   */
  correctBefore(sessionId: string, turn: number, path: string, toolCallId: string, before: string | null): void {
    path = this.canon(path);
    const files = this.turns.get(key(sessionId, turn));
    const prev = files?.get(path);
    if (!files || !prev || prev.toolCallIds[0] !== toolCallId || prev.state !== 'pending') return;
    const lf = (s: string) => s.replace(/\r\n/g, '\n');
    const had = prev.before === null ? null : new TextDecoder().decode(prev.before);
    if (had === before || (had !== null && before !== null && lf(had) === lf(before))) return;
    const bytes = before === null ? null : new TextEncoder().encode(before);
    this.put(files, clone(prev, { before: bytes, exact: true, dropped: false }));
  }

  /**
   * The checkpoint scan's copy of the file from before the turn: replaces a snapshot that was
   * rebuilt from a diff (inexact), since the agent wrote the disk before Tandem could read it.
   */
  exactBefore(sessionId: string, turn: number, path: string, before: Uint8Array | null): void {
    path = this.canon(path);
    const files = this.turns.get(key(sessionId, turn));
    const prev = files?.get(path);
    if (!files || !prev || prev.exact) return;
    this.put(files, clone(prev, { before: before ? copy(before) : null, exact: true, dropped: false }));
  }

  /** Forgets a session's entries (its checkpoints were removed). */
  removeSession(sessionId: string): void {
    for (const k of [...this.turns.keys()]) if (k.startsWith(`${sessionId}\u0000`)) this.dropTurn(k);
    this.order.splice(0, this.order.length, ...this.order.filter((k) => this.turns.has(k)));
    this.changed.fire({ sessionId, turn: -1 });
  }

  /**
   * The agent changed the file (a write succeeded, a diff call completed). `via` says how, when
   * the caller knows: a write through Tandem names the change even when the snapshot came first
   * from the call's diff (claude-code-acp shows the diff, then writes with fs/write_text_file).
   */
  markApplied(sessionId: string, turn: number, path: string, via?: ChangeSource): void {
    path = this.canon(path);
    const files = this.turns.get(key(sessionId, turn));
    const prev = files?.get(path);
    const source = via ?? prev?.source;
    if (!files || !prev || (prev.applied && prev.state === 'pending' && prev.source === source)) return;
    // A change after keep/revert makes the file pending again (the snapshot stays the first one).
    this.put(files, clone(prev, { applied: true, state: 'pending', source: source! }));
  }

  /** Drops an entry whose change never happened (the write failed, the call was rejected). */
  forget(sessionId: string, turn: number, path: string): void {
    path = this.canon(path);
    const files = this.turns.get(key(sessionId, turn));
    const prev = files?.get(path);
    if (!files || !prev || prev.applied) return;
    files.delete(path);
    this.held -= heldBytes(prev);
    this.journal?.record(sessionId, turn, path, undefined);
    this.changed.fire({ sessionId, turn });
  }

  setState(sessionId: string, turn: number, path: string, state: ChangeState): void {
    path = this.canon(path);
    const files = this.turns.get(key(sessionId, turn));
    const prev = files?.get(path);
    if (!files || !prev || prev.state === state) return;
    this.put(files, clone(prev, { state }));
  }

  get(sessionId: string, turn: number, path: string): FileChange | undefined {
    path = this.canon(path);
    return this.turns.get(key(sessionId, turn))?.get(path);
  }

  /**
   * The file as the agent left it after its change in `turn` (what an undo of that change compares
   * the file with): the journal's record of what changed it since, else the snapshot of a later
   * turn's change of it; undefined: nothing known changed it since (the file now is the agent's).
   */
  async agentAfter(sessionId: string, turn: number, path: string): Promise<Uint8Array | null | undefined> {
    path = this.canon(path);
    const known = await this.journal?.afterOf?.(sessionId, turn, path);
    if (known !== undefined) return known;
    const later = this.allTurns(sessionId)
      .filter((t) => t.turn > turn)
      .flatMap((t) => t.files.filter((c) => c.path === path))
      .sort((a, b) => a.turn - b.turn);
    return later.length ? later[0].before : undefined;
  }

  /** The applied changes of one turn, in the order the files were first touched. */
  changes(sessionId: string, turn: number): FileChange[] {
    return [...(this.turns.get(key(sessionId, turn))?.values() ?? [])].filter((f) => f.applied);
  }

  /** Every turn with applied changes, newest first. */
  allTurns(sessionId?: string): TurnChanges[] {
    const out: TurnChanges[] = [];
    for (let i = this.order.length - 1; i >= 0; i--) {
      const files = [...(this.turns.get(this.order[i])?.values() ?? [])].filter((f) => f.applied);
      if (!files.length || (sessionId !== undefined && files[0].sessionId !== sessionId)) continue;
      out.push({ sessionId: files[0].sessionId, turn: files[0].turn, files });
    }
    return out;
  }

  dispose(): void {
    this.changed.dispose();
  }

  private filesOf(sessionId: string, turn: number): Map<string, FileChange> {
    const k = key(sessionId, turn);
    let files = this.turns.get(k);
    if (!files) {
      files = new Map();
      this.turns.set(k, files);
      this.order.push(k);
      while (this.order.length > this.maxTurns) this.dropTurn(this.order.shift()!);
    }
    return files;
  }

  private put(files: Map<string, FileChange>, entry: FileChange): void {
    const prev = files.get(entry.path);
    this.held += heldBytes(entry) - (prev ? heldBytes(prev) : 0);
    files.set(entry.path, entry);
    this.journal?.record(entry.sessionId, entry.turn, entry.path, entry);
    this.trim();
    this.changed.fire({ sessionId: entry.sessionId, turn: entry.turn });
  }

  private dropTurn(k: Key): void {
    for (const e of this.turns.get(k)?.values() ?? []) this.held -= heldBytes(e);
    this.turns.delete(k);
  }

  /** Past the cap: the oldest turns' bytes leave memory first (their entries stay listed). */
  private trim(): void {
    for (const k of this.order) {
      if (this.held <= this.maxBytes) return;
      const files = this.turns.get(k);
      for (const e of files?.values() ?? []) {
        const size = heldBytes(e);
        if (!size) continue;
        // Read back from the journal (it was told the entry already) when asked, as on a reload.
        const { sessionId, turn, path } = e; // not `e`: it holds the bytes
        const read = () => {
          if (!this.journal?.readBefore) throw new SnapshotGone(path, turn);
          return this.journal.readBefore(sessionId, turn, path);
        };
        files!.set(e.path, storedEntry({ ...e, dropped: true }, read));
        this.held -= size;
        if (this.held <= this.maxBytes) return;
      }
    }
  }

  private withCall(f: FileChange, toolCallId: string | undefined): FileChange {
    if (!toolCallId || f.toolCallIds.includes(toolCallId)) return f;
    return clone(f, { toolCallIds: [...f.toolCallIds, toolCallId] });
  }
}

function copy(b: Uint8Array): Uint8Array {
  return new Uint8Array(b);
}
