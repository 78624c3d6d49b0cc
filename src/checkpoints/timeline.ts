// One session's checkpoints as an ordered history, rebuilt from its log records (pure: no I/O).
//
// Order. Every user prompt is a checkpoint (a marker), and so is every restore. The agent's
// changes of turn t come after the prompt marker of turn t; edits found between two turns (by
// the scan a prompt starts) come just before that prompt's marker; a restore's own changes come
// after its marker. A record's position is (marker id, phase, sequence), so a change reported
// late (a scan that finished after the next prompt) still sorts where it happened.
//
// State at checkpoint K of a file: the `before` of the file's first change after K; a file with
// no change after K is as it was. Restoring to K rewrites the files the agent (or a restore)
// changed after K to that state.
import type { ChangeSource, ChangeState } from '../client/changes/changeTracker';

/** A file's content in the blob store: sha256; null: the file did not exist; tooBig: not kept. */
export type BlobRef = string | null | { readonly tooBig: number };

export type CheckpointKind = 'prompt' | 'restore';

export type LogRecord =
  | { k: 'cp'; id: number; kind: 'prompt'; turn: number; at: number }
  | { k: 'cp'; id: number; kind: 'restore'; of: number; at: number; label: string }
  /** A file the agent changed in a turn (the ChangeTracker's entry, latest wins). */
  | {
      k: 'change';
      turn: number;
      path: string;
      before: BlobRef;
      source: ChangeSource;
      exact: boolean;
      toolCallIds: string[];
      state: ChangeState;
      applied: boolean;
    }
  | { k: 'forget'; turn: number; path: string }
  /** Changed between two turns (by the user, most likely): found by checkpoint `cp`'s scan. */
  | { k: 'between'; cp: number; path: string; before: BlobRef; after: BlobRef }
  /** A file a restore (checkpoint `cp`) rewrote. */
  | { k: 'restored'; cp: number; path: string; before: BlobRef; after: BlobRef }
  /** The turn ended at `at` (the scan that followed attributed its command-made changes). */
  | { k: 'settled'; turn: number; at: number }
  | { k: 'notice'; text: string | null };

export interface Checkpoint {
  readonly id: number;
  readonly kind: CheckpointKind;
  /** The prompt's turn (prompt checkpoints). */
  readonly turn?: number;
  /** The checkpoint a restore went back to (restore checkpoints). */
  readonly of?: number;
  readonly at: number;
  readonly label?: string;
}

export type ChangeRecord = Extract<LogRecord, { k: 'change' }>;

/** The record with its path in another form (a log written before paths were canonical). */
export function withPathForm(r: LogRecord, form: (path: string) => string): LogRecord {
  return 'path' in r ? { ...r, path: form(r.path) } : r;
}

type Pos = readonly [cp: number, phase: number, seq: number];
interface Event {
  readonly pos: Pos;
  readonly before: BlobRef;
  /** Made by the agent or a restore (these are what "restore to here" undoes). */
  readonly byAgent: boolean;
}

const after = (a: Pos, cp: number) => a[0] > cp || (a[0] === cp && a[1] === 2);
const cmp = (a: Pos, b: Pos) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
const key = (turn: number, path: string) => `${turn}\u0000${path}`;

export class Timeline {
  readonly checkpoints: Checkpoint[] = [];
  /** The agent's changes per (turn, path), with the sequence of their first record. */
  readonly changes = new Map<string, { rec: ChangeRecord; seq: number }>();
  private readonly others: { rec: Extract<LogRecord, { k: 'between' | 'restored' }>; seq: number }[] = [];
  /** When each ended turn ended. */
  readonly settled = new Map<number, number>();
  notice: string | null = null;
  private seq = 0;

  apply(r: LogRecord): void {
    const seq = this.seq++;
    switch (r.k) {
      case 'cp':
        this.checkpoints[r.id] =
          r.kind === 'prompt'
            ? { id: r.id, kind: r.kind, turn: r.turn, at: r.at }
            : { id: r.id, kind: r.kind, of: r.of, at: r.at, label: r.label };
        return;
      case 'change': {
        const prev = this.changes.get(key(r.turn, r.path));
        this.changes.set(key(r.turn, r.path), { rec: r, seq: prev?.seq ?? seq });
        return;
      }
      case 'forget':
        this.changes.delete(key(r.turn, r.path));
        return;
      case 'between':
      case 'restored':
        this.others.push({ rec: r, seq });
        return;
      case 'settled':
        this.settled.set(r.turn, r.at);
        return;
      case 'notice':
        this.notice = r.text;
    }
  }

