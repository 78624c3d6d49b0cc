// Paths as the agent reads and writes them in client tool calls: relative to the workspace
// folder (forward slashes), or absolute outside it; a multi-root workspace prefixes the folder's
// name ("api/src/a.ts"), as VS Code's own asRelativePath does. Pure: the folders come from a port.
import * as nodePath from 'node:path';
import type { JsonSchema, ToolCallContext } from '../types';
import { isWithin } from '../../client/files/realPath';

export interface WorkspaceFolderInfo {
  /** The folder's name as VS Code shows it (multi-root prefix). */
  name: string;
  /** Absolute file system path. */
  path: string;
}

const URI = /^[a-zA-Z][\w+.-]+:\/\//;

/** `p` relative to `root` with `/`, when inside it (`isWithin`: a file named `..foo` is inside). */
function inside(p: string, root: string): string | undefined {
  if (!isWithin(root, p)) return undefined;
  return nodePath.relative(root, p).split(nodePath.sep).join('/');
}

/**
 * How a result names a file: workspace-relative with `/` when inside a folder (prefixed with the
 * folder's name when there are several), else the absolute path; a non-file URI stays a URI.
 */
export function displayPath(pathOrUri: string, folders: readonly WorkspaceFolderInfo[]): string {
  if (URI.test(pathOrUri)) return pathOrUri;
  for (const f of folders) {
    const rel = inside(pathOrUri, f.path);
    if (rel === undefined) continue;
    const shown = rel === '' ? '.' : rel;
    return folders.length > 1 ? `${f.name}/${rel}`.replace(/\/$/, '') : shown;
  }
  return pathOrUri;
}

/**
 * What a path in a call's arguments refers to: a URI as given, an absolute path as given, a
 * relative one against the workspace folder (in a multi-root workspace, against the folder whose
 * name it starts with, else the first). Throws a message the agent can act on.
 */
export function resolveInputPath(p: string, folders: readonly WorkspaceFolderInfo[]): string {
  if (URI.test(p)) return p;
  if (nodePath.isAbsolute(p)) return nodePath.normalize(p);
  if (!folders.length) throw new Error(`"${p}" is relative and no workspace folder is open; pass an absolute path.`);
  const parts = p.split(/[\\/]+/).filter((s) => s && s !== '.');
  const named = folders.length > 1 ? folders.find((f) => f.name === parts[0]) : undefined;
  if (named) return nodePath.join(named.path, ...parts.slice(1));
  return nodePath.join(folders[0].path, ...parts);
}

/** The schema of a path argument (relative to the workspace folder or absolute). */
export function pathSchema(description: string): JsonSchema {
  return { type: 'string', minLength: 1, description };
}

/**
 * The folders a call's paths are relative to and "inside" of: the session's own folder when it
 * works in one (a worktree — its files, not the window's, are the ones the agent edits), else
 * the window's workspace folders.
 */
export function foldersOf(
  port: { folders(): WorkspaceFolderInfo[] },
  ctx: Pick<ToolCallContext, 'place'> | undefined,
): WorkspaceFolderInfo[] {
  const place = ctx?.place;
  return place ? [{ name: nodePath.basename(place.cwd), path: place.cwd }] : port.folders();
}
