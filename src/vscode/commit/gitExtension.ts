// VS Code's git extension (vscode.git, API version 1), as much of it as a commit of kept changes
// uses: the repository (getRepository, or openRepository for one it has not opened yet, such as a
// worktree session's folder outside the workspace), whether the index already holds staged
// changes (diffIndexWithHEAD), staging whole files (add: `git add -A -- <paths>`, so a deleted
// file is staged as deleted), the commit (commit: `git commit` of the index, with the user's
// git.requireGitUserConfig and hooks) and its id (getCommit). What the API has no operation for —
// staging some hunks of a file, reading blobs exactly, saving and restoring the index — is plain
// git in commitIndex.ts. The types here are the parts of the extension's git.d.ts this file calls.
import * as vscode from 'vscode';
import { isWithin } from '../../client/files/realPath';

export interface GitRepository {
  readonly rootUri: vscode.Uri;
  add(paths: string[]): Promise<void>;
  commit(message: string, opts?: { all?: boolean }): Promise<void>;
  /** Without a path: the changes staged in the index, as the extension lists them. */
  diffIndexWithHEAD(): Promise<{ readonly uri: vscode.Uri }[]>;
  getCommit(ref: string): Promise<{ readonly hash: string; readonly message: string }>;
  /** Refreshes the extension's view of the repository (after staging it did not do itself). */
  status(): Promise<void>;
}

interface GitApi {
  readonly state: 'uninitialized' | 'initialized';
  readonly onDidChangeState: vscode.Event<unknown>;
  getRepository(uri: vscode.Uri): GitRepository | null;
  openRepository?(root: vscode.Uri): Promise<GitRepository | null>;
  readonly repositories: readonly GitRepository[];
}

interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}

/** Said to the user when the commit cannot go through the git extension. */
export class GitUnavailable extends Error {
  override readonly name = 'GitUnavailable';
}

/** The git extension's repository whose top folder is `top`; opened in the extension if it is not yet. */
export async function gitRepository(top: string): Promise<GitRepository> {
  const ext = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (!ext) throw new GitUnavailable("VS Code's built-in Git extension is disabled or missing; it makes the commit.");
  const exported = ext.isActive ? ext.exports : await ext.activate();
  if (!exported.enabled) throw new GitUnavailable('Git is turned off in VS Code (the git.enabled setting).');
  const api = exported.getAPI(1);
  if (api.state !== 'initialized') await initialized(api);
  const uri = vscode.Uri.file(top);
  const repo = api.getRepository(uri) ?? (await api.openRepository?.(uri)) ?? null;
  if (!repo) throw new GitUnavailable(`the Git extension could not open the repository at ${top}.`);
  return repo;
}

/** The extension scans the workspace for repositories at startup; a commit waits for that (10 s at most). */
function initialized(api: GitApi): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, 10_000);
    const sub = api.onDidChangeState(() => api.state === 'initialized' && done());
    function done() {
      clearTimeout(timer);
      sub.dispose();
      resolve();
    }
  });
}

/** The git extension's debounce of its `git check-ignore` batches (see closeGitRepositories). */
const GIT_IGNORE_BATCH_MS = 500;

/**
 * Closes the extension's repositories at or below each folder before Tandem removes it (a worktree
 * it discards or archives). Left open, the extension keeps a repository whose folder is gone in
 * Source Control and runs git there on every file event, which fails. Nothing to do when the
 * extension never opened one there.
 *
 * Closing is not quite enough: the extension checks which files are ignored in batches, 500 ms
 * after the last file-decoration request (its GitIgnoreDecorationProvider, `@debounce(500)`), and a
 * batch queued before the close still runs for the closed repository. Is the repository gone by
 * then, git fails there: with its folder left (a test's `.git` removed) git exits before the
 * extension writes to it, and the extension dies with an uncaught EPIPE; with the folder gone, the
 * extension logs that git could not start. So once something was closed this waits out that
 * debounce: nothing can join the batch for a closed repository, and the extension runs in this
 * extension host, so its timer, set before ours, fires first. (While other repositories stay open,
 * requests for their files can still postpone the batch; close all that are going away in one
 * call.)
 */
export async function closeGitRepositories(...folders: string[]): Promise<void> {
  const ext = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (!ext?.isActive || !ext.exports.enabled) return;
  const api = ext.exports.getAPI(1);
  const closing = api.repositories.filter((r) => folders.some((f) => isWithin(f, r.rootUri.fsPath)));
  for (const repo of closing) await vscode.commands.executeCommand('git.close', repo.rootUri);
  if (closing.length) await new Promise((resolve) => setTimeout(resolve, GIT_IGNORE_BATCH_MS + 50));
}
