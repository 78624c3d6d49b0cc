// What each session changed, in one line of the Sessions overview: files, and lines added and
// removed from before the agent first touched each file to now (the same counts as the session
// view's, summarizeChange). Counting reads the files, so it runs after the tracker settles, off
// the overview's synchronous row building; a row shows the files alone until its lines are known.
import * as vscode from 'vscode';
import { summarizeChange } from '../../checkpoints/changeSummary';
import { beforeIfKnown, type FileChange } from '../../client/changes/changeEntries';
import type { ChangeTracker } from '../../client/changes/changeTracker';
import { Disposable, toDisposable } from '../../common/disposable';
import { Emitter } from '../../common/event';
import { editorUri } from '../editor/workspacePorts';

export interface SessionCounts {
  files: number;
  /** Absent until the files were read once; binary files count no lines. */
  added?: number;
  removed?: number;
}

/** Quiet time after the agent's last change before files are read again. */
const SETTLE_MS = 300;

export class SessionLineCounts extends Disposable {
  private readonly known = new Map<string, { added: number; removed: number }>();
  private readonly changed = this._register(new Emitter<void>());
  /** Line counts of some session changed. */
  readonly onDidChange = this.changed.event;
  private timer?: ReturnType<typeof setTimeout>;
  /** Sessions to count again at the next pass ('all': every one, as at start). */
  private dirty: Set<string> | 'all' = 'all';
  private counting = Promise.resolve();

  constructor(private readonly tracker: Pick<ChangeTracker, 'allTurns' | 'onDidChange'>) {
    super();
    const later = (sessionId?: string) => {
      // Only the sessions the agent changed are read again (a flood of writes in one session
      // re-reads that session's files, not every session's); a save may touch any of them.
      if (sessionId === undefined || this.dirty === 'all') this.dirty = 'all';
      else this.dirty.add(sessionId);
      clearTimeout(this.timer);
      this.timer = setTimeout(() => void this.recount(), SETTLE_MS);
    };
    this._register(tracker.onDidChange((e) => later(e.sessionId)));
    // A file saved in the editor (a hunk undone by hand) changes the counts too.
    this._register(vscode.workspace.onDidSaveTextDocument(() => later()));
    this._register(toDisposable(() => clearTimeout(this.timer)));
    later();
  }

  counts(sessionId: string): SessionCounts {
    const files = this.firstChanges(sessionId).size;
    const lines = this.known.get(sessionId);
    return lines && files ? { files, ...lines } : { files };
  }

  /** Each file's first change in the session: its `before` is what the session started from. */
  private firstChanges(sessionId: string): Map<string, FileChange> {
    const first = new Map<string, FileChange>();
    // allTurns is newest first: the oldest turn names the file's first change.
    for (const t of this.tracker.allTurns(sessionId).reverse())
      for (const c of t.files) if (!first.has(c.path)) first.set(c.path, c);
    return first;
  }

  private recount(): Promise<void> {
    // One count at a time: a slow disk never interleaves two passes' results.
    this.counting = this.counting.then(async () => {
      const sessions = new Set(this.tracker.allTurns().map((t) => t.sessionId));
      const dirty = this.dirty;
      this.dirty = new Set();
      let moved = false;
      for (const id of this.known.keys()) if (!sessions.has(id)) moved = this.known.delete(id) || moved;
      for (const id of sessions) {
        if (dirty !== 'all' && !dirty.has(id) && this.known.has(id)) continue;
        const lines = await this.linesOf(id);
        const old = this.known.get(id);
        if (old?.added === lines.added && old.removed === lines.removed) continue;
        this.known.set(id, lines);
        moved = true;
      }
      if (moved) this.changed.fire();
    });
    return this.counting;
  }

  private async linesOf(sessionId: string): Promise<{ added: number; removed: number }> {
    let added = 0;
    let removed = 0;
    for (const c of this.firstChanges(sessionId).values()) {
      const now = await readFile(c.path);
      const before = beforeIfKnown(c);
      // A snapshot dropped past the memory cap counts nothing rather than the whole file.
      const s = summarizeChange(before === undefined ? now : before, now);
      added += s.added ?? 0;
      removed += s.removed ?? 0;
    }
    return { added, removed };
  }
}

async function readFile(path: string): Promise<Uint8Array | null> {
  try {
    return await vscode.workspace.fs.readFile(editorUri(path));
  } catch {
    return null;
  }
}
