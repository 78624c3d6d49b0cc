// "Review Worktree Changes": everything a worktree session changed against the commit it started
// from, in VS Code's multi-file diff editor. The right side is the worktree's own file (so it
// stays live while the agent works); the left is the file at `base`, served read-only by a
// content provider that asks git for the blob (the worktree shares the repository's objects).
import { join } from 'node:path';
import * as vscode from 'vscode';
import { Disposable } from '../../common/disposable';
import type { Logger } from '../../common/logger';
import { git } from '../../worktrees/git';
import { changesOf, type WorktreeSession } from '../../worktrees/worktrees';
import { reviewTitle } from './bringBackText';

export const WORKTREE_SCHEME = 'tandem-worktree';

interface BaseQuery {
  /** The folder git runs in. */
  cwd: string;
  /** The commit; '' for the empty side of an added or deleted file. */
  rev: string;
  /** Repository-relative path at `rev`. */
  path: string;
}

/**
 * The document of `rel` at `rev` (the empty document when `rev` is ''). Its path is the file's
 * path in the worktree, so the tab shows the file's name and the language follows its extension.
 */
export function worktreeDocUri(w: WorktreeSession, rel: string, rev: string, shownAs = rel): vscode.Uri {
  const query: BaseQuery = { cwd: w.path, rev, path: rel };
  return vscode.Uri.file(join(w.path, shownAs)).with({ scheme: WORKTREE_SCHEME, query: JSON.stringify(query) });
}

class BaseContent implements vscode.TextDocumentContentProvider {
  constructor(private readonly logger: Logger) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const q = parseQuery(uri.query);
    if (!q?.rev) return '';
    try {
      return await git(['show', `${q.rev}:${q.path}`], { cwd: q.cwd });
    } catch (err) {
      // Shown by VS Code in place of the document; the log keeps git's words too.
      this.logger.warn(`[worktrees] reading ${q.path} at ${q.rev}: ${err instanceof Error ? err.message : err}`);
      throw err;
    }
  }
}

function parseQuery(query: string): BaseQuery | undefined {
  try {
    const q = JSON.parse(query) as Partial<BaseQuery>;
    if (typeof q.cwd === 'string' && typeof q.rev === 'string' && typeof q.path === 'string')
      return { cwd: q.cwd, rev: q.rev, path: q.path };
  } catch {
    /* not one of ours */
  }
  return undefined;
}

export class WorktreeReview extends Disposable {
  constructor(private readonly logger: Logger) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(WORKTREE_SCHEME, new BaseContent(logger)));
  }

  /** Opens the multi-diff of `w`; resolves with its title, or undefined when nothing changed. */
  async open(w: WorktreeSession): Promise<string | undefined> {
    const files = await changesOf(w);
    if (files.length === 0) {
      void vscode.window.showInformationMessage(
        `Tandem: ${w.branch} has no changes since it started (${w.base.slice(0, 7)}).`,
      );
      return undefined;
    }
    const resources = files.map((f): [vscode.Uri, vscode.Uri, vscode.Uri] => {
      const file = vscode.Uri.file(join(w.path, f.path));
      const original =
        f.status === 'added' ? worktreeDocUri(w, f.path, '') : worktreeDocUri(w, f.oldPath ?? f.path, w.base);
      const modified = f.status === 'deleted' ? worktreeDocUri(w, f.path, '') : file;
      return [file, original, modified];
    });
    const title = reviewTitle(w.branch, files.length);
    this.logger.info(`[worktrees] review ${w.branch}: ${files.length} file(s)`);
    await vscode.commands.executeCommand('vscode.changes', title, resources);
    return title;
  }
}
