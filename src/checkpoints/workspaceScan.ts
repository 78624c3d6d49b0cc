// The workspace's files and their stat (size, mtime, inode), walked without following symlinks.
// What git would not track is skipped: `.git` folders, whatever a `.gitignore` (at any depth) or
// the root's `.git/info/exclude` ignores, and node_modules even without a .gitignore (a command
// like `npm install` rewrites package.json and the lock file, which are kept; the installed
// packages are not, they are reinstalled from those). Stops at `maxFiles` (the result says so).
import { promises as fs, type Dirent } from 'node:fs';
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

export async function scanWorkspace(roots: readonly string[], maxFiles = DEFAULT_MAX_FILES): Promise<ScanResult> {
  const files = new Map<string, FileStat>();
  let truncated = false;
  const walk = async (dir: string, rules: Rule[]): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return; // vanished or unreadable: nothing to keep there
    }
    const own = entries.some((e) => e.name === '.gitignore') ? await gitignoreOf(dir) : undefined;
    const here = own ? [...rules, own] : rules;
    await Promise.all(
      entries.map(async (e) => {
        if (truncated || ALWAYS_SKIPPED.has(e.name)) return;
        const p = path.join(dir, e.name);
        if (e.isDirectory()) {
          if (!ignored(here, p, true)) await walk(p, here);
        } else if (e.isFile() && !ignored(here, p, false)) {
          const st = await statFile(p);
          if (!st) return;
          if (files.size >= maxFiles) truncated = true;
          else files.set(p, st);
        }
      }),
    );
  };
  for (const root of roots) await walk(root, await rootRules(root));
  return { files, truncated };
}

function ignored(rules: readonly Rule[], p: string, isDir: boolean): boolean {
  for (const r of rules) {
    const rel = path.relative(r.base, p).split(path.sep).join('/');
    if (rel && r.ig.ignores(isDir ? `${rel}/` : rel)) return true;
  }
  return false;
}

async function rootRules(root: string): Promise<Rule[]> {
  const rules: Rule[] = [];
  const exclude = await fs.readFile(path.join(root, '.git', 'info', 'exclude'), 'utf8').catch(() => '');
  if (exclude.trim()) rules.push({ base: root, ig: ignore().add(exclude) });
  return rules;
}

async function gitignoreOf(dir: string): Promise<Rule | undefined> {
  const text = await fs.readFile(path.join(dir, '.gitignore'), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : { base: dir, ig: ignore().add(text) };
}
