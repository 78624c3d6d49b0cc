/// <reference types="mocha" />
// Bringing a worktree session's work back, in the real VS Code, on a real git repository: the
// review opens the multi-file diff editor, apply refuses while the user's own change is in the
// way and then brings the work as staged changes, commit puts it on the branch, a merge that
// conflicts leaves the markers and opens the file, and discard removes folder, branch and record.
// The tests run in order: each starts from where the one before left the repository.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { abortApply, createWorktree, type ApplyResult, type WorktreeSession } from '../../src/worktrees/worktrees';
import { abandonApply } from '../../src/vscode/worktrees/worktreeApply';
import { worktreeDocUri } from '../../src/vscode/worktrees/worktreeReview';
import { gitRepository } from '../../src/vscode/commit/gitExtension';
import { activateTandem, removeGitRepos, wholeFolder, type TestedTandem, until } from './helpers';

const ID = 'wt-test-1';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}
const put = (root: string, rel: string, text: string) => writeFileSync(join(root, rel), text);
const read = (root: string, rel: string) => readFileSync(join(root, rel), 'utf8');
const branchExists = (repo: string, branch: string) => {
  try {
    git(repo, 'rev-parse', '--verify', '--quiet', `refs/heads/${branch}`);
    return true;
  } catch {
    return false;
  }
};
interface GitApi {
  openRepository(root: vscode.Uri): Promise<unknown>;
}
const allTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs);

