// "Apply This One" of a comparison: the chosen session's work comes back through the worktree
// apply command (which asks how), then, on request, the other agents' worktrees go. Both
// questions can be answered by the caller (the integration tests): `answers`.
import * as vscode from 'vscode';
import type { Logger } from '../../common/logger';
import type { ComparisonRecord } from '../../shared/comparisonModel';
import type { ApplyMode, ApplyResult } from '../../worktrees/worktrees';
import { nameList } from './bringBackText';
import type { WorktreeSessions } from './worktreeSessions';

export interface ApplyAnswers {
  /** The apply mode; asked by tandem.worktree.apply when absent. */
  mode?: ApplyMode;
  /** Whether to discard the others' worktrees; asked when absent. */
  discardOthers?: boolean;
}

export interface ApplyOutcome {
  /** What the apply said; undefined when the user cancelled its question. */
  result?: ApplyResult;
  /** The sessions whose worktrees were discarded. */
  discarded: string[];
}

const DISCARD_THEM = 'Discard Them';
const KEEP_THEM = 'Keep Them';

export async function applyThisOne(
  d: { sessions: WorktreeSessions; logger: Logger },
  record: ComparisonRecord,
  sessionId: string,
  answers: ApplyAnswers = {},
): Promise<ApplyOutcome> {
  const args: unknown[] = answers.mode ? [sessionId, answers.mode] : [sessionId];
  const result = await vscode.commands.executeCommand<ApplyResult | undefined>('tandem.worktree.apply', ...args);
  // Cancelled, or refused before anything changed (the command said why): the others stay candidates.
  if (!result || (!result.applied && result.conflicts.length === 0)) return { result, discarded: [] };
  const others = record.sessions.filter((s) => s.sessionId !== sessionId && d.sessions.get(s.sessionId));
  if (!others.length) return { result, discarded: [] };
  const discard = answers.discardOthers ?? (await askDiscard(d.sessions, others));
  if (!discard) return { result, discarded: [] };
  const discarded: string[] = [];
  for (const o of others) {
    const done = await vscode.commands.executeCommand<boolean | undefined>(
      'tandem.worktree.discard',
      o.sessionId,
      'deleteBranch',
    );
    if (done) discarded.push(o.sessionId);
  }
  d.logger.info(
    `[worktrees] comparison ${record.id}: applied ${sessionId}, discarded ${discarded.join(', ') || 'none'}`,
  );
  return { result, discarded };
}

async function askDiscard(
  sessions: WorktreeSessions,
  others: readonly { sessionId: string; agentName: string }[],
): Promise<boolean> {
  const branches = others.map((o) => sessions.get(o.sessionId)?.worktree.branch ?? o.agentName);
  const n = others.length;
  const answer = await vscode.window.showWarningMessage(
    n === 1 ? 'Discard the other worktree?' : `Discard the other ${n} worktrees?`,
    {
      modal: true,
      detail:
        `${nameList(branches)}: their sessions close, and their folders and branches are removed with ` +
        'everything in them. Keep them to compare further or apply more of their work later.',
    },
    DISCARD_THEM,
    KEEP_THEM,
  );
  return answer === DISCARD_THEM;
}