  get nextId(): number {
    return this.checkpoints.length;
  }

  ofTurn(turn: number): Checkpoint | undefined {
    for (let i = this.checkpoints.length - 1; i >= 0; i--) {
      const c = this.checkpoints[i];
      if (c?.kind === 'prompt' && c.turn === turn) return c;
    }
    return undefined;
  }

  /**
   * The last prompt checkpoint taken before `time`. A change in the same tick of the file system's
   * clock as a checkpoint counts as before it: no agent answers a prompt within a tick (4 ms),
   * a script that edits and then prompts does.
   */
  promptAt(time: number): Checkpoint | undefined {
    for (let i = this.checkpoints.length - 1; i >= 0; i--) {
      const c = this.checkpoints[i];
      if (c?.kind === 'prompt' && c.at < time) return c;
    }
    return undefined;
  }

  /** The first checkpoint taken at or after `time` (undefined: none yet). */
  firstAfter(time: number): Checkpoint | undefined {
    return this.checkpoints.find((c) => c && c.at >= time);
  }

  /** The last prompt checkpoint, if its turn has not ended. */
  runningPrompt(): Checkpoint | undefined {
    const last = this.promptAt(Infinity);
    return last && last.turn !== undefined && !this.settled.has(last.turn) ? last : undefined;
  }

  label(cp: number): string {
    const c = this.checkpoints[cp];
    if (!c) return `checkpoint ${cp}`;
    return c.kind === 'prompt'
      ? `before prompt ${(c.turn ?? 0) + 1}`
      : `before the restore to ${this.label(c.of ?? -1)}`;
  }

  change(turn: number, path: string): ChangeRecord | undefined {
    return this.changes.get(key(turn, path))?.rec;
  }

  /** Every file's events in order (only changes that happened: applied, not forgotten). */
  private events(): Map<string, Event[]> {
    const out = new Map<string, Event[]>();
    const add = (path: string, e: Event) => {
      const list = out.get(path);
      if (list) list.push(e);
      else out.set(path, [e]);
    };
    for (const { rec, seq } of this.changes.values()) {
      const cp = this.ofTurn(rec.turn);
      if (rec.applied && cp) add(rec.path, { pos: [cp.id, 2, seq], before: rec.before, byAgent: true });
    }
    for (const { rec, seq } of this.others)
      add(rec.path, {
        pos: [rec.cp, rec.k === 'between' ? 0 : 2, seq],
        before: rec.before,
        byAgent: rec.k === 'restored',
      });
    for (const list of out.values()) list.sort((a, b) => cmp(a.pos, b.pos));
    return out;
  }

  /**
   * The files the agent or a restore changed after checkpoint `cp`, each with its state at `cp`
   * (the `before` of its first change after it).
   */
  statesAt(cp: number): Map<string, BlobRef> {
    const out = new Map<string, BlobRef>();
    for (const [path, list] of this.events()) {
      const later = list.filter((e) => after(e.pos, cp));
      if (later.some((e) => e.byAgent)) out.set(path, later[0].before);
    }
    return out;
  }

  /**
   * The file as the agent's change in `turn` left it, when something changed it after that change
   * (a later turn, an edit found between turns, a restore): that change's `before`. undefined: the
   * turn did not change the file, or nothing changed it since.
   */
  afterChange(turn: number, path: string): BlobRef | undefined {
    const own = this.changes.get(key(turn, path));
    const cp = this.ofTurn(turn);
    if (!own?.rec.applied || !cp) return undefined;
    const at: Pos = [cp.id, 2, own.seq];
    return this.events()
      .get(path)
      ?.find((e) => cmp(e.pos, at) > 0)?.before;
  }

  /** Every blob this session refers to (what a sweep must keep). */
  blobs(into: Set<string>): void {
    const add = (b: BlobRef) => {
      if (typeof b === 'string') into.add(b);
    };
    for (const { rec } of this.changes.values()) add(rec.before);
    for (const { rec } of this.others) {
      add(rec.before);
      add(rec.after);
    }
  }
}
