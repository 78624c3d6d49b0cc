// The workspace's files and their stat (size, mtime, inode), walked without following symlinks.
// What git would not track is skipped: `.git` folders, whatever a `.gitignore` (at any depth) or
// the root's `.git/info/exclude` ignores, and node_modules even without a .gitignore (a command
// like `npm install` rewrites package.json and the lock file, which are kept; the installed
// packages are not, they are reinstalled from those). Stops at `maxFiles` (the result says so).
import { type Dirent, lstatSync, promises as fs, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';

export interface FileStat {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
}

export interface ScanResult {
  readonly files: Map<string, FileStat>;
  /** More than `maxFiles` files: the rest were not listed. */
  readonly truncated: boolean;
}

export const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);
export const DEFAULT_MAX_FILES = 200_000;
const SLICE_MS = 8;

interface Rule {
  readonly base: string;
  readonly ig: Ignore;
}

export function sameStat(a: FileStat | undefined, b: FileStat | undefined): boolean {
  return !!a && !!b && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}

export async function statFile(p: string): Promise<FileStat | undefined> {
  try {
    const st = await fs.lstat(p);
    return st.isFile() ? { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A depth-first walk with synchronous readdir / lstat in slices of at most SLICE_MS, yielding to
 * the event loop between slices: several times faster than one async call per file (each is a
 * thread-pool round trip; bench/checkpoints.ts), and the extension host is never held longer
 * than a slice.
 */
export async function scanWorkspace(roots: readonly string[], maxFiles = DEFAULT_MAX_FILES): Promise<ScanResult> {
  const files = new Map<string, FileStat>();
  const stack: { dir: string; rules: Rule[] }[] = roots.map((r) => ({ dir: r, rules: rootRules(r) })).reverse();
  let slice = performance.now();
  while (stack.length) {
    if (performance.now() - slice > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
    const { dir, rules } = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // vanished or unreadable: nothing to keep there
    }
    const own = entries.some((e) => e.name === '.gitignore') ? gitignoreOf(dir) : undefined;
    const here = own ? [...rules, own] : rules;
    for (const e of entries) {
      if (ALWAYS_SKIPPED.has(e.name)) continue;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!ignored(here, p, true)) stack.push({ dir: p, rules: here });
      } else if (e.isFile() && !ignored(here, p, false)) {
        const st = lstatSync(p, { throwIfNoEntry: false });
        if (!st?.isFile()) continue;
        if (files.size >= maxFiles) return { files, truncated: true };
        files.set(p, { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino });
      }
    }
  }
  return { files, truncated: false };
}

function ignored(rules: readonly Rule[], p: string, isDir: boolean): boolean {
  for (const r of rules) {
    // p is always below r.base here (the walk descends from it).
    let rel = p.slice(r.base.length + 1);
    if (path.sep !== '/') rel = rel.split(path.sep).join('/');
    if (rel && r.ig.ignores(isDir ? `${rel}/` : rel)) return true;
  }
  return false;
}

function rootRules(root: string): Rule[] {
  const exclude = readText(path.join(root, '.git', 'info', 'exclude'));
  return exclude?.trim() ? [{ base: root, ig: ignore().add(exclude) }] : [];
}

function gitignoreOf(dir: string): Rule | undefined {
  const text = readText(path.join(dir, '.gitignore'));
  return text === undefined ? undefined : { base: dir, ig: ignore().add(text) };
}

function readText(p: string): string | undefined {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return undefined;
  }
}
