// One name per file. A workspace folder opened through a symlink (macOS /tmp → /private/tmp,
// ~/code → /Volumes/…) gives every file two absolute paths: the agent's writes are resolved to the
// real one (fileAccess.ts), while the editor, the file watcher and a diff's path use the folder's.
// Recorded under both, a change would be listed twice and a restore would miss an editor's unsaved
// edits. So paths take the real path of their workspace folder as they enter the change tracker
// and the checkpoints (`canonical`), and go back to the folder's form where VS Code shows them in
// an editor (`display`). Both are prefix rewrites: only the folders are resolved, once.
import * as nodePath from 'node:path';
import { isWithin, realPathSync } from '../client/files/realPath';

interface Folder {
  /** As the workspace names it. */
  readonly given: string;
  /** Its real path (symlinks resolved). */
  readonly real: string;
}

export class PathForms {
  private readonly folders: readonly Folder[];

  constructor(folders: readonly string[], realOf: (p: string) => string = realPathSync) {
    this.folders = folders.map((f) => {
      const given = nodePath.resolve(f);
      return { given, real: realOf(given) };
    });
  }

  /** The folders' real paths: what a scan walks and what labels are relative to. */
  get realRoots(): string[] {
    return [...new Set(this.folders.map((f) => f.real))];
  }

  /** `p` with its folder's given path replaced by the real one (other paths as they are). */
  readonly canonical = (p: string): string => {
    for (const f of this.folders) if (f.given !== f.real && isWithin(f.real, p)) return p;
    for (const f of this.folders) if (f.given !== f.real && isWithin(f.given, p)) return swap(p, f.given, f.real);
    return p;
  };

  /** A canonical path in the folder's given form (the one the editor's documents have). */
  readonly display = (p: string): string => {
    for (const f of this.folders) if (f.given !== f.real && isWithin(f.real, p)) return swap(p, f.real, f.given);
    return p;
  };
}

function swap(p: string, from: string, to: string): string {
  return nodePath.join(to, nodePath.relative(from, p));
}
