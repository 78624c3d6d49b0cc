// Checkpoints of one workspace, on disk under a folder the caller gives (the extension's storage
// for the workspace): blobs/ (content-addressed copies), manifest.json (the last scan), and
// sessions/<id>.jsonl (each session's log). Every user prompt is a checkpoint. How changes are
// recorded (bench/README.md "Checkpoints" says why this way):
// - The ChangeTracker's entries (fs/write_text_file, an agent's diff) are journaled here, in order,
//   in the background; the tracker holds the exact bytes before the write in memory at once.
// - Changes nobody reported (a command, a formatter, an agent writing the disk itself) are found by
//   a scan of the session's folders (sessionRoots.ts: the workspace's, or its worktree) against the
//   manifest, reading only files whose stat changed: after each prompt's checkpoint, when a turn
//   ends, before a restore is planned. A change goes to the turn running when it happened, or to
//   the time between turns. Nothing blocks a prompt; scans run one at a time. Paths are canonical
//   (pathForms.ts): the folders' real paths are scanned, a symlinked form is rewritten on arrival.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { ChangeJournal, ChangeTracker, FileChange } from '../client/changes/changeTracker';
import { Emitter } from '../common/event';
import { BlobStore, DEFAULT_LIMITS, type StoreLimits } from './blobStore';
import { attribute } from './attribution';
import { fsClock } from './fsClock';
import { Manifest } from './manifest';
import { PathForms } from './pathForms';
import { agentAfterOf } from './undoChange';
import { SessionLog } from './sessionLog';
import { SessionRoots } from './sessionRoots';
import { entryRef, liveBlobs, readBefore, reloadTracker, shaOf } from './reload';
import { type BlobRef, type Checkpoint, type LogRecord, Timeline, withPathForm } from './timeline';

export interface CheckpointStoreOptions {
  /** The workspace's storage folder (created when needed). */
  readonly dir: string;
  /** The workspace folders to scan (as the workspace names them; their real paths are used). */
  readonly roots: readonly string[];
  readonly tracker: ChangeTracker;
  readonly limits?: Partial<StoreLimits>;
  /** Scan at most this many files (more: command-made changes past them are not kept). */
  readonly maxFiles?: number;
  readonly now?: () => number;
}

export interface SessionData {
  readonly id: string;
  readonly timeline: Timeline;
  readonly log: SessionLog;
  /** The blob of each tracker entry's `before`, valid while the entry holds the same bytes. */
  readonly refs: Map<string, { bytes: Uint8Array | null | undefined; ref: BlobRef }>;
}

export class CheckpointStore implements ChangeJournal {
  readonly blobs: BlobStore;
  private readonly manifest: Manifest;
  readonly sessions = new Map<string, SessionData>();
  /** Sessions that took a checkpoint since the store opened (file events are attributed to them). */
  private readonly active = new Set<SessionData>();
  private readonly saves = new Map<string, number>();
  private journalTail: Promise<void> = Promise.resolve();
  private scanTail: Promise<void> = Promise.resolve();
  private readonly warned = new Emitter<string>();
  /** A file could not be kept, the storage is full, a write failed: one message each. */
  readonly onDidWarn = this.warned.event;
  private readonly now: (() => number) | undefined;
  private truncationWarned = false;
  /** The folders each session's scans walk: the workspace's, or a worktree session's own. */
  readonly sessionRoots: SessionRoots;
  /** A path in the one form every entry and record has. */
  readonly canonical: (p: string) => string;

  private constructor(readonly opts: CheckpointStoreOptions) {
    const { realRoots, canonical } = new PathForms(opts.roots);
    [this.canonical, this.sessionRoots] = [canonical, new SessionRoots(realRoots)];
    this.blobs = new BlobStore(path.join(opts.dir, 'blobs'), { ...DEFAULT_LIMITS, ...opts.limits });
    this.manifest = new Manifest(path.join(opts.dir, 'manifest.json'), this.blobs, this.canonical);
    this.now = opts.now;
  }

