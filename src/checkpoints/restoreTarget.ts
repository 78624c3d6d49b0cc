// A restore never writes through a symlink. Since the checkpoint was taken, a command or a
// `git checkout` may have replaced a file by a link (config.json -> ~/.ssh/authorized_keys), or a
// folder by one (docs -> ~/.ssh): writing the checkpoint's bytes to the recorded path would then
// change the link's target. So, just before planning and again just before writing:
// - a folder on the way that is now a link refuses the file, with the reason (where it leads);
// - the file itself being a link is reported, and the restore removes the link and writes a
//   regular file in its place (the plan shows it, the user confirms the plan).
// Synchronous: a few lstat calls per file, on a user's request.
import { lstatSync, readlinkSync } from 'node:fs';
import * as nodePath from 'node:path';
import { isWithin, realPathSync } from '../client/files/realPath';

export interface RestoreTarget {
  /** Why the file must not be written or deleted (a folder on its way is a symlink now). */
  readonly refused?: string;
  /** The file itself is a symlink now, to this target (the link is replaced, never followed). */
  readonly link?: string;
}

/** `file`'s state for a restore; `label` names it in the reason, `roots` are the real workspace folders. */
export function restoreTarget(file: string, roots: readonly string[], label = file): RestoreTarget {
  const folder = linkedFolder(file, roots);
  if (folder !== undefined) {
    const to = readLink(folder) ?? '?';
    const lands = realPathSync(file);
    const outside = !roots.some((r) => isWithin(r, lands));
    const named = labelIn(roots, folder);
    return {
      refused:
        `${label}: the folder ${named} is now a symbolic link to ${to}` +
        `${outside ? ', outside the workspace' : ''}; a restore never writes through a link.`,
    };
  }
  const st = lstatSync(file, { throwIfNoEntry: false });
  return st?.isSymbolicLink() ? { link: readLink(file) ?? '?' } : {};
}

/**
 * The topmost folder between the workspace folder holding `file` (or the file system's root, for
 * a file outside the workspace) and `file` that is a symlink. Missing folders are not: a restore
 * creates them as real folders.
 */
function linkedFolder(file: string, roots: readonly string[]): string | undefined {
  const root = roots.find((r) => r !== file && isWithin(r, file));
  const chain: string[] = [];
  for (let dir = nodePath.dirname(file); dir !== root && dir !== nodePath.dirname(dir); dir = nodePath.dirname(dir))
    chain.push(dir);
  for (const dir of chain.reverse()) if (lstatSync(dir, { throwIfNoEntry: false })?.isSymbolicLink()) return dir;
  return undefined;
}

function labelIn(roots: readonly string[], p: string): string {
  const root = roots.find((r) => isWithin(r, p));
  return root ? nodePath.relative(root, p).split(nodePath.sep).join('/') || '.' : p;
}

function readLink(p: string): string | undefined {
  try {
    return readlinkSync(p);
  } catch {
    return undefined;
  }
}
