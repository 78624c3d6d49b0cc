// The last known state of every scanned workspace file: its stat and the blob of its content.
// A refresh walks the workspace, reads only the files whose stat changed (size, mtime or inode),
// stores their new content, and reports what changed since the previous refresh, with the blob
// of the content before (known because the previous refresh stored it). That is how a change
// made by a command (`sed -i`, a formatter, `npm install`) can be restored although Tandem
// never saw it happen. Saved next to the blobs so a reload starts incremental: a save writes only
// the entries changed since the last one (manifestFile.ts).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isWithin } from '../client/files/realPath';
import type { BlobStore } from './blobStore';
import { TooBigToKeep } from './blobStore';
import { ManifestFile, type Row } from './manifestFile';
import type { BlobRef } from './timeline';
import { type FileStat, sameStat, scanWorkspace, statFile } from './workspaceScan';

export interface ManifestEntry extends FileStat {
  readonly blob: BlobRef;
}

export interface FileDelta {
  readonly path: string;
  /** undefined: the file is new to the manifest (created, or first seen). */
  readonly before: BlobRef | undefined;
  /** null: deleted. */
  readonly after: BlobRef;
  /** When it changed: the file's mtime; for a deletion, its folder's (the scan's start if gone). */
  readonly mtimeMs: number;
  /** The mtime the manifest had for it (when its `before` content was read). */
  readonly beforeMtimeMs: number | undefined;
}

export interface RefreshResult {
  readonly deltas: FileDelta[];
  readonly files: number;
  readonly truncated: boolean;
  /** Files that could not be kept (too big, storage full): one message each. */
  readonly problems: string[];
}

const READ_CONCURRENCY = 16;

export class Manifest {
  /** Read only: changes go through set() and drop(), which note them for the next save. */
  readonly entries = new Map<string, ManifestEntry>();
  /** True once a refresh (or the saved copy) covers the workspace. */
  complete = false;
  private readonly disk: ManifestFile;
  /** Entries changed since the last save (null: deleted). */
  private readonly dirty = new Map<string, Row | null>();

  constructor(
    file: string,
    private readonly blobs: BlobStore,
    /** A saved path in today's form (a manifest written by a version that kept the folder's). */
    private readonly form: (path: string) => string = (p) => p,
  ) {
    this.disk = new ManifestFile(file);
  }

  async load(): Promise<void> {
    const rows = await this.disk.read();
    if (!rows) return; // none yet, or unreadable: the next refresh rebuilds it
    for (const [p, size, mtimeMs, ino, blob] of rows.values()) {
      const now = this.form(p);
      // A path saved in an older form: journal lines name today's form, so rewrite it whole.
      if (now !== p) this.disk.compactNext();
      this.entries.set(now, { size, mtimeMs, ino, blob });
    }
    this.complete = true;
  }

  /** Writes what changed since the last save (the whole manifest when the journal is due). */
  async save(): Promise<void> {
    if (!this.dirty.size && !this.disk.compactionDue) return;
    const changed = new Map(this.dirty);
    this.dirty.clear();
    try {
      await this.disk.save(() => [...this.entries].map(([p, e]) => row(p, e)), changed);
    } catch (err) {
      this.disk.compactNext(); // those changes may not be on disk: the next save writes them all
      throw err;
    }
  }

  async clear(): Promise<void> {
    this.entries.clear();
    this.dirty.clear();
    this.complete = false;
    await this.disk.remove();
  }

  /** The blobs the entries refer to (the `before` of the next change found). */
  liveBlobs(): Set<string> {
    const out = new Set<string>();
    for (const e of this.entries.values()) if (typeof e.blob === 'string') out.add(e.blob);
    return out;
  }

  /** `file` was just written with `blob` (null: deleted) by Tandem itself. */
  async note(file: string, blob: BlobRef): Promise<void> {
    const st = await statFile(file);
    if (st && blob !== null) this.set(file, { ...st, blob });
    else this.drop(file);
  }

  private set(p: string, e: ManifestEntry): void {
    this.entries.set(p, e);
    this.dirty.set(p, row(p, e));
  }

  private drop(p: string): void {
    if (this.entries.delete(p)) this.dirty.set(p, null);
  }

