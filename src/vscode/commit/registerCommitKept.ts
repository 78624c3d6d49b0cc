// "Tandem: Commit Kept Changes…" (tandem.commitKeptChanges): commits the agent's work of a session
// that the user keeps — every changed file, chosen files, or chosen hunks of a file — with a
// message proposed from the session's prompts and its summary, if it has one (keptMessage.ts),
// editable first. Exactly the choice is staged (commitSelection.ts): whole files through the git
// extension's add, hunks as a patch into the index (commitIndex.ts); what the index already had
// staged is committed too only when the user says so, and a failed commit puts the index back as
// it was. A file committed whole counts as kept. The commit is recorded on the session and shown
// in its transcript (keptCommits.ts). A worktree session commits in its worktree: that is its
// branch's commit.
//
// The command takes a session id (or `{ sessionId }` from a menu), else the shown session. Tests
// and callers that already asked pass `{ sessionId, files, message, staged }` and skip the questions.
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ChangeTracker } from '../../client/changes/changeTracker';
import type { Logger } from '../../common/logger';
import { type CommitCandidate, type CommitChoice, initialChoices, stagingPlan } from '../../review/commitSelection';
import type { Controller } from '../agent/controller';
import { SUMMARY_PROMPT, type SessionSummaries } from '../changes/sessionSummaries';
import type { Ctx } from '../ctx';
import { errorText } from '../worktrees/worktreeTarget';
import type { WorktreeSessions } from '../worktrees/worktreeSessions';
import { applyToIndex, saveIndex } from './commitIndex';
import { editMessage, includeStaged, pickFiles } from './commitKeptPicks';
import { gitRepository } from './gitExtension';
import { commitCandidates, filesByRepository, relativeTo } from './keptCandidates';
import { KeptCommits } from './keptCommits';
import { proposeKeptMessage } from './keptMessage';

export interface CommitKeptDeps {
  ctl: Controller;
  tracker: ChangeTracker;
  worktrees: WorktreeSessions;
  /** The sessions' summaries ("Ask the Agent to Summarize Its Changes"), offered in the message. */
  summaries: Pick<SessionSummaries, 'get'>;
}

/** What a caller may decide up front (each one given skips its question). */
export interface CommitKeptArgs {
  sessionId?: string;
  /** Absolute paths (whole files), or choices with hunk indexes (the hunk list's order). */
  files?: readonly (string | CommitChoice)[];
  message?: string;
  /** The index already has staged changes: commit them too ('include'), or do nothing ('stop'). */
  staged?: 'include' | 'stop';
}

export interface CommitKeptResult {
  sha: string;
  message: string;
  files: string[];
}

const TITLE = 'Tandem: Commit Kept Changes';

export function registerCommitKept(ctx: Ctx, d: CommitKeptDeps): KeptCommits {
  const records = ctx.own(new KeptCommits(ctx.extension.workspaceState, d.ctl));
  ctx.own(
    vscode.commands.registerCommand('tandem.commitKeptChanges', async (arg?: unknown) => {
      try {
        return await commitKept(ctx.logger, d, records, argsOf(arg));
      } catch (err) {
        const text = errorText(err);
        ctx.logger.error(`[commit] ${text}`);
        void vscode.window.showErrorMessage(`Tandem: the commit failed; the index is as it was. ${text}`);
        return undefined;
      }
    }),
  );
  return records;
}

function argsOf(arg: unknown): CommitKeptArgs {
  if (typeof arg === 'string') return { sessionId: arg };
  return arg && typeof arg === 'object' ? (arg as CommitKeptArgs) : {};
}

