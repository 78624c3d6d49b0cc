// The `workspace` and `files` variables of a session: real files in the session's cwd that a
// script can show (the demo reads the README) or own (the demo's tandem-demo.md).
import { readdirSync, readFileSync, statSync, openSync, readSync, closeSync } from 'node:fs';
import { join } from 'node:path';

export interface WorkspaceFile {
  file: string;
  path: string;
  exists: boolean;
  head: string;
  oldText: string | null;
}

/** Finds a real text file in `cwd` for the demo's read tool call (README first). */
export function findWorkspaceFile(cwd: string): WorkspaceFile {
  const pick = (): string | undefined => {
    let names: string[];
    try {
      names = readdirSync(cwd);
    } catch {
      return undefined;
    }
    const prefer = ['README.md', 'readme.md', 'README', 'README.txt', 'package.json'];
    for (const p of prefer) if (names.includes(p) && isTextFile(join(cwd, p))) return p;
    const sorted = names.filter((n) => !n.startsWith('.')).sort();
    for (const n of sorted) if (isTextFile(join(cwd, n))) return n;
    for (const d of sorted) {
      if (d === 'node_modules' || d === 'out' || d === 'dist') continue;
      let sub: string[];
      try {
        if (!statSync(join(cwd, d)).isDirectory()) continue;
        sub = readdirSync(join(cwd, d))
          .filter((n) => !n.startsWith('.'))
          .sort();
      } catch {
        continue;
      }
      for (const n of sub) if (isTextFile(join(cwd, d, n))) return `${d}/${n}`;
    }
    return undefined;
  };
  const file = pick();
  if (!file) return { file: 'README.md', path: join(cwd, 'README.md'), exists: false, head: '', oldText: null };
  const path = join(cwd, file);
  const text = readHead(path, 4096);
  const lines = text.split('\n');
  // Up to 5 complete lines, exactly as in the file (a trailing partial line only if the file is that short).
  const complete = lines.slice(0, -1).slice(0, 5);
  const head = complete.length ? complete.map((l) => l + '\n').join('') : text;
  return { file, path, exists: true, head, oldText: head };
}

/** A file the script names (relative to cwd); read fresh on every access. */
export interface NamedFile {
  file: string;
  path: string;
  exists: boolean;
  text: string | null;
}

export function namedFile(cwd: string, file: string): NamedFile {
  const path = join(cwd, ...file.split('/'));
  let text: string | null = null;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    text = null;
  }
  return { file, path, exists: text !== null, text };
}

function isTextFile(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    return !readHead(p, 4096).includes('\u0000');
  } catch {
    return false;
  }
}

function readHead(p: string, max: number): string {
  const fd = openSync(p, 'r');
  try {
    const buf = Buffer.alloc(max);
    const n = readSync(fd, buf, 0, max, 0);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Defines `workspace` (found once, lazily) and `files.<key>` (read at each use) on `vars`. */
export function defineWorkspace(vars: Record<string, unknown>, cwd: string, files: Record<string, string> = {}): void {
  let cached: WorkspaceFile | undefined;
  Object.defineProperty(vars, 'workspace', {
    enumerable: true,
    configurable: true,
    get: () => (cached ??= findWorkspaceFile(cwd)),
  });
  const named: Record<string, unknown> = {};
  for (const [key, file] of Object.entries(files)) {
    Object.defineProperty(named, key, { enumerable: true, get: () => namedFile(cwd, file) });
  }
  vars.files = named;
}