  /** Opens (or creates) the store and puts the saved entries back into the tracker. */
  static async open(opts: CheckpointStoreOptions): Promise<CheckpointStore> {
    const store = new CheckpointStore(opts);
    await store.manifest.load();
    const names = await fs.readdir(store.sessionsDir).catch(() => [] as string[]);
    for (const name of names) {
      const id = SessionLog.sessionOf(name);
      if (!id) continue;
      const s = store.session(id);
      for (const r of await s.log.read()) s.timeline.apply(withPathForm(r, store.canonical));
    }
    opts.tracker.setCanonical(store.canonical);
    await reloadTracker(store, [...store.sessions.values()]);
    opts.tracker.setJournal(store);
    void store.sweepUnreferenced(); // once per activation: copies a crash or an older version left
    return store;
  }

  private get sessionsDir(): string {
    return path.join(this.opts.dir, 'sessions');
  }

  session(id: string): SessionData {
    let s = this.sessions.get(id);
    if (!s) {
      const log = new SessionLog(SessionLog.fileFor(this.sessionsDir, id), (err) =>
        this.warn(`Could not save checkpoints of session ${id}: ${err instanceof Error ? err.message : err}`),
      );
      s = { id, timeline: new Timeline(), log, refs: new Map() };
      this.sessions.set(id, s);
    }
    return s;
  }

  sessionIds(): string[] {
    return [...this.sessions.keys()];
  }

  checkpoints(sessionId: string): readonly Checkpoint[] {
    return this.sessions.get(sessionId)?.timeline.checkpoints.filter(Boolean) ?? [];
  }

  /** The time by the file system's clock (fsClock.ts says why), or the injected one. */
  clock(): number {
    return this.now ? this.now() : fsClock(this.opts.dir);
  }

  /** Appends a record to the session's log and its timeline (synchronously, in call order). */
  append(s: SessionData, r: LogRecord): void {
    s.timeline.apply(r);
    s.log.append(r);
  }

  warn(message: string): void {
    this.warned.fire(message);
  }

  /** Starts the first (or a catch-up) scan, e.g. when a session opens, so prompts find it done. */
  prepare(): Promise<void> {
    return this.scan(() => [...this.sessions.values()].filter((s) => s.timeline.runningPrompt()));
  }

  /**
   * A user prompt: the checkpoint is taken at once (the marker), the workspace scan that finds
   * changes made since the last one runs in the background. Never wait for it before prompting.
   */
  checkpoint(sessionId: string, turn: number): Checkpoint {
    const s = this.session(sessionId);
    this.active.add(s);
    const cp = s.timeline.ofTurn(turn) ?? this.mark(s, turn);
    void this.scan(() => [s], this.sessionRoots.of(sessionId));
    return cp;
  }

  /** The turn ended: the scan that follows attributes what its commands changed. */
  settle(sessionId: string, turn: number): Promise<void> {
    const s = this.session(sessionId);
    if (!s.timeline.ofTurn(turn)) return Promise.resolve(); // not a prompt of ours (a replayed turn)
    if (!s.timeline.settled.has(turn)) this.append(s, { k: 'settled', turn, at: this.clock() });
    return this.scan(() => [s], this.sessionRoots.of(sessionId));
  }

  /**
   * Files that just changed (an editor's save, a file watcher's event): their content is captured
   * now, so an edit between turns is told apart from a command that changes the same file right
   * after the next prompt, before that prompt's scan reaches it.
   */
  noteChanged(files: readonly string[]): Promise<void> {
    return this.queueScan(async () => {
      if (!this.manifest.complete) return;
      const deltas = await this.manifest.refreshFiles(files.map(this.canonical));
      for (const s of this.active) for (const d of this.sessionRoots.mine(s.id, deltas)) await attribute(this, s, d);
    });
  }

  /** An editor saved `file` (the user's buffer, or Tandem's own write): captured at once. */
  noteSaved(file: string): Promise<void> {
    this.saves.set(this.canonical(file), Date.now());
    return this.noteChanged([file]);
  }

  /** When an editor last saved `file` since the store opened. */
  savedAt(file: string): number | undefined {
    return this.saves.get(this.canonical(file));
  }

  /** Scans now (queued behind any running scan) for a session, e.g. before planning a restore. */
  rescan(sessionId: string): Promise<void> {
    const s = this.session(sessionId);
    return this.scan(() => [s], this.sessionRoots.of(sessionId));
  }

  /** Resolves when every queued journal record and scan is on disk. */
  async whenIdle(): Promise<void> {
    for (;;) {
      const j = this.journalTail;
      const sc = this.scanTail;
      await Promise.all([j, sc]);
      await Promise.all([...this.sessions.values()].map((s) => s.log.flushed()));
      if (j === this.journalTail && sc === this.scanTail) return;
    }
  }