suite('worktree sessions: review, apply, commit, discard', () => {
  let api: TestedTandem;
  let root: string;
  let repo: string;
  let wt: WorktreeSession;

  suiteSetup(async function () {
    this.timeout(60_000);
    api = (await activateTandem()).api;
    root = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-bringback-')));
    repo = join(root, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '-q', '-b', 'main');
    // The repository's own identity: the extension's git runs without one of its own.
    git(repo, 'config', 'user.name', 'Tandem Test');
    git(repo, 'config', 'user.email', 'test@localhost');
    git(repo, 'config', 'commit.gpgsign', 'false');
    put(repo, 'a.txt', 'one\ntwo\nthree\n');
    put(repo, 'b.txt', 'b\n');
    put(repo, 'd.txt', 'to be deleted\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'initial');
    wt = await createWorktree({
      repoRoot: repo,
      parentDir: join(root, 'worktrees'),
      name: 'bring back',
      carryChanges: false,
    });
    await api.worktrees.add({ sessionId: ID, agentName: 'x', worktree: wt });
    // The agent's work: one file changed, one added, one deleted.
    put(wt.path, 'b.txt', 'b by the agent\n');
    put(wt.path, 'c.txt', 'new from the agent\n');
    rmSync(join(wt.path, 'd.txt'));
  });

  suiteTeardown(async () => {
    // A test that failed half-way may leave an unsaved merge result; closing it would ask to save.
    for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.fsPath.startsWith(root))) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (api.worktrees.get(ID)) await api.worktrees.remove(ID);
    if (api.worktrees.get('wt-test-missing')) await api.worktrees.remove('wt-test-missing');
    await removeGitRepos(wholeFolder(root));
  });

  test('Review opens the multi-file diff of the worktree against its base, the base side served by git', async () => {
    const title = await vscode.commands.executeCommand<string | undefined>('tandem.worktree.review', ID);
    assert.equal(title, 'tandem/bring-back — 3 files changed');
    // VS Code adds the count to the label ("… (3 files)").
    const isReview = (t: vscode.Tab) => t.label.startsWith(title!);
    await until(() => allTabs().some(isReview), 10_000, 'the multi-diff tab');
    const tab = allTabs().find(isReview)!;
    const MultiDiff = (vscode as unknown as { TabInputTextMultiDiff?: new (...a: never[]) => unknown })
      .TabInputTextMultiDiff;
    if (MultiDiff) assert.ok(tab.input instanceof MultiDiff, 'a multi-diff editor');
    // A Sessions view row's context menu passes its node, which carries the session id.
    const fromRow = { sessionId: ID, agentName: 'x' };
    assert.equal(await vscode.commands.executeCommand('tandem.worktree.review', fromRow), title);
    const base = await vscode.workspace.openTextDocument(worktreeDocUri(wt, 'b.txt', wt.base));
    assert.equal(base.getText(), 'b\n');
    const empty = await vscode.workspace.openTextDocument(worktreeDocUri(wt, 'c.txt', ''));
    assert.equal(empty.getText(), '');
  });

  test("Apply as uncommitted changes refuses while the user's own change is in the way, then brings the work", async () => {
    // Unsaved in an editor: the engine cannot see it, the command does.
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(join(repo, 'b.txt')));
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(0, 0), 'unsaved ');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const unsaved = await vscode.commands.executeCommand<ApplyResult>('tandem.worktree.apply', ID, 'uncommitted');
    assert.equal(unsaved?.applied, false);
    assert.match(unsaved!.message, /b\.txt has unsaved changes/);
    assert.equal(read(repo, 'b.txt'), 'b\n');
    assert.equal(doc.getText(), 'unsaved b\n');
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');

    put(repo, 'b.txt', 'the user is editing b\n');
    const refused = await vscode.commands.executeCommand<ApplyResult>('tandem.worktree.apply', ID, 'uncommitted');
    assert.equal(refused?.applied, false);
    assert.match(refused!.message, /was not applied.*b\.txt/);
    assert.equal(read(repo, 'b.txt'), 'the user is editing b\n', "the user's change is untouched");
    assert.ok(!existsSync(join(repo, 'c.txt')));

    git(repo, 'checkout', '--', 'b.txt');
    const r = await vscode.commands.executeCommand<ApplyResult>('tandem.worktree.apply', ID, 'uncommitted');
    assert.equal(r?.applied, true, r?.message);
    assert.equal(read(repo, 'b.txt'), 'b by the agent\n');
    assert.equal(read(repo, 'c.txt'), 'new from the agent\n');
    assert.ok(!existsSync(join(repo, 'd.txt')));
    assert.equal(git(repo, 'rev-list', '--count', 'HEAD').trim(), '1', 'no commit: the work is uncommitted');
    git(repo, 'commit', '-q', '-m', "the agent's work, applied");
  });

  test("Commit puts the worktree's changes in a commit on its branch", async () => {
    const sha = await vscode.commands.executeCommand<string | undefined>(
      'tandem.worktree.commit',
      ID,
      'Agent work\n\n- and a test',
    );
    assert.ok(sha);
    assert.equal(git(repo, 'rev-parse', 'refs/heads/tandem/bring-back').trim(), sha);
    assert.equal(git(repo, 'log', '-1', '--format=%B', 'tandem/bring-back').trim(), 'Agent work\n\n- and a test');
    assert.equal(git(wt.path, 'status', '--porcelain'), '');
    const again = await vscode.commands.executeCommand('tandem.worktree.commit', ID, 'nothing');
    assert.equal(again, undefined, 'nothing left to commit');
  });

  test('Apply as a merge that conflicts names the file, leaves the markers, opens it, and abort restores the branch', async function () {
    this.timeout(30_000);
    put(wt.path, 'a.txt', 'one\ntwo by the agent\nthree\n'); // uncommitted: merge commits it first
    put(repo, 'a.txt', 'one\ntwo by the user\nthree\n');
    git(repo, 'commit', '-q', '-am', "the user's own change");
    const userHead = git(repo, 'rev-parse', 'HEAD').trim();

    const r = await vscode.commands.executeCommand<ApplyResult>('tandem.worktree.apply', ID, 'merge');
    assert.equal(r?.applied, false);
    assert.deepEqual(r?.conflicts, ['a.txt']);
    const text = read(repo, 'a.txt');
    assert.match(text, /^<<<<<<< /m);
    assert.match(text, /two by the user/);
    assert.match(text, /two by the agent/);
    // Opened in a text editor (markers and their actions): the git extension does not know a
    // repository outside the workspace folders, so its merge editor would open nothing.
    const target = vscode.Uri.file(join(repo, 'a.txt')).toString();
    const inputs = () => allTabs().map((t) => t.input as { uri?: vscode.Uri; result?: vscode.Uri } | undefined);
    await until(
      () => allTabs().some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === target),
      10_000,
      'the conflicted file in a text editor',
    );
    await abortApply(repo);
    assert.equal(read(repo, 'a.txt'), 'one\ntwo by the user\nthree\n');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    // Once the git extension has the repository open, the conflict opens in the merge editor.
    const gitApi = vscode.extensions.getExtension<{ getAPI(v: 1): GitApi }>('vscode.git');
    const opened = await (await gitApi!.activate()).getAPI(1).openRepository(vscode.Uri.file(repo));
    assert.ok(opened, 'the git extension opened the repository');
    const again = await vscode.commands.executeCommand<ApplyResult>('tandem.worktree.apply', ID, 'merge');
    assert.deepEqual(again?.conflicts, ['a.txt']);
    await until(() => inputs().some((i) => i?.result?.toString() === target), 10_000, 'the merge editor');
    // The user starts resolving in the merge editor: the file's result is unsaved. (The merge
    // editor writes an initial result of its own some time after it opens; an edit made while
    // it does is refused as made to an older version, so the user's edit is made again.)
    const unsaved = () => vscode.workspace.textDocuments.some((d) => d.isDirty && d.uri.toString() === target);
    const resolve = async () => {
      const edit = new vscode.WorkspaceEdit();
      edit.insert(vscode.Uri.parse(target), new vscode.Position(0, 0), 'half resolved\n');
      return (await vscode.workspace.applyEdit(edit)) && unsaved();
    };
    await until(resolve, 10_000, "the user's edit in the merge result", 200);

    // Abort: the merge editor's unsaved result is dropped with it, then the merge is undone.
    await abandonApply(repo, [vscode.Uri.file(join(repo, 'a.txt'))]);
    assert.ok(!inputs().some((i) => i?.result?.toString() === target), 'the merge editor is closed');
    assert.ok(!unsaved(), 'no unsaved merge result is left');
    assert.equal(read(repo, 'a.txt'), 'one\ntwo by the user\nthree\n');
    assert.equal(git(repo, 'rev-parse', 'HEAD').trim(), userHead);
    assert.equal(git(repo, 'status', '--porcelain'), '');
  });

  test('a failing git command is an error message, not a rejection', async () => {
    const gone = { ...wt, path: join(root, 'no-such-folder') };
    await api.worktrees.add({ sessionId: 'wt-test-missing', agentName: 'x', worktree: gone });
    assert.equal(await vscode.commands.executeCommand('tandem.worktree.review', 'wt-test-missing'), undefined);
    assert.equal(await vscode.commands.executeCommand('tandem.worktree.commit', 'wt-test-missing', 'm'), undefined);
    await api.worktrees.remove('wt-test-missing');
  });

  test("Discard removes the worktree folder, its branch and the record, and closes the git extension's repository there", async () => {
    assert.ok(existsSync(wt.path));
    // The user had the worktree open in Source Control (the commit of kept changes opens it too).
    // Tandem closes it before it removes the folder: left to itself the extension notices the
    // removal later, running git in a folder that is gone meanwhile (an EPIPE in the host).
    await gitRepository(wt.path);
    const extension = gitApi();
    assert.ok(
      extension.repositories.some((r) => r.rootUri.fsPath === wt.path),
      'open in the git extension',
    );
    const closedWhileThere: boolean[] = [];
    const sub = extension.onDidCloseRepository((r) => {
      if (r.rootUri.fsPath === wt.path) closedWhileThere.push(existsSync(wt.path));
    });
    const done = await vscode.commands.executeCommand('tandem.worktree.discard', ID, 'deleteBranch');
    await until(() => closedWhileThere.length > 0, 10_000, 'the repository closed').finally(() => sub.dispose());
    assert.deepEqual(closedWhileThere, [true], 'closed while its folder was still there');
    assert.equal(done, true);
    assert.ok(!existsSync(wt.path), 'the folder is gone');
    assert.ok(!branchExists(repo, wt.branch), 'the branch is gone');
    assert.equal(api.worktrees.get(ID), undefined, 'the record is gone');
    assert.ok(!git(repo, 'worktree', 'list').includes(wt.path));
    // The session no longer runs in a worktree: the command says so and does nothing.
    assert.equal(await vscode.commands.executeCommand('tandem.worktree.review', ID), undefined);
  });
});

/** VS Code's git extension's API, as much as the Discard test watches. */
function gitApi() {
  type Repo = { rootUri: vscode.Uri };
  type Api = { repositories: readonly Repo[]; onDidCloseRepository: vscode.Event<Repo> };
  return vscode.extensions.getExtension<{ getAPI(v: 1): Api }>('vscode.git')!.exports.getAPI(1);
}
