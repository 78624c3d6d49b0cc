// The records of src/worktrees/: plain data (strings and numbers only), so the vscode layer can
// keep them in workspaceState and hand them back after a reload.
import type { GitIdentity } from './git';

/** One session's git worktree: a folder checked out on its own branch. */
export interface WorktreeSession {
  /** The worktree folder (absolute, real path). */
  path: string;
  /** `tandem/<slug>`. */
  branch: string;
  /** The commit HEAD pointed at when the worktree was created: every diff is against it. */
  base: string;
  /** The top folder of the user's repository (its main working tree). */
  repoRoot: string;
  /** The name the session was given (the slug is derived from it). */
  name: string;
  /** Epoch milliseconds. */
  createdAt: number;
}

/** A worktree whose folder was removed while its branch (with all its work committed) was kept. */
export interface ArchivedWorktree {
  branch: string;
  base: string;
  repoRoot: string;
  name: string;
  createdAt: number;
  archivedAt: number;
  /** The branch's commit at archive time (the archive commit, or the last commit if nothing was uncommitted). */
  head: string;
  /** Where the folder was; restore() picks a new folder under the parent it is given. */
  formerPath: string;
}

export interface CreateWorktreeOptions {
  repoRoot: string;
  /**
   * The folder the worktree goes in (as `<parentDir>/<slug>`). Tandem passes the extension's
   * storage folder: outside the user's tree, so file watchers, search, and the user's build and
   * test runs never see a second copy of the project.
   */
  parentDir: string;
  name: string;
  /** Start from the user's uncommitted changes (staged, unstaged, untracked) instead of a clean HEAD. */
  carryChanges: boolean;
  /** The caller's setup command (e.g. `npm ci`), run in the new worktree; the engine itself runs no shell. */
  runSetup?: (cwd: string) => Promise<void>;
  identity?: GitIdentity;
}

export type ChangeStatus = 'added' | 'modified' | 'deleted' | 'renamed';

export interface ChangedFile {
  /** Repository-relative, `/`-separated; for a rename, the new path. */
  path: string;
  /** For a rename, the path at `base`. */
  oldPath?: string;
  status: ChangeStatus;
  /** Lines added and removed; undefined for a binary file. */
  added: number | undefined;
  removed: number | undefined;
}

/**
 * How a session's work comes back into the user's tree:
 * - 'merge': its uncommitted work is committed on its branch, then the branch is merged (--no-ff);
 * - 'cherry-pick': the branch's commits since base, one by one (uncommitted work stays behind);
 * - 'uncommitted': the worktree's whole diff against base, as uncommitted changes (git apply --3way).
 */
export type ApplyMode = 'merge' | 'cherry-pick' | 'uncommitted';

export interface ApplyResult {
  /** True when the work is in the user's tree with no conflict left to resolve. */
  applied: boolean;
  /** Repository-relative paths left in conflict (markers in the file, stages in the index). */
  conflicts: string[];
  message: string;
}

/** What discarding a session loses, for the confirmation that names it. */
export interface DiscardLosses {
  /** Files with uncommitted changes in the worktree (untracked ones included). */
  uncommitted: string[];
  /** The branch's commits whose changes are not in the user's current branch. */
  commits: { sha: string; subject: string }[];
}

export type WorktreeStatus = 'ok' | 'missing' | 'notGit';

export interface WithIdentity {
  identity?: GitIdentity;
}
