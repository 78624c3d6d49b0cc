// How Review Changes names a changed file: its workspace-relative path (files at a workspace
// root included: VS Code's asRelativePath returns a root folder itself as an absolute path), and
// how the change came: written through Tandem (fs/write_text_file), by the agent itself on disk,
// or found by the workspace scan (a command, a formatter).
import * as nodePath from 'node:path';
import { isInside } from '../permissions/callFacts';
import { beforeIfKnown } from './changeEntries';
import type { FileChange } from './changeTracker';

/** `path` relative to the workspace folder holding it ("a.txt", "src/a.ts"; the folder's name first when there are several); else as given. */
export function workspaceRelative(path: string, roots: readonly string[]): string {
  const root = roots.find((r) => isInside(path, r));
  if (root === undefined) return path;
  const rel = nodePath.relative(root, path).split(nodePath.sep).join('/') || '.';
  return roots.length > 1 ? `${nodePath.basename(root)}/${rel}` : rel;
}

/** The description next to a file's name: its folder, workspace-relative; empty at a workspace root (the name says it all). */
export function folderDescription(path: string, roots: readonly string[]): string {
  const dir = nodePath.posix.dirname(workspaceRelative(path, roots));
  return dir === '.' ? '' : dir;
}

const VIA: Record<FileChange['source'], string> = {
  write: 'written through Tandem',
  diff: 'written by the agent directly',
  scan: 'changed on disk (a command or another program)',
};

/** The detail line of a changed file: what happened, how it came, and its state. */
export function describeChange(c: Pick<FileChange, 'before' | 'source' | 'exact' | 'state'>): string {
  const before = beforeIfKnown(c);
  const what = before === null ? 'created' : before === undefined ? 'modified (snapshot gone)' : 'modified';
  const state = c.state === 'pending' ? '' : ` · ${c.state}`;
  return `${what} · ${VIA[c.source]}${c.exact ? '' : ' (snapshot rebuilt from the diff)'}${state}`;
}
