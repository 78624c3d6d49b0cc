// Which folders a session's checkpoints cover: the workspace's, or, for a session that works in a
// folder of its own (a git worktree: client/connection/sessionPlace.ts), that folder only. Its
// scans walk it, its restores may write in it, and nothing else. A folder scanned for the first
// time holds where the session started, not changes: its files are attributed to no one.
import { realpathSync } from 'node:fs';
import { isWithin } from '../client/files/realPath';

export class SessionRoots {
  /** Session id → its own folder (real path). */
  private readonly own = new Map<string, string>();
  /** Folders a scan walked, or the manifest knew, since the store opened. */
  private readonly known = new Set<string>();

  constructor(
    /** The workspace folders' real paths. */
    readonly base: readonly string[],
    private readonly realOf: (p: string) => string = realPath,
  ) {}

  /** The session works in `folder` from now on (its place). */
  use(sessionId: string, folder: string): void {
    this.own.set(sessionId, this.realOf(folder));
  }

  /** The folders a session's scans walk and its restores may write in. */
  of(sessionId: string): readonly string[] {
    const own = this.own.get(sessionId);
    return own ? [own] : this.base;
  }

  /** The changes in a session's folders: a user's edit in the workspace is no worktree session's. */
  mine<T extends { path: string }>(sessionId: string, changes: readonly T[]): readonly T[] {
    const roots = this.of(sessionId);
    return changes.filter((c) => SessionRoots.within(roots, c.path));
  }

  /**
   * The folders among `roots` never seen before, by a scan since the store opened or in the
   * manifest: their files are where things started. Call before the scan; known after it.
   */
  fresh(roots: readonly string[], knownByManifest: (root: string) => boolean): string[] {
    const out = roots.filter((r) => !this.known.has(r) && !knownByManifest(r));
    for (const r of roots) this.known.add(r);
    return out;
  }

  /** Whether `p` is in one of `roots`. */
  static within(roots: readonly string[], p: string): boolean {
    return roots.some((r) => isWithin(r, p));
  }
}

function realPath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
