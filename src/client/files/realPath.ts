// Where a path really leads: symlinks and `..` resolved the way the file system will resolve them,
// so "inside the workspace" is about the file a call touches, not the name it gives
// (ws/docs/keys → ~/.ssh is outside). The file handlers (fileAccess.ts, async through the FsPort)
// and the permission rules (sync, a handful of paths per call) share this walk and `isWithin`.
import * as fs from 'node:fs';
import * as nodePath from 'node:path';

/** True when `p` is `root` or below it. "..foo" is a name inside `root`, not a way out of it. */
export function isWithin(root: string, p: string): boolean {
  const rel = nodePath.relative(root, p);
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + nodePath.sep) && !nodePath.isAbsolute(rel));
}

/**
 * The steps of resolving a path that may not exist yet (a file about to be written): the path
 * itself, then each ancestor with the names below it, deepest first. The first `dir` that resolves
 * gives the real path `join(real, ...rest)`. The path is not normalized first: `link/..` is the
 * parent of the link's target for the file system, so `dir` keeps it for realpath to resolve.
 */
export function* ancestorSteps(path: string): Generator<{ dir: string; rest: string[] }> {
  const rest: string[] = [];
  let dir = path;
  for (;;) {
    yield { dir, rest: [...rest].reverse() };
    const parent = nodePath.dirname(dir);
    if (parent === dir) return;
    rest.push(nodePath.basename(dir));
    dir = parent;
  }
}

/** Symlinks a path may pass through before it counts as a loop (Linux's own limit). */
const MAX_LINKS = 40;

/**
 * The real path of absolute `path`; never throws. A missing tail is appended to its deepest
 * existing ancestor, except that a dangling symlink is followed to where a write through it would
 * create the file (ws/new → ~/.profile.d/x, not ws/new).
 */
export function realPathSync(path: string): string {
  return resolveThrough(path, 0);
}

function resolveThrough(path: string, links: number): string {
  for (const { dir, rest } of ancestorSteps(path)) {
    try {
      return nodePath.join(fs.realpathSync.native(dir), ...rest);
    } catch {
      const target = links < MAX_LINKS ? readLink(dir) : undefined;
      if (target === undefined) continue;
      // Not joined (join would normalize): `..` in a link's target is resolved from where it points.
      const to = nodePath.isAbsolute(target) ? target : nodePath.dirname(dir) + nodePath.sep + target;
      return resolveThrough([to, ...rest].join(nodePath.sep), links + 1);
    }
  }
  return nodePath.resolve(path);
}

function readLink(p: string): string | undefined {
  try {
    return fs.readlinkSync(p);
  } catch {
    return undefined;
  }
}

/** Each workspace folder and, when it differs, its real path (a folder opened through a symlink). */
export function withRealRoots(roots: readonly string[]): string[] {
  const out = new Set<string>();
  for (const r of roots) {
    out.add(r);
    out.add(realPathSync(r));
  }
  return [...out];
}
