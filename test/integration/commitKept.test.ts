// "Commit Kept Changes…" in the real VS Code, through its git extension: a scripted agent changes
// files of the workspace (made a git repository for this suite only); committing two of its three
// files makes a commit of exactly those two while the third stays modified; one hunk of a file
// with two is committed alone; what the user had staged is not taken unless they say so; the
// commit shows in the session; a worktree session commits on its branch.
import * as assert from 'node:assert/strict';
import { readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Controller } from '../../src/vscode/agent/controller';
import type { CommitKeptResult } from '../../src/vscode/commit/registerCommitKept';
import { git, initRepo } from '../support/gitRepo';
import {
  activateTandem,
  removeGitRepos,
  wholeFolder,
  configureScriptedAgent,
  runAccepting,
  type TestedTandem,
} from './helpers';

const TEN = Array.from({ length: 10 }, (_, i) => `line ${i + 1}\n`).join('');
const TWO_HUNKS = TEN.replace('line 2\n', 'line two\n').replace('line 9\n', 'line nine\n');
const FILES = ['ck-a.txt', 'ck-b.txt', 'ck-c.txt', 'ck-two.txt', 'ck-user.txt'];

suite('commit kept changes', () => {
  let api: TestedTandem;
  let ctl: Controller;
  let ws: string;
  const at = (name: string) => join(ws, name);
  const sid = () => ctl.current!.session!.sessionId;
  const commit = (args: object) =>
    vscode.commands.executeCommand<CommitKeptResult | undefined>('tandem.commitKeptChanges', args);
  const committedFiles = () => git(ws, 'show', '--name-only', '--format=', 'HEAD').split('\n').filter(Boolean);
  /** The suite's files with unstaged and with staged changes. */
  const changed = () => ({
    unstaged: git(ws, 'diff', '--name-only')
      .split('\n')
      .filter((f) => f.startsWith('ck-')),
    staged: git(ws, 'diff', '--cached', '--name-only')
      .split('\n')
      .filter((f) => f.startsWith('ck-')),
  });

  suiteSetup(async function () {
    this.timeout(60_000);
    const t = await activateTandem();
    api = t.api;
    ctl = api.controller;
    ws = realpathSync(vscode.workspace.workspaceFolders![0].uri.fsPath);
    for (const f of FILES) writeFileSync(at(f), f === 'ck-two.txt' ? TEN : `${f}\n`);
    // The shared workspace becomes a repository for this suite only (suiteTeardown removes .git).
    initRepo(ws);
    const write = (path: string, content: string) => ({
      request: 'fs/write_text_file',
      params: { sessionId: '${sessionId}', path, content },
    });
    await configureScriptedAgent(t.extensionPath, 'CommitKept', {
      name: 'commit-kept',
      newSession: { sessionId: 'commit-kept-${runtime.pid}-${n}' },
      prompts: [
        {
          match: 'three',
          steps: [
            write(at('ck-a.txt'), 'a by the agent\n'),
            write(at('ck-b.txt'), 'b by the agent\n'),
            write(at('ck-c.txt'), 'c by the agent\n'),
            { stream: 'Done.' },
          ],
        },
        // "Ask the Agent to Summarize Its Changes" (changes/sessionSummaries.ts).
        { match: 'summarize the changes', steps: [{ stream: 'Changed a, b and c.' }] },
        { match: 'hunks', steps: [write(at('ck-two.txt'), TWO_HUNKS)] },
        { match: 'in the worktree', steps: [write('ck-wt.txt', 'from the worktree\n')] },
      ],
    });
    await ctl.start('CommitKept');
    assert.equal(ctl.agent.state, 'ready', ctl.agent.message);
  });

  suiteTeardown(async function () {
    this.timeout(30_000);
    await ctl?.stop();
    const worktrees = (api?.worktrees.all() ?? []).filter((x) => x.agentName === 'CommitKept');
    await removeGitRepos(ws, ...worktrees.map((r) => wholeFolder(r.worktree.path)));
    for (const r of worktrees) await api.worktrees.remove(r.sessionId);
    for (const f of FILES) rmSync(at(f), { force: true });
  });

  test('committing two kept files of three: the commit holds exactly those two, the third stays modified', async function () {
    this.timeout(30_000);
    await ctl.current!.prompt('three');
    const turn = ctl.current!.session!.state.turns.length - 1;
    await api.changes.changes.act(turn, 'keep', at('ck-a.txt'));
    await api.changes.changes.act(turn, 'keep', at('ck-b.txt'));
    const head = git(ws, 'rev-parse', 'HEAD');

    const r = await commit({ sessionId: sid(), files: [at('ck-a.txt'), at('ck-b.txt')], message: 'Two of three' });
    assert.ok(r, 'committed');
    assert.equal(git(ws, 'rev-parse', 'HEAD'), r.sha);
    assert.equal(git(ws, 'rev-parse', 'HEAD~1'), head);
    assert.deepEqual(committedFiles(), ['ck-a.txt', 'ck-b.txt']);
    assert.equal(git(ws, 'log', '-1', '--format=%B'), 'Two of three');
    assert.deepEqual(changed(), { unstaged: ['ck-c.txt'], staged: [] });
    assert.equal(readFileSync(at('ck-c.txt'), 'utf8'), 'c by the agent\n');
    // Recorded on the session and shown in it.
    const notices = ctl.current!.session!.state.notices.toArray();
    assert.ok(
      notices.some(
        (n) => n.title === `Committed ${r.sha.slice(0, 7)} — Two of three` && n.description === 'ck-a.txt, ck-b.txt',
      ),
      JSON.stringify(notices),
    );
  });

  test('what the user had staged stays staged and out of the commit when they stop', async function () {
    this.timeout(30_000);
    writeFileSync(at('ck-user.txt'), 'staged by the user\n');
    git(ws, 'add', 'ck-user.txt');
    try {
      const head = git(ws, 'rev-parse', 'HEAD');
      const r = await commit({ sessionId: sid(), files: [at('ck-c.txt')], message: 'c', staged: 'stop' });
      assert.equal(r, undefined);
      assert.equal(git(ws, 'rev-parse', 'HEAD'), head, 'nothing was committed');
      assert.deepEqual(changed(), { unstaged: ['ck-c.txt'], staged: ['ck-user.txt'] });
    } finally {
      git(ws, 'reset', '-q', '--', 'ck-user.txt');
      git(ws, 'checkout', '--', 'ck-user.txt');
    }
  });

  test('the proposed choice and message, accepted as they are: the remaining file, the prompt and the summary', async function () {
    this.timeout(30_000);
    await vscode.commands.executeCommand('tandem.summarizeChanges');
    const r = (await runAccepting('tandem.commitKeptChanges')) as CommitKeptResult | undefined;
    assert.ok(r, 'committed');
    assert.deepEqual(committedFiles(), ['ck-c.txt']);
    // Committed whole, the pending file counts as kept now.
    const entry = api.changes.tracker
      .allTurns(sid())
      .flatMap((t) => t.files)
      .find((c) => c.path === at('ck-c.txt'));
    assert.equal(entry?.state, 'kept');
    // The subject is the session's first prompt, the body its summary (the request for it is no reason).
    assert.equal(git(ws, 'log', '-1', '--format=%B'), 'three\n\nChanged a, b and c.');
    assert.deepEqual(changed(), { unstaged: [], staged: [] });
  });

  test('one hunk of a file with two: the commit has that hunk only, the other stays in the working tree', async function () {
    this.timeout(30_000);
    await ctl.current!.prompt('hunks');
    const r = await commit({
      sessionId: sid(),
      files: [{ path: at('ck-two.txt'), hunks: [1] }],
      message: 'Ninth line',
    });
    assert.ok(r, 'committed');
    assert.deepEqual(r.files, ['ck-two.txt (1 of 2 changes)']);
    assert.equal(git(ws, 'show', 'HEAD:ck-two.txt'), TEN.replace('line 9\n', 'line nine\n').trimEnd());
    assert.equal(readFileSync(at('ck-two.txt'), 'utf8'), TWO_HUNKS);
    assert.equal(git(ws, 'diff', '--cached', '--name-only'), '', 'nothing is left staged');
    assert.match(git(ws, 'diff', '--', 'ck-two.txt'), /^-line 2\n\+line two$/m);
    assert.doesNotMatch(git(ws, 'diff', '--', 'ck-two.txt'), /line nine/);
  });

  test('what the user had staged goes into the commit when they say to include it', async function () {
    this.timeout(30_000);
    writeFileSync(at('ck-user.txt'), 'staged by the user\n');
    git(ws, 'add', 'ck-user.txt');
    const r = await commit({ sessionId: sid(), files: [at('ck-two.txt')], message: 'With mine', staged: 'include' });
    assert.ok(r, 'committed');
    assert.deepEqual(committedFiles(), ['ck-two.txt', 'ck-user.txt']);
    assert.deepEqual(changed(), { unstaged: [], staged: [] });
  });

  test("a worktree session's commit is made in its worktree, on its branch", async function () {
    this.timeout(60_000);
    const head = git(ws, 'rev-parse', 'HEAD');
    const id = await vscode.commands.executeCommand<string>('tandem.newSessionInWorktree', {
      agentName: 'CommitKept',
      name: 'commit kept wt',
      carryChanges: false,
    });
    assert.ok(id, 'a worktree session opened');
    const wt = api.worktrees.get(id)!.worktree;
    await ctl.clientOf(id)!.prompt('in the worktree', id);
    const r = await commit({ sessionId: id, files: [join(wt.path, 'ck-wt.txt')], message: 'From the worktree' });
    assert.ok(r, 'committed');
    assert.equal(git(wt.path, 'rev-parse', wt.branch), r.sha);
    assert.equal(git(wt.path, 'show', '--name-only', '--format=', r.sha), 'ck-wt.txt');
    assert.equal(git(ws, 'rev-parse', 'HEAD'), head, "the user's branch did not move");
  });
});
