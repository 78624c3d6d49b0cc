// A session's worktree: a new branch `tandem/<slug>` from the user's HEAD, checked out in its own
// folder, optionally starting from the user's uncommitted work. Creating one never changes the
// user's working tree or index.
import { constants, promises as fs, mkdirSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { git, gitResult, splitNul } from './git';
import { BRANCH_PREFIX, WorktreeError, freeSlug, requireHead, requireRepo, slugify, withIndexCopy } from './repo';
import type { CreateWorktreeOptions, WorktreeSession } from './types';

/** The worktree was made, but the caller's setup command failed; the session is there to keep or discard. */
export class WorktreeSetupError extends WorktreeError {
  constructor(
    readonly session: WorktreeSession,
    readonly setupError: unknown,
  ) {
    const why = setupError instanceof Error ? setupError.message : String(setupError);
    super('setupFailed', `The worktree ${session.path} was created, but its setup failed: ${why}`);
  }
}

export async function createWorktree(o: CreateWorktreeOptions): Promise<WorktreeSession> {
  const repoRoot = await requireRepo(o.repoRoot);
  const base = await requireHead(repoRoot);
  mkdirSync(o.parentDir, { recursive: true });
  // Real path: `git worktree list` reports real paths, and status() compares with it.
  const parentDir = realpathSync(o.parentDir);

  // The user's changes are read before anything is created. `git stash create` writes a stash
  // commit (tracked changes, staged and unstaged) to the object store without touching the user's
  // tree or stash list; it would still rewrite the index's file stats (and take its lock while the
  // user's own git may want it), so it works on a copy of the index. Untracked files are not in a
  // stash: they are copied.
  const stash = o.carryChanges
    ? (await withIndexCopy(repoRoot, (env) => git(['stash', 'create'], { cwd: repoRoot, env }))).trim()
    : '';
  const untracked = o.carryChanges
    ? splitNul(await git(['ls-files', '--others', '--exclude-standard', '-z'], { cwd: repoRoot }))
    : [];

  const slug = await freeSlug(repoRoot, parentDir, slugify(o.name));
  const branch = `${BRANCH_PREFIX}${slug}`;
  const path = join(parentDir, slug);
  await git(['worktree', 'add', '--quiet', '-b', branch, path, base], { cwd: repoRoot });
  const session: WorktreeSession = { path, branch, base, repoRoot, name: o.name, createdAt: Date.now() };

  if (o.carryChanges) {
    try {
      // --index: what the user had staged is staged in the worktree too.
      if (stash) await git(['stash', 'apply', '--index', '--quiet', stash], { cwd: path });
      await copyFiles(repoRoot, path, untracked);
    } catch (err) {
      await removeHalfMade(repoRoot, path, branch);
      throw err;
    }
  }
  if (o.runSetup) {
    try {
      await o.runSetup(path);
    } catch (err) {
      throw new WorktreeSetupError(session, err);
    }
  }
  return session;
}

/** A worktree whose carried changes did not arrive is removed with its branch: no half-made session stays behind. */
async function removeHalfMade(repoRoot: string, path: string, branch: string): Promise<void> {
  await gitResult(['worktree', 'remove', '--force', path], { cwd: repoRoot });
  await gitResult(['branch', '-D', branch], { cwd: repoRoot });
}

const COPY_CONCURRENCY = 16;

/** Copies repository-relative files from one tree to the other: file modes kept, symlinks as symlinks. */
async function copyFiles(from: string, to: string, paths: string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const rel = paths[next++];
      // "sub/": a nested repository git does not look into; it is not the session's to copy.
      if (rel.endsWith('/')) continue;
      const src = join(from, rel);
      const dst = join(to, rel);
      const st = await fs.lstat(src).catch(() => undefined);
      if (!st) continue; // deleted since it was listed
      await fs.mkdir(dirname(dst), { recursive: true });
      if (st.isSymbolicLink()) await fs.symlink(await fs.readlink(src), dst);
      else if (st.isFile()) {
        await fs.copyFile(src, dst, constants.COPYFILE_FICLONE);
        await fs.chmod(dst, st.mode & 0o7777);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(COPY_CONCURRENCY, paths.length) }, worker));
}
