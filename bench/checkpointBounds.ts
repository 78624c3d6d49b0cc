// Checkpoint bounds (issue 28, item 9), each against a baseline measured in the same run:
//  1. Manifest update: a generated manifest of 200,000 files (paths, stats and sha256 blob ids as
//     a scan records them); one file saved. Baseline: the whole rewrite every save did before
//     (JSON of every entry, temp file, rename). Now: the journal append (manifestFile.ts), and the
//     compaction it does once the journal passes a quarter of the manifest.
//  2. Change tracker memory after codemod turns touching 5,000 files each (source-like text,
//     1–16 KB): bytes held and heap + array buffers after GC, with the default cap (256 MiB)
//     against no cap (the old tracker); and after a reload, entries read lazily against inflated.
// `node out/bench/checkpointBounds.js [--quick]` (BENCH_QUICK=1 also means --quick); one JSON line.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ManifestFile, type Row } from '../src/checkpoints/manifestFile';
import { storedEntry } from '../src/client/changes/changeEntries';
import { ChangeTracker, DEFAULT_MAX_BYTES, type FileChange } from '../src/client/changes/changeTracker';
import { heapAfterGc, mb } from './lib/memory';

const quick = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';
const FILES = quick ? 20_000 : 200_000;
const CODEMOD = quick ? 1_000 : 5_000;
const TURNS = quick ? 3 : 8;
// Quick: the cap scaled with the turn, so the drop still happens at a tenth of the bytes.
const CAP = quick ? DEFAULT_MAX_BYTES / 32 : DEFAULT_MAX_BYTES;
const SAMPLES = quick ? 3 : 5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const hex = (i: number) => (i * 2654435761).toString(16).padStart(8, '0').repeat(8).slice(0, 64);
const rowOf = (i: number, v = 0): Row => [
  `/home/dev/project/src/module${i % 400}/part${(i >> 4) % 50}/file${i}.ts`,
  1000 + ((i * 37) % 15000),
  1_760_000_000_000 + i + v,
  9_000_000 + i,
  hex(i + v),
];

async function manifestUpdate() {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-bench-manifest-'));
  const rows = Array.from({ length: FILES }, (_, i) => rowOf(i));
  const file = join(dir, 'manifest.json');
  const m = new ManifestFile(file);
  await m.compact(rows);
  const wholeBytes = statSync(file).size;
  const old: number[] = [];
  const now: number[] = [];
  for (let s = 0; s < SAMPLES; s++) {
    // Baseline: what Manifest.save did on every save batch.
    let t = performance.now();
    const text = JSON.stringify(rows.map((r) => [...r]));
    await fs.writeFile(`${file}.old.tmp`, text);
    await fs.rename(`${file}.old.tmp`, `${file}.old`);
    old.push(performance.now() - t);
    // Now: one saved file's entry appended to the journal.
    rows[s] = rowOf(s, s + 1);
    t = performance.now();
    await m.save(() => rows, new Map([[rows[s][0], rows[s]]]));
    now.push(performance.now() - t);
  }
  const journalBytes = statSync(m.journalFile).size;
  let t = performance.now();
  const back = await new ManifestFile(file).read();
  const loadMs = performance.now() - t;
  t = performance.now();
  await m.compact(rows);
  const compactMs = performance.now() - t;
  rmSync(dir, { recursive: true, force: true });
  if (back?.size !== FILES) throw new Error(`reload lost entries: ${back?.size}`);
  const oldMs = median(old);
  const saveMs = median(now);
  return {
    files: FILES,
    manifestMB: mb(wholeBytes),
    oldWholeRewriteMs: +oldMs.toFixed(2),
    oneFileSaveMs: +saveMs.toFixed(2),
    journalBytesAfter: journalBytes,
    speedup: Math.round(oldMs / saveMs),
    loadWithJournalMs: Math.round(loadMs),
    compactionMs: Math.round(compactMs),
    // Proportional to the change: a one-file save writes one line, at a tenth of the rewrite's time or less.
    budget_met: journalBytes < 1024 * SAMPLES && saveMs * 10 < oldMs,
  };
}

function text(i: number, turn: number): Uint8Array {
  const size = 1024 + ((i * 7919) % 15) * 1024;
  const line = `export const value${i} = compute(input, ${turn}); // codemod turn ${turn}\n`;
  return new TextEncoder().encode(line.repeat(Math.ceil(size / line.length)).slice(0, size));
}

async function memoryNow(): Promise<number> {
  const heap = await heapAfterGc();
  return heap + process.memoryUsage().arrayBuffers;
}

async function trackerAfterCodemod(cap: number) {
  const base = await memoryNow();
  const t = new ChangeTracker(50, cap);
  // The checkpoint store keeps every entry; a dropped snapshot reads back from it (not timed here).
  t.setJournal({ record: () => undefined, readBefore: () => null });
  let total = 0;
  for (let turn = 0; turn < TURNS; turn++)
    for (let i = 0; i < CODEMOD; i++) {
      const bytes = text(i, turn);
      total += bytes.length;
      t.snapshot('s', turn, `/ws/f${i}.ts`, bytes, { source: 'scan', applied: true });
    }
  const used = (await memoryNow()) - base;
  const listed = t.allTurns('s').reduce((n, x) => n + x.files.length, 0);
  return { t, total, used, listed };
}

async function trackerMemory() {
  const capped = await trackerAfterCodemod(CAP);
  const cappedOut = { heldMB: mb(capped.t.heldBytes), memoryMB: mb(capped.used), listed: capped.listed };
  capped.t.dispose();
  const uncapped = await trackerAfterCodemod(Number.POSITIVE_INFINITY);
  const snapshotsMB = mb(uncapped.total);
  const uncappedOut = { heldMB: mb(uncapped.t.heldBytes), memoryMB: mb(uncapped.used) };
  // A reload: the same entries, lazy (read when asked) against inflated up front (the old reload).
  const entries = uncapped.t.allTurns('s').flatMap((x) => x.files);
  uncapped.t.dispose();
  const lazy = entries.map(({ before: _before, ...meta }: FileChange) => storedEntry(meta, () => null));
  let base = await memoryNow();
  const inflated = new ChangeTracker(50, Number.POSITIVE_INFINITY);
  inflated.load(entries.map((e) => ({ ...e, before: e.before && new Uint8Array(e.before) })));
  const inflatedMB = mb((await memoryNow()) - base);
  inflated.dispose();
  entries.length = 0;
  base = await memoryNow();
  const reloaded = new ChangeTracker();
  reloaded.load(lazy);
  const lazyMB = mb((await memoryNow()) - base);
  return {
    turns: TURNS,
    filesPerTurn: CODEMOD,
    snapshotsMB,
    capMB: mb(CAP),
    capped: cappedOut,
    uncapped: uncappedOut,
    reload: { lazyMB, inflatedMB, heldMB: mb(reloaded.heldBytes) },
    budget_met: capped.t.heldBytes <= CAP && capped.listed === TURNS * CODEMOD,
  };
}

async function main() {
  const manifest = await manifestUpdate();
  const tracker = await trackerMemory();
  console.log(
    JSON.stringify({
      bench: 'checkpoint bounds',
      quick,
      manifest,
      tracker,
      budget_met: manifest.budget_met && tracker.budget_met,
    }),
  );
}

void main();
