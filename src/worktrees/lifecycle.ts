// A session's worktree over time: archived (folder gone, work kept on its branch), restored,
// discarded (with what that loses named first), and checked (was the folder deleted by hand?).
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { git, gitResult, splitNul } from './git';
import { commitAll } from './changes';
import { BRANCH_PREFIX, WorktreeError, branchExists, changedPaths, freeFolder, requireRepo } from './repo';
import type { ArchivedWorktree, DiscardLosses, WithIdentity, WorktreeSession, WorktreeStatus } from './types';

/**
 * Commits the worktree's uncommitted work on its branch, then removes the folder; the branch
 * stays, so restore() brings every file back. The removal is not forced: anything written after
 * the commit makes git refuse rather than lose it.
 */
export async function archive(session: WorktreeSession, opts: WithIdentity = {}): Promise<ArchivedWorktree> {
  const repoRoot = session.repoRoot;
  if (existsSync(session.path)) {
    await commitAll(session, `Tandem: archived session ${session.name}`, { identity: opts.identity, noVerify: true });
    await git(['worktree', 'remove', session.path], { cwd: repoRoot });
  } else {
    // Deleted by hand: only git's record of it is left to clear; its commits are on the branch.
    await git(['worktree', 'prune'], { cwd: repoRoot });
  }
  const head = (await git(['rev-parse', '--verify', `refs/heads/${session.branch}`], { cwd: repoRoot })).trim();
  return {
    branch: session.branch,
    base: session.base,
    repoRoot,
    name: session.name,
    createdAt: session.createdAt,
    archivedAt: Date.now(),
    head,
    formerPath: session.path,
  };
}

/** Checks the archived branch out again in a new folder under `parentDir` (the same branch, so no work is copied). */
export async function restore(record: ArchivedWorktree, parentDir: string): Promise<WorktreeSession> {
  const repoRoot = await requireRepo(record.repoRoot);
  if (!(await branchExists(repoRoot, record.branch)))
    throw new WorktreeError(
      'branchMissing',
      `The branch ${record.branch} of session "${record.name}" no longer exists in ${repoRoot}; it cannot be restored.`,
    );
  mkdirSync(parentDir, { recursive: true });
  const slug = record.branch.startsWith(BRANCH_PREFIX) ? record.branch.slice(BRANCH_PREFIX.length) : record.branch;
  const path = freeFolder(realpathSync(parentDir), slug.replace(/\//g, '-'));
  await git(['worktree', 'add', '--quiet', path, record.branch], { cwd: repoRoot });
  return { path, branch: record.branch, base: record.base, repoRoot, name: record.name, createdAt: record.createdAt };
}

/** Removes the worktree folder, uncommitted work and all; the branch too when asked. Ask whatDiscardLoses() first. */
export async function discard(session: WorktreeSession, opts: { deleteBranch: boolean }): Promise<void> {
  const repoRoot = session.repoRoot;
  if (existsSync(session.path)) await git(['worktree', 'remove', '--force', session.path], { cwd: repoRoot });
  else await git(['worktree', 'prune'], { cwd: repoRoot });
  if (opts.deleteBranch && (await branchExists(repoRoot, session.branch)))
    await git(['branch', '-D', session.branch], { cwd: repoRoot });
}

/** The uncommitted files of the worktree and the branch's commits whose changes the user's current branch lacks. */
export async function whatDiscardLoses(session: WorktreeSession): Promise<DiscardLosses> {
  const uncommitted = existsSync(session.path) ? [...new Set(await changedPaths(session.path))].sort() : [];
  const commits: DiscardLosses['commits'] = [];
  if (await branchExists(session.repoRoot, session.branch)) {
    // --cherry-pick drops commits whose patch is already on HEAD (applied by cherry-pick, say).
    const out = await git(
      ['log', '--right-only', '--cherry-pick', '-z', '--format=%H%x1f%s', `HEAD...refs/heads/${session.branch}`],
      { cwd: session.repoRoot },
    );
    for (const rec of splitNul(out)) {
      const [sha, subject = ''] = rec.split('\x1f');
      commits.push({ sha, subject });
    }
  }
  return { uncommitted, commits };
}

const real = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

/** 'notGit' when the user's repository is gone; 'missing' when the worktree folder is (or git no longer knows it). */
export async function status(session: WorktreeSession): Promise<WorktreeStatus> {
  if (!existsSync(session.repoRoot)) return 'notGit';
  const r = await gitResult(['worktree', 'list', '--porcelain'], { cwd: session.repoRoot }).catch(() => undefined);
  if (!r || r.exitCode !== 0) return 'notGit';
  if (!existsSync(session.path)) return 'missing';
  const target = real(session.path);
  // Blocks separated by a blank line: "worktree <path>", "HEAD <sha>", "branch <ref>", maybe "prunable <why>".
  for (const block of r.stdout.split('\n\n')) {
    const lines = block.split('\n');
    const path = lines.find((l) => l.startsWith('worktree '))?.slice('worktree '.length);
    if (path === undefined || real(path) !== target) continue;
    return lines.some((l) => l === 'prunable' || l.startsWith('prunable ')) ? 'missing' : 'ok';
  }
  return 'missing';
}
