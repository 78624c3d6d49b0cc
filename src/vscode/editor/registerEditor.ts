// The editor follows the agent: the file it reads or edits opens where it works (follow-along).
import type { Controller } from '../agent/controller';
import type { Ctx } from '../ctx';
import type { WorktreeSessions } from '../worktrees/worktreeSessions';
import { FollowAgent } from './followAgent';

export function registerEditor(
  ctx: Ctx,
  ctl: Pick<Controller, 'onDidChangeSession'>,
  worktrees: Pick<WorktreeSessions, 'placeOf'>,
): FollowAgent {
  // A worktree session is followed into its own folder (its files carry a worktree badge).
  return ctx.own(new FollowAgent(ctl.onDidChangeSession, undefined, undefined, (id) => worktrees.placeOf(id)?.cwd));
}