async function commitKept(
  logger: Logger,
  d: CommitKeptDeps,
  records: KeptCommits,
  args: CommitKeptArgs,
): Promise<CommitKeptResult | undefined> {
  const sessionId = args.sessionId ?? d.ctl.current?.session?.sessionId;
  const say = (text: string): undefined => {
    void vscode.window.showInformationMessage(`Tandem: ${text}`);
    return undefined;
  };
  if (!sessionId) return say('open a session first: its kept changes are what is committed.');
  const rec = d.worktrees.get(sessionId);
  const worktree = rec && !rec.archived ? rec.worktree : undefined;
  const { byTop, outside } = await filesByRepository(d.tracker, sessionId, worktree?.path);
  if (outside.length) logger.info(`[commit] not in a repository of the session: ${outside.join(', ')}`);
  const top = await pickRepository([...byTop.keys()]);
  if (!top) return byTop.size ? undefined : say('none of the files this session changed is in a git repository.');
  const candidates = await commitCandidates(top, byTop.get(top)!, d.tracker, sessionId);
  if (!candidates.length) return say('nothing to commit: the changes of this session are committed or staged already.');

  const canonical = (p: string) => d.tracker.canonical(p);
  const given = args.files?.map((f) =>
    typeof f === 'string' ? { path: canonical(f) } : { ...f, path: canonical(f.path) },
  );
  const where = worktree ? ` on ${worktree.branch}` : '';
  const choices =
    given ?? (await pickFiles(`${TITLE}${where}`, candidates, initialChoices(candidates), unsavedPaths(canonical)));
  if (!choices) return undefined;
  const plan = stagingPlan(candidates, choices);
  if (!plan.files.length) return say('no file chosen: nothing was committed.');

  const repo = await gitRepository(top);
  const staged = (await repo.diffIndexWithHEAD()).map((c) => relativeTo(repo.rootUri.fsPath, c.uri.fsPath));
  if (staged.length && !(args.staged ? args.staged === 'include' : await includeStaged(staged)))
    return say('stopped: nothing was committed, and what was staged stays staged.');
  const state = d.ctl.clientOf(sessionId)?.getSession(sessionId)?.state;
  const proposal = proposeKeptMessage(state, {
    summary: d.summaries.get(sessionId)?.text,
    notReasons: [SUMMARY_PROMPT],
    fallback: `Changes of session ${sessionId}`,
  });
  const message = args.message ?? (await editMessage(`${TITLE}${where}`, proposal));
  if (!message?.trim()) return undefined;

  const index = await saveIndex(top);
  try {
    // Through the extension's root, the form it names the repository's files in.
    if (plan.whole.length) await repo.add(plan.whole.map((rel) => join(repo.rootUri.fsPath, rel)));
    for (const p of plan.patches) await applyToIndex(top, p.patch);
    await repo.status();
    await repo.commit(message);
  } catch (err) {
    await index.restore();
    throw err;
  }
  const sha = (await repo.getCommit('HEAD')).hash;
  keepCommitted(d.tracker, sessionId, candidates, plan.whole);
  const files = [...plan.files];
  await records.add({
    sessionId,
    sha,
    message,
    files,
    repoRoot: top,
    ...(worktree ? { branch: worktree.branch } : {}),
    at: Date.now(),
  });
  logger.info(`[commit] ${sha.slice(0, 7)} in ${top}${where}: ${files.join(', ')}`);
  say(`committed ${sha.slice(0, 7)}${where}: ${message.split('\n')[0]}`);
  return { sha, message, files };
}

/**
 * A file committed whole is kept: its pending entries say so, and the session view, Review Changes
 * and the editor's lenses stop offering it for review. A file committed in part stays pending.
 */
function keepCommitted(
  tracker: ChangeTracker,
  sessionId: string,
  candidates: readonly CommitCandidate[],
  whole: readonly string[],
) {
  const paths = new Set(candidates.filter((c) => whole.includes(c.rel)).map((c) => c.path));
  for (const t of tracker.allTurns(sessionId))
    for (const c of t.files)
      if (paths.has(c.path) && c.state === 'pending') tracker.setState(sessionId, c.turn, c.path, 'kept');
}

/** The repository to commit in: the only one, or the user's pick when the session's files span several. */
async function pickRepository(tops: readonly string[]): Promise<string | undefined> {
  if (tops.length <= 1) return tops[0];
  const pick = await vscode.window.showQuickPick(
    tops.map((top) => ({ label: vscode.workspace.asRelativePath(top), description: top, top })),
    { title: TITLE, placeHolder: "The session's files are in several repositories: which one to commit in?" },
  );
  return pick?.top;
}

/** Files with unsaved edits in an editor, in the tracker's form of a path. */
function unsavedPaths(canonical: (path: string) => string): Set<string> {
  const dirty = vscode.workspace.textDocuments.filter((doc) => doc.isDirty && doc.uri.scheme === 'file');
  return new Set(dirty.map((doc) => canonical(doc.uri.fsPath)));
}
