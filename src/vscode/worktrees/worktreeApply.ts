// "Apply Worktree to My Workspace…": the session's work into the user's tree by merge, cherry-pick
// or as uncommitted changes (src/worktrees/apply.ts). The engine refuses before touching anything
// when a file it would change has uncommitted work of the user's; that refusal is a warning naming
// the files. Conflicts are left as git leaves them and opened in the merge editor.
import { join, relative, sep } from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../../common/logger';
import {
  type ApplyMode,
  type ApplyResult,
  type WorktreeSession,
  WorktreeError,
  abortApply,
  apply,
  changesOf,
} from '../../worktrees/worktrees';
import { APPLY_MODES, isApplyMode, nameList, plural } from './bringBackText';
import { reportError } from './worktreeTarget';
import type { WorktreeSessionRecord } from './worktreeSessions';

const RESOLVE = 'Resolve';
const ABORT = 'Abort';

/** `mode` given (tests, callers that know): no pick. Resolves with what apply() said, or undefined when cancelled. */
export async function applyWorktree(
  logger: Logger,
  rec: WorktreeSessionRecord,
  mode?: unknown,
): Promise<ApplyResult | undefined> {
  const w = rec.worktree;
  const chosen = isApplyMode(mode) ? mode : await pickMode(w.branch);
  if (!chosen) return undefined;
  logger.info(`[worktrees] apply ${w.branch} (${chosen}) to ${w.repoRoot}`);
  const unsaved = await unsavedInTheWay(w);
  if (unsaved.length > 0) {
    const message = `${w.branch} was not applied: ${nameList(unsaved)} ${unsaved.length === 1 ? 'has' : 'have'} unsaved changes in an editor.`;
    logger.info(`[worktrees] apply refused: ${message}`);
    void vscode.window.showWarningMessage(
      `Tandem: ${message} Nothing was changed; save or revert them, then apply again.`,
    );
    return { applied: false, conflicts: [], message };
  }
  let result: ApplyResult;
  try {
    result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Tandem: applying ${w.branch} (${chosen})…` },
      () => apply(w, chosen),
    );
  } catch (err) {
    if (!(err instanceof WorktreeError && err.code === 'userChanges')) throw err;
    logger.info(`[worktrees] apply refused: ${err.message}`);
    void vscode.window.showWarningMessage(
      `Tandem: ${w.branch} was not applied: your uncommitted changes to ${nameList(err.paths)} are in the way. ` +
        'Nothing was changed; commit or stash them, then apply again.',
    );
    return { applied: false, conflicts: [], message: err.message };
  }
  logger.info(`[worktrees] apply ${w.branch}: ${result.message}`);
  // Applied, or nothing to apply (the message says which).
  if (result.conflicts.length > 0) await onConflicts(logger, rec, chosen, result);
  else void vscode.window.showInformationMessage(`Tandem: ${result.message}`);
  return result;
}

/**
 * The files the apply may write that have unsaved edits in an editor. The engine checks what is on
 * disk only; an unsaved buffer is the user's work too, and writing under it would leave it to a
 * "file is newer" choice on the next save. The worktree's changes against base cover every mode.
 */
async function unsavedInTheWay(w: WorktreeSession): Promise<string[]> {
  const dirty = vscode.workspace.textDocuments.filter(
    (d) => d.isDirty && d.uri.scheme === 'file' && d.uri.fsPath.startsWith(w.repoRoot + sep),
  );
  if (dirty.length === 0) return [];
  const touched = new Set((await changesOf(w)).flatMap((f) => (f.oldPath ? [f.path, f.oldPath] : [f.path])));
  return dirty
    .map((d) => relative(w.repoRoot, d.uri.fsPath).split(sep).join('/'))
    .filter((p) => touched.has(p))
    .sort();
}

async function pickMode(branch: string): Promise<ApplyMode | undefined> {
  const pick = await vscode.window.showQuickPick(
    APPLY_MODES.map((m) => ({ label: m.label, detail: m.description, mode: m.mode })),
    { title: `Tandem: Apply ${branch} to My Workspace`, placeHolder: 'How should the work come back?' },
  );
  return pick?.mode;
}

/**
 * Names the conflicted files, opens the first in the merge editor, and offers to open one again
 * (Resolve) or to give up (Abort: merge and cherry-pick only; a 3-way apply has no state to abort).
 */
async function onConflicts(logger: Logger, rec: WorktreeSessionRecord, mode: ApplyMode, result: ApplyResult) {
  const w = rec.worktree;
  const uris = result.conflicts.map((p) => vscode.Uri.file(join(w.repoRoot, p)));
  const buttons = mode === 'uncommitted' ? [RESOLVE] : [RESOLVE, ABORT];
  void vscode.window
    .showWarningMessage(
      `Tandem: ${result.message} ${plural(uris.length, 'conflicted file')}: ${nameList(result.conflicts)}.`,
      ...buttons,
    )
    .then(async (choice) => {
      try {
        if (choice === RESOLVE) await resolveOne(logger, result.conflicts, uris);
        else if (choice === ABORT) {
          await abandonApply(w.repoRoot, uris);
          logger.info(`[worktrees] aborted applying ${w.branch}`);
          void vscode.window.showInformationMessage(`Tandem: stopped applying ${w.branch}; your branch is as it was.`);
        }
      } catch (err) {
        reportError(logger, choice === ABORT ? 'Abort' : 'Resolve', err);
      }
    });
  // The apply itself is done and reported; a file that cannot be opened (deleted on one side) is
  // no reason to report the command as failed.
  await openConflict(logger, uris[0]).catch((err: unknown) =>
    logger.warn(`[worktrees] opening ${uris[0].fsPath}: ${err instanceof Error ? err.message : err}`),
  );
}

/**
 * Abort: the merge editors of the conflicted files go first, their buffers reverted. Opening the
 * merge editor leaves its result unsaved, and an unsaved buffer with markers left behind an abort
 * could later be saved over the files the abort just gave back.
 */
export async function abandonApply(repoRoot: string, uris: readonly vscode.Uri[]): Promise<void> {
  const targets = new Set(uris.map((u) => u.toString()));
  await revertDirty(targets);
  // TabInputTextMerge is not in the typed API this extension builds against; its `result` is the file.
  const mergeTabs = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => {
      const result = (t.input as { result?: unknown } | undefined)?.result;
      return result instanceof vscode.Uri && targets.has(result.toString());
    });
  if (mergeTabs.length) await vscode.window.tabGroups.close(mergeTabs);
  await abortApply(repoRoot);
  // A merge editor still opening may have written its result after the first pass: reverting now
  // loads what the abort put on disk.
  await revertDirty(targets);
}

async function revertDirty(targets: ReadonlySet<string>): Promise<void> {
  for (const doc of vscode.workspace.textDocuments) {
    if (!doc.isDirty || !targets.has(doc.uri.toString())) continue;
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
}

async function resolveOne(logger: Logger, paths: string[], uris: vscode.Uri[]): Promise<void> {
  if (uris.length === 1) return openConflict(logger, uris[0]);
  const pick = await vscode.window.showQuickPick(
    paths.map((label, i) => ({ label, uri: uris[i] })),
    { title: 'Tandem: Resolve a conflicted file', placeHolder: 'Opens it in the merge editor' },
  );
  if (pick) await openConflict(logger, pick.uri);
}

/** The git extension's API, as much of it as is used here. */
interface GitExtension {
  enabled: boolean;
  getAPI(version: 1): { getRepository(uri: vscode.Uri): unknown };
}

/**
 * Opens `uri` in the merge editor through the git extension, which knows the stages to show. That
 * command does nothing (no error) for a repository the extension has not opened, e.g. one outside
 * the workspace folders, so it is asked first; otherwise, and when the command fails, the file
 * opens in a text editor, where VS Code shows the conflict markers with their actions.
 */
export async function openConflict(logger: Logger, uri: vscode.Uri): Promise<void> {
  if (await gitKnows(uri)) {
    try {
      await vscode.commands.executeCommand('git.openMergeEditor', uri);
      return;
    } catch (err) {
      logger.warn(`[worktrees] merge editor for ${uri.fsPath}: ${err instanceof Error ? err.message : err}`);
    }
  }
  await vscode.window.showTextDocument(uri, { preview: false });
}

async function gitKnows(uri: vscode.Uri): Promise<boolean> {
  try {
    const ext = vscode.extensions.getExtension<GitExtension>('vscode.git');
    if (!ext) return false;
    const api = ext.isActive ? ext.exports : await ext.activate();
    return !!api?.enabled && !!api.getAPI(1).getRepository(uri);
  } catch {
    return false; // git disabled or missing: the text editor it is
  }
}