  // ChangeJournal: the tracker's entries, in order.
  record(sessionId: string, turn: number, file: string, entry: FileChange | undefined): void {
    const s = this.session(sessionId);
    if (!s.timeline.ofTurn(turn)) this.mark(s, turn);
    this.journalTail = this.journalTail.then(async () => {
      if (!entry) {
        s.refs.delete(`${turn}\u0000${file}`);
        this.append(s, { k: 'forget', turn, path: file });
        return;
      }
      const before = await entryRef(this, s, entry);
      const { source, exact, toolCallIds, state, applied } = entry;
      this.append(s, {
        k: 'change',
        turn,
        path: file,
        before,
        source,
        exact,
        toolCallIds: [...toolCallIds],
        state,
        applied,
      });
    });
  }

  // ChangeJournal: what the agent left, for an undo of one turn's change (undoChange.ts).
  afterOf(sessionId: string, turn: number, file: string): Promise<Uint8Array | null | undefined> {
    return agentAfterOf(this, sessionId, turn, file);
  }
  // ChangeJournal: a tracker entry's `before` that is not in memory (reloaded, or past the cap).
  readonly readBefore = (sessionId: string, turn: number, file: string) => readBefore(this, sessionId, turn, file);

  /** Bytes of a stored copy (null: the file did not exist). */
  async read(ref: BlobRef): Promise<Uint8Array | null> {
    return ref === null ? null : this.blobs.get(shaOf(ref));
  }

  /** A restore wrote `file`: the manifest takes its new state, so no scan mistakes it for an edit. */
  async noteWritten(file: string, blob: BlobRef): Promise<void> {
    await this.queueScan(() => this.manifest.note(file, blob));
  }

  /** Deletes the session's checkpoints, and every stored copy no other session needs. */
  async removeSession(sessionId: string): Promise<void> {
    const s = this.sessions.get(sessionId);
    await this.whenIdle();
    this.sessions.delete(sessionId);
    if (s) this.active.delete(s);
    this.opts.tracker.removeSession(sessionId);
    await (s?.log ?? new SessionLog(SessionLog.fileFor(this.sessionsDir, sessionId))).remove();
    if (!this.sessions.size) await this.queueScan(() => this.manifest.clear());
    await this.sweepUnreferenced();
  }

  /** Deletes every stored copy no session, tracker entry or manifest entry needs (in the scan queue). */
  sweepUnreferenced(): Promise<void> {
    return this.queueScan(async () => {
      await this.journalTail; // the blobs of its queued records are then in a log
      const live = this.manifest.liveBlobs(); // none after removeSession took the last session
      for (const s of this.sessions.values()) liveBlobs(s, live);
      await this.blobs.sweep(live);
    });
  }

  dispose(): void {
    this.opts.tracker.setJournal(undefined);
    this.warned.dispose();
  }

  private mark(s: SessionData, turn: number): Checkpoint {
    const id = s.timeline.nextId;
    this.append(s, { k: 'cp', id, kind: 'prompt', turn, at: this.clock() });
    return s.timeline.checkpoints[id];
  }

  private queueScan(job: () => Promise<void>): Promise<void> {
    const run = this.scanTail.then(job);
    this.scanTail = run.catch((err) =>
      this.warn(`Checkpoint scan failed: ${err instanceof Error ? err.message : err}`),
    );
    return this.scanTail;
  }

  private scan(targets: () => SessionData[], roots = this.sessionRoots.base): Promise<void> {
    return this.queueScan(async () => {
      const wasComplete = this.manifest.complete;
      const fresh = this.sessionRoots.fresh(roots, (r) => this.manifest.knows(r));
      const r = await this.manifest.refresh(roots, this.opts.maxFiles);
      for (const p of r.problems) this.warn(p);
      if (r.truncated && !this.truncationWarned) {
        this.truncationWarned = true;
        this.warn(
          `The workspace has more than ${r.files} files: checkpoints keep only what the agent writes through Tandem, not what its commands change in the other files.`,
        );
      }
      if (!wasComplete) return; // the first scan: nothing earlier to compare with
      await this.journalTail;
      const changes = fresh.length ? r.deltas.filter((d) => !SessionRoots.within(fresh, d.path)) : r.deltas;
      for (const s of targets()) for (const d of this.sessionRoots.mine(s.id, changes)) await attribute(this, s, d);
    });
  }
}
