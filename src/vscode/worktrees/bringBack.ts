// Bringing a worktree session's work back: review it (worktreeReview.ts), apply it to the user's
// tree (worktreeApply.ts), commit it on its branch, or discard it. Each command takes an optional
// session id, else acts on the shown worktree session, else asks (worktreeTarget.ts); a second
// argument skips its question (the integration tests, and callers that already asked).
import * as vscode from 'vscode';
import type { Logger } from '../../common/logger';
import { commitMessage, proposeCommitMessage, userPrompts } from '../../session/commitMessage';
import { commitAll, discard, whatDiscardLoses } from '../../worktrees/worktrees';
import type { Controller } from '../agent/controller';
import { closeGitRepositories } from '../commit/gitExtension';
import type { Ctx } from '../ctx';
import { DISCARD_KEEP_BRANCH, discardQuestion, plural } from './bringBackText';
import { applyWorktree } from './worktreeApply';
import { WorktreeReview } from './worktreeReview';
import { worktreeCommand } from './worktreeTarget';
import type { WorktreeSessionRecord, WorktreeSessions } from './worktreeSessions';

export interface BringBackDeps {
  sessions: WorktreeSessions;
  ctl: Controller;
}

export function registerBringBack(ctx: Ctx, d: BringBackDeps): void {
  const logger = ctx.logger;
  const deps = { ...d, logger };
  const review = ctx.own(new WorktreeReview(logger));
  const commands: Record<string, [string, (rec: WorktreeSessionRecord, ...rest: unknown[]) => Promise<unknown>]> = {
    'tandem.worktree.review': ['Review Worktree Changes', (rec) => review.open(rec.worktree)],
    'tandem.worktree.apply': ['Apply Worktree to My Workspace', (rec, mode) => applyWorktree(logger, rec, mode)],
    'tandem.worktree.commit': [
      'Commit Worktree Changes on Its Branch',
      (rec, message) => commitWorktree(logger, d.ctl, rec, message),
    ],
    'tandem.worktree.discard': ['Discard Worktree', (rec, choice) => discardWorktree(logger, d, rec, choice)],
  };
  for (const [id, [title, run]] of Object.entries(commands))
    ctx.own(vscode.commands.registerCommand(id, worktreeCommand(deps, title, run)));
}

/**
 * Commits everything in the worktree on its branch. The message proposed comes from the
 * session's prompts (src/session/commitMessage.ts); the input box is one line, so it holds the
 * subject and the later prompts are added as the body. `message` given: used as it is.
 * Resolves with the new commit, or undefined (nothing to commit, or cancelled).
 */
async function commitWorktree(
  logger: Logger,
  ctl: Controller,
  rec: WorktreeSessionRecord,
  message: unknown,
): Promise<string | undefined> {
  const w = rec.worktree;
  let text = typeof message === 'string' && message.trim() ? message : undefined;
  if (text === undefined) {
    const state = ctl.clientOf(rec.sessionId)?.getSession(rec.sessionId)?.state;
    const proposal = proposeCommitMessage(state ? userPrompts(state) : []);
    const subject = await vscode.window.showInputBox({
      title: `Tandem: Commit on ${w.branch}`,
      value: proposal?.subject ?? `Work of session ${w.name}`,
      prompt: proposal?.body
        ? `The subject. The session's later prompts are added as the body (${plural(proposal.body.split('\n').length, 'line')}).`
        : 'Everything in the worktree (untracked files too) is committed.',
      validateInput: (v) => (v.trim() ? undefined : 'A commit needs a message.'),
    });
    if (subject === undefined) return undefined;
    text = commitMessage(subject, proposal?.body ?? '');
  }
  const sha = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Tandem: committing on ${w.branch}…` },
    () => commitAll(w, text),
  );
  if (!sha) {
    void vscode.window.showInformationMessage(`Tandem: nothing to commit in ${w.branch}: every change is committed.`);
    return undefined;
  }
  logger.info(`[worktrees] committed ${sha.slice(0, 7)} on ${w.branch}`);
  void vscode.window.showInformationMessage(
    `Tandem: committed ${sha.slice(0, 7)} on ${w.branch}: ${text.split('\n')[0]}`,
  );
  return sha;
}

/**
 * Removes the worktree (and its branch, when chosen) after a modal question that names what is
 * lost; the session is closed first so no agent keeps writing into a folder that is going away.
 * `choice` ('deleteBranch' | 'keepBranch') given: no question. Resolves true when discarded.
 */
async function discardWorktree(
  logger: Logger,
  d: BringBackDeps,
  rec: WorktreeSessionRecord,
  choice: unknown,
): Promise<boolean> {
  const w = rec.worktree;
  let deleteBranch: boolean;
  if (choice === 'deleteBranch' || choice === 'keepBranch') deleteBranch = choice === 'deleteBranch';
  else {
    const q = discardQuestion(w.name, w.branch, await whatDiscardLoses(w));
    const answer = await vscode.window.showWarningMessage(q.message, { modal: true, detail: q.detail }, ...q.buttons);
    if (answer === undefined) return false;
    deleteBranch = answer !== DISCARD_KEEP_BRANCH;
  }
  await d.ctl.closeSession(rec.sessionId, rec.agentName);
  await closeGitRepositories(w.path);
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Tandem: discarding ${w.branch}…` },
    () => discard(w, { deleteBranch }),
  );
  await d.sessions.remove(rec.sessionId);
  logger.info(`[worktrees] discarded ${w.path}${deleteBranch ? ` and ${w.branch}` : ` (kept ${w.branch})`}`);
  void vscode.window.showInformationMessage(
    `Tandem: discarded the worktree of session "${w.name}"${deleteBranch ? ` and its branch` : `; ${w.branch} is kept`}.`,
  );
  return true;
}
