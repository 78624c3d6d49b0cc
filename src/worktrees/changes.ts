// What a session changed: the worktree's whole state (commits on its branch, uncommitted edits and
// untracked files) against the commit it started from, and committing that work on its branch.
import { type GitIdentity, GitError, describeCommand, git, gitResult, splitNul } from './git';
import { withIndexCopy } from './repo';
import type { ChangeStatus, ChangedFile, WorktreeSession } from './types';

/**
 * The tree of everything in the worktree now, tracked or not (ignored files left out), without
 * touching the worktree's own index: `git add -A` into a throwaway copy of it.
 */
export async function snapshotTree(session: WorktreeSession): Promise<string> {
  const cwd = session.path;
  return withIndexCopy(cwd, async (env) => {
    await git(['add', '-A'], { cwd, env });
    return (await git(['write-tree'], { cwd, env })).trim();
  });
}

const STATUS: Record<string, ChangeStatus> = { A: 'added', M: 'modified', T: 'modified', D: 'deleted', R: 'renamed' };

/** Files changed in the worktree against `base`: committed on the branch, uncommitted and untracked, with line counts. */
export async function changesOf(session: WorktreeSession): Promise<ChangedFile[]> {
  const tree = await snapshotTree(session);
  const opts = { cwd: session.path };
  const [names, counts] = await Promise.all([
    git(['diff-tree', '-r', '-M', '--name-status', '-z', session.base, tree], opts),
    git(['diff-tree', '-r', '-M', '--numstat', '-z', session.base, tree], opts),
  ]);
  const lines = parseNumstat(counts);
  const files: ChangedFile[] = [];
  const fields = splitNul(names);
  for (let i = 0; i < fields.length; i++) {
    const code = fields[i][0];
    const renamed = code === 'R' || code === 'C';
    const oldPath = renamed ? fields[++i] : undefined;
    const path = fields[++i];
    const n = lines.get(path);
    const file: ChangedFile = {
      path,
      status: code === 'C' ? 'added' : (STATUS[code] ?? 'modified'),
      added: n?.added,
      removed: n?.removed,
    };
    if (oldPath !== undefined && code === 'R') file.oldPath = oldPath;
    files.push(file);
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** `--numstat -z`: "added\tremoved\tpath\0", or for a rename "added\tremoved\t\0old\0new\0"; "-" for binary. */
function parseNumstat(out: string): Map<string, { added?: number; removed?: number }> {
  const map = new Map<string, { added?: number; removed?: number }>();
  const fields = splitNul(out);
  for (let i = 0; i < fields.length; i++) {
    const [a, r, ...rest] = fields[i].split('\t');
    let path = rest.join('\t');
    if (path === '') {
      i++; // the old path
      path = fields[++i];
    }
    map.set(path, { added: a === '-' ? undefined : Number(a), removed: r === '-' ? undefined : Number(r) });
  }
  return map;
}

export interface CommitOptions {
  identity?: GitIdentity;
  /** Skip the repository's pre-commit and commit-msg hooks (Tandem's own bookkeeping commits). */
  noVerify?: boolean;
}

/** Stages everything in the worktree and commits it on the session's branch; undefined when there was nothing to commit. */
export async function commitAll(
  session: WorktreeSession,
  message: string,
  opts: CommitOptions = {},
): Promise<string | undefined> {
  const cwd = session.path;
  await git(['add', '-A'], { cwd });
  const check = ['diff', '--cached', '--quiet'];
  const staged = await gitResult(check, { cwd });
  if (staged.exitCode === 0) return undefined; // exit 1: there are staged changes
  if (staged.exitCode !== 1) throw new GitError(describeCommand(check), cwd, staged.exitCode, staged.stderr);
  const args = ['commit', '--quiet', '-m', message];
  if (opts.noVerify) args.push('--no-verify');
  await git(args, { cwd, identity: opts.identity });
  return (await git(['rev-parse', 'HEAD'], { cwd })).trim();
}

/** Whether the worktree has anything uncommitted (untracked files count). */
export async function hasUncommitted(session: WorktreeSession): Promise<boolean> {
  const out = await git(['status', '--porcelain=v1', '-z', '--untracked-files=normal'], { cwd: session.path });
  return out.length > 0;
}
