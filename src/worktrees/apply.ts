// Bringing a session's work back into the user's tree: the only operations here that change it.
// Each first refuses when a file it would change has anything of the user's that is not
// committed, so nothing of theirs is overwritten silently; conflicts are left the way git leaves
// them (markers in the file, stages in the index), which VS Code's merge editor opens.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type GitIdentity, GitError, describeCommand, git, gitResult, splitNul } from './git';
import { commitAll, hasUncommitted, snapshotTree } from './changes';
import { WorktreeError, gitPath, requireRepo, unmergedPaths, userPathsInTheWay } from './repo';
import type { ApplyMode, ApplyResult, WithIdentity, WorktreeSession } from './types';

export async function apply(session: WorktreeSession, mode: ApplyMode, opts: WithIdentity = {}): Promise<ApplyResult> {
  switch (mode) {
    case 'merge':
      return applyMerge(session, opts.identity);
    case 'cherry-pick':
      return applyCherryPick(session, opts.identity);
    case 'uncommitted':
      return applyUncommitted(session);
  }
}

const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

const nothing = (session: WorktreeSession, why: string): ApplyResult => ({
  applied: false,
  conflicts: [],
  message: `Nothing to apply from session "${session.name}": ${why}`,
});

/** Paths that differ between two commits or trees, without rename pairing (both names count as touched). */
async function touchedBetween(cwd: string, from: string, to: string): Promise<string[]> {
  return splitNul(await git(['diff-tree', '-r', '--no-renames', '--name-only', '-z', from, to], { cwd }));
}

async function refuseIfUserChanges(session: WorktreeSession, touched: string[]): Promise<void> {
  const inTheWay = await userPathsInTheWay(session.repoRoot, touched);
  if (inTheWay.length === 0) return;
  const list = inTheWay.slice(0, 10).join(', ') + (inTheWay.length > 10 ? `, and ${inTheWay.length - 10} more` : '');
  throw new WorktreeError(
    'userChanges',
    `Session "${session.name}" was not applied: it changes files with uncommitted changes in ${session.repoRoot} ` +
      `(${list}). Commit or stash them, then apply again.`,
    inTheWay,
  );
}

/** After a non-zero exit: the conflicts git left, or (none) the failure itself. */
async function conflictsOrThrow(top: string, args: string[], r: { exitCode: number; stderr: string }) {
  const conflicts = await unmergedPaths(top);
  if (conflicts.length === 0) throw new GitError(describeCommand(args), top, r.exitCode, r.stderr);
  return conflicts;
}

async function applyMerge(session: WorktreeSession, identity: GitIdentity | undefined): Promise<ApplyResult> {
  const top = session.repoRoot;
  if (existsSync(session.path))
    await commitAll(session, `Tandem: work of session ${session.name}`, { identity, noVerify: true });
  const branchRef = `refs/heads/${session.branch}`;
  const mergeBase = (await git(['merge-base', 'HEAD', branchRef], { cwd: top })).trim();
  const touched = await touchedBetween(top, mergeBase, branchRef);
  if (touched.length === 0) return nothing(session, 'the current branch already has its changes.');
  await refuseIfUserChanges(session, touched);
  const args = ['merge', '--no-ff', '--no-edit', '-m', `Tandem: merge session ${session.name} (${session.branch})`];
  const r = await gitResult([...args, session.branch], { cwd: top, identity });
  if (r.exitCode === 0)
    return { applied: true, conflicts: [], message: `Merged ${session.branch} (${plural(touched.length, 'file')}).` };
  const conflicts = await conflictsOrThrow(top, [...args, session.branch], r);
  return {
    applied: false,
    conflicts,
    message: `Merging ${session.branch} left ${plural(conflicts.length, 'conflicted file')}: resolve them and commit, or abort the merge.`,
  };
}

async function applyCherryPick(session: WorktreeSession, identity: GitIdentity | undefined): Promise<ApplyResult> {
  const top = session.repoRoot;
  const range = `${session.base}..refs/heads/${session.branch}`;
  const commits = (await git(['rev-list', '--reverse', range], { cwd: top })).split('\n').filter(Boolean);
  const leftBehind =
    existsSync(session.path) && (await hasUncommitted(session))
      ? ' The worktree has uncommitted changes; they are not included (commit them, or apply as a merge).'
      : '';
  if (commits.length === 0) return nothing(session, `its branch has no commits since it started.${leftBehind}`);
  await refuseIfUserChanges(session, await touchedBetween(top, session.base, `refs/heads/${session.branch}`));
  const args = ['cherry-pick', range];
  const r = await gitResult(args, { cwd: top, identity });
  if (r.exitCode === 0)
    return { applied: true, conflicts: [], message: `Cherry-picked ${plural(commits.length, 'commit')}.${leftBehind}` };
  const conflicts = await conflictsOrThrow(top, args, r);
  return {
    applied: false,
    conflicts,
    message:
      `Cherry-picking ${session.branch} stopped on ${plural(conflicts.length, 'conflicted file')}: resolve them and ` +
      `continue (git cherry-pick --continue), or abort.${leftBehind}`,
  };
}

/**
 * The worktree's whole difference from base (commits, uncommitted edits, untracked files) as one
 * patch, applied with `git apply --3way`: it applies to the user's tree and index (so what came
 * from the session is staged, apart from the user's own edits elsewhere), and a hunk that does not
 * fit is merged from the blobs the patch names (the worktree shares the object store), leaving
 * conflict markers and index stages instead of failing.
 */
async function applyUncommitted(session: WorktreeSession): Promise<ApplyResult> {
  const top = session.repoRoot;
  const tree = await snapshotTree(session);
  const touched = await touchedBetween(top, session.base, tree);
  if (touched.length === 0) return nothing(session, 'its worktree does not differ from where it started.');
  await refuseIfUserChanges(session, touched);
  const tmp = mkdtempSync(join(tmpdir(), 'tandem-patch-'));
  try {
    const patch = join(tmp, 'session.patch');
    // A file rather than stdout: the patch of a binary-heavy session can be larger than any buffer cap.
    await git(['diff-tree', '-p', '--binary', '--full-index', `--output=${patch}`, session.base, tree], { cwd: top });
    const args = ['apply', '--3way', '--whitespace=nowarn', patch];
    const r = await gitResult(args, { cwd: top });
    if (r.exitCode === 0)
      return { applied: true, conflicts: [], message: `Applied ${plural(touched.length, 'file')} as staged changes.` };
    const conflicts = await conflictsOrThrow(top, args, r);
    return {
      applied: false,
      conflicts,
      message: `Applied with ${plural(conflicts.length, 'conflicted file')}: resolve them (the merge editor opens each).`,
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Abandons a merge or cherry-pick that stopped on conflicts, restoring the user's tree as it was. */
export async function abortApply(repoRoot: string): Promise<void> {
  const top = await requireRepo(repoRoot);
  if (existsSync(await gitPath(top, 'MERGE_HEAD'))) {
    await git(['merge', '--abort'], { cwd: top });
    return;
  }
  if (existsSync(await gitPath(top, 'CHERRY_PICK_HEAD')) || existsSync(await gitPath(top, 'sequencer'))) {
    await git(['cherry-pick', '--abort'], { cwd: top });
    return;
  }
  throw new WorktreeError('nothingToAbort', `No merge or cherry-pick is in progress in ${top}.`);
}