  /** Whether any entry is in `root` (the manifest has seen that folder before). */
  knows(root: string): boolean {
    for (const p of this.entries.keys()) if (isWithin(root, p)) return true;
    return false;
  }

  async refresh(roots: readonly string[], maxFiles?: number): Promise<RefreshResult> {
    const started = Date.now();
    const scan = await scanWorkspace(roots, maxFiles);
    const todo = [...scan.files.keys()].filter((p) => !sameStat(this.entries.get(p), scan.files.get(p)));
    const { deltas, problems } = await this.captureAll(todo);
    if (!scan.truncated)
      for (const [p, e] of [...this.entries]) {
        // Only what this scan walked can be missing from it: another session's folder is not.
        if (scan.files.has(p) || !roots.some((r) => isWithin(r, p))) continue;
        deltas.push(await this.deleted(p, e, started));
      }
    this.complete = true;
    await this.save();
    return { deltas, files: scan.files.size, truncated: scan.truncated, problems };
  }

  /**
   * Only these files, and only those the manifest knows (an editor's save, a file watcher's event):
   * their new content is captured at once, so their content before is not lost to a later change.
   * A file new to the manifest has nothing to lose: the next full refresh lists it.
   */
  async refreshFiles(files: readonly string[]): Promise<FileDelta[]> {
    const known = [...new Set(files)].filter((p) => this.entries.has(p));
    const changed: string[] = [];
    for (const p of known) if (!sameStat(this.entries.get(p), await statFile(p))) changed.push(p);
    const { deltas } = await this.captureAll(changed.filter((p) => this.entries.has(p)));
    for (const p of changed) {
      const e = this.entries.get(p);
      if (!e || (await statFile(p))) continue;
      deltas.push(await this.deleted(p, e, Date.now()));
    }
    if (deltas.length) await this.save();
    return deltas;
  }

  /** Drops a deleted file; its deletion time is its folder's mtime (`fallback` if that is gone too). */
  private async deleted(p: string, e: ManifestEntry, fallback: number): Promise<FileDelta> {
    this.drop(p);
    const dir = await fs.stat(path.dirname(p)).catch(() => undefined);
    return { path: p, before: e.blob, after: null, mtimeMs: dir?.mtimeMs ?? fallback, beforeMtimeMs: e.mtimeMs };
  }

  private async captureAll(todo: readonly string[]): Promise<{ deltas: FileDelta[]; problems: string[] }> {
    const deltas: FileDelta[] = [];
    const problems: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < todo.length) {
        const p = todo[next++];
        const read = await this.capture(p);
        if (!read) continue; // gone since the walk: the next refresh sees the deletion
        if (read.problem) problems.push(read.problem);
        const prev = this.entries.get(p);
        this.set(p, read.entry);
        if (!prev || !sameBlob(prev.blob, read.entry.blob))
          deltas.push({
            path: p,
            before: prev?.blob,
            after: read.entry.blob,
            mtimeMs: read.entry.mtimeMs,
            beforeMtimeMs: prev?.mtimeMs,
          });
      }
    };
    await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker));
    return { deltas, problems };
  }

  /** Reads a file whose stat did not change while it was read, and stores its content. */
  private async capture(p: string): Promise<{ entry: ManifestEntry; problem?: string } | undefined> {
    for (let attempt = 0; ; attempt++) {
      const st = await statFile(p);
      if (!st) return undefined;
      if (st.size > this.blobs.limits.maxFileBytes) return { entry: { ...st, blob: { tooBig: st.size } } };
      let bytes: Uint8Array;
      try {
        bytes = await fs.readFile(p);
      } catch {
        return undefined;
      }
      const again = await statFile(p);
      if (!sameStat(st, again) && attempt < 3) continue; // written while we read: read again
      try {
        return { entry: { ...st, blob: await this.blobs.put(bytes, p) } };
      } catch (err) {
        if (!(err instanceof TooBigToKeep)) throw err;
        return { entry: { ...st, blob: { tooBig: bytes.length } }, problem: err.message };
      }
    }
  }
}

function row(p: string, e: ManifestEntry): Row {
  return [p, e.size, e.mtimeMs, e.ino, e.blob];
}

/** Same stored content (a file too big to keep is never known to be the same). */
export function sameBlob(a: BlobRef | undefined, b: BlobRef | undefined): boolean {
  return a === b && (a === null || typeof a === 'string');
}
