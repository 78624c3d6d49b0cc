// The engine behind "many agents at once": each session may run in its own git worktree (a
// branch and a folder outside the user's tree), and its work comes back by merge, cherry-pick or
// as uncommitted changes. Node only: the vscode layer imports this file and nothing deeper.
export { createWorktree, WorktreeSetupError } from './create';
export { changesOf, commitAll, type CommitOptions } from './changes';
export { archive, restore, discard, whatDiscardLoses, status } from './lifecycle';
export { apply, abortApply } from './apply';
export { WorktreeError, slugify, changedPaths, requireRepo, type WorktreeErrorCode } from './repo';
export { GitError, type GitIdentity } from './git';
export type * from './types';
