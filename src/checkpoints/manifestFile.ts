// The manifest on disk: a whole copy (manifest.json) and an append-only journal of the entries
// changed since (manifest.journal), so that a save costs what changed, not the workspace (at 200k
// files the whole copy is ~36 MB of JSON; bench/manifestUpdate.ts). The journal is folded into a
// new whole copy (compacted) when it grows past a quarter of it.
// Crash safety: the whole copy is written to a temp file and renamed; the journal's first line
// names the whole copy it follows (`base`), so a journal left behind by a compaction that crashed
// before removing it is ignored rather than replayed over newer entries; a torn last line (a crash
// mid-append) is ignored, and the next save compacts so no append lands after it.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { BlobRef } from './timeline';

/** [path, size, mtimeMs, ino, blob]; in the journal, [path] alone is a deletion. */
export type Row = [string, number, number, number, BlobRef];

/** Compact when the journal is larger than this fraction of the whole copy. */
const COMPACT_FRACTION = 0.25;

export class ManifestFile {
  private base = 0;
  private baseBytes = 0;
  private journalBytes = 0;
  /** Compact on the next save: no whole copy of this base yet, or the journal ends torn. */
  private mustCompact = true;

  constructor(readonly file: string) {}

  /** True when the next save writes the whole copy. */
  get compactionDue(): boolean {
    return this.mustCompact;
  }

  /** The next save writes the whole copy (the entries were rewritten as they were read). */
  compactNext(): void {
    this.mustCompact = true;
  }

  get journalFile(): string {
    return this.file.replace(/\.json$/, '') + '.journal';
  }

  /** The saved rows (the whole copy with the journal replayed); undefined: nothing usable saved. */
  async read(): Promise<Map<string, Row> | undefined> {
    let whole: string;
    try {
      whole = await fs.readFile(this.file, 'utf8');
    } catch {
      return undefined;
    }
    let rows: Row[];
    try {
      const parsed = JSON.parse(whole);
      // An array: written before the journal existed (no base; any journal is not its own).
      rows = Array.isArray(parsed) ? parsed : parsed.rows;
      this.base = Array.isArray(parsed) ? 0 : parsed.base;
    } catch {
      return undefined;
    }
    this.baseBytes = whole.length;
    const out = new Map<string, Row>(rows.map((r) => [r[0], r]));
    this.mustCompact = false;
    const journal = await fs.readFile(this.journalFile, 'utf8').catch(() => '');
    const lines = journal.split('\n');
    if (!lines.at(-1)) lines.pop(); // the newline that ends the last full line
    let header: { base?: number } | undefined;
    for (let i = 0; i < lines.length; i++) {
      let row: Row | [string] | { base: number };
      try {
        row = JSON.parse(lines[i]);
      } catch {
        this.mustCompact = true; // torn: ignored, and nothing is appended after it
        break;
      }
      if (i === 0) {
        header = row as { base?: number };
        if (header.base !== this.base || !this.base) {
          this.mustCompact = lines.length > 0;
          break; // not this whole copy's journal
        }
        continue;
      }
      const r = row as Row | [string];
      if (r.length === 1) out.delete(r[0]);
      else out.set(r[0], r as Row);
    }
    this.journalBytes = journal.length;
    return out;
  }

  /**
   * Saves `changed` (null: deleted) as journal lines, or the whole of `all` when the journal
   * would grow past its share of the whole copy.
   */
  async save(all: () => Iterable<Row>, changed: ReadonlyMap<string, Row | null>): Promise<void> {
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    if (!this.mustCompact) {
      const text = [...changed].map(([p, r]) => JSON.stringify(r ?? [p]) + '\n').join('');
      if (this.journalBytes + text.length <= this.baseBytes * COMPACT_FRACTION) {
        const head = this.journalBytes ? '' : JSON.stringify({ base: this.base }) + '\n';
        await fs.appendFile(this.journalFile, head + text);
        this.journalBytes += head.length + text.length;
        return;
      }
    }
    await this.compact(all());
  }

  /** Writes the whole copy under a new base, then drops the journal of the old one. */
  async compact(rows: Iterable<Row>): Promise<void> {
    const base = Date.now() * 1000 + Math.floor(Math.random() * 1000);
    const text = JSON.stringify({ base, rows: [...rows] });
    const tmp = `${this.file}.tmp`;
    await fs.writeFile(tmp, text);
    await fs.rename(tmp, this.file);
    // A crash here leaves the old journal: its header names the old base, so it is ignored.
    await fs.rm(this.journalFile, { force: true });
    this.base = base;
    this.baseBytes = text.length;
    this.journalBytes = 0;
    this.mustCompact = false;
  }

  async remove(): Promise<void> {
    await fs.rm(this.file, { force: true });
    await fs.rm(this.journalFile, { force: true });
    this.mustCompact = true;
    this.journalBytes = 0;
  }
}
