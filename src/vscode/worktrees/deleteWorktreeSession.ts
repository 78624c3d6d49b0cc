// Deleting a worktree session from the history would forget where its work is: its worktree and
// branch stay, unseen. So it asks first: apply the work, discard the worktree, or keep it.
import * as vscode from 'vscode';
import type { WorktreeSessions } from './worktreeSessions';

export const BRING_BACK = {
  apply: 'Apply Its Work First…',
  discard: 'Discard Its Worktree…',
  keep: 'Keep the Worktree',
} as const;

/** True when the delete may go on; a session that is not a worktree one never asks. */
export async function offerBringBack(sessions: WorktreeSessions, sessionId: string): Promise<boolean> {
  const rec = sessions.get(sessionId);
  if (!rec) return true;
  const pick = await vscode.window.showWarningMessage(
    `"${rec.worktree.name}" works in its own worktree on ${rec.worktree.branch}: its work is not in your tree unless you apply it.`,
    {
      modal: true,
      detail: 'Deleting it from the history leaves the worktree and its branch as they are, unless you say otherwise.',
    },
    BRING_BACK.apply,
    BRING_BACK.discard,
    BRING_BACK.keep,
  );
  if (pick === BRING_BACK.apply) await vscode.commands.executeCommand('tandem.worktree.apply', sessionId);
  else if (pick === BRING_BACK.discard)
    return (await vscode.commands.executeCommand('tandem.worktree.discard', sessionId)) === true;
  return pick !== undefined;
}
