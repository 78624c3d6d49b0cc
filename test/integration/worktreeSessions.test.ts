// Sessions in a git worktree of their own, in the real VS Code: "New Session in Worktree…" makes
// a branch and a folder outside the workspace and opens a session there; the agent's files and
// commands land in that folder, a write into the user's tree asks first, the tab names the branch,
// carried changes come along, and a restarted agent reopens the session in its folder.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { git, initRepo } from '../support/gitRepo';
import { activateTandem, removeGitRepos, wholeFolder, runAccepting, type TestedTandem, until } from './helpers';

suite('worktree sessions', () => {
  let api: TestedTandem;
  let ws: string;

  suiteSetup(async function () {
    this.timeout(60_000);
    const t = await activateTandem();
    api = t.api;
    ws = realpathSync(vscode.workspace.workspaceFolders![0].uri.fsPath);
    // The shared workspace becomes a repository for this suite only (suiteTeardown removes .git).
    initRepo(ws);
    const dir = mkdtempSync(join(tmpdir(), 'tandem-wt-agent-'));
    const file = join(dir, 'WtA.json');
    const userFile = join(ws, 'user-owned.txt');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'WtA',
        initialize: { agentCapabilities: { loadSession: true } },
        // Ids unique across restarts, as real agents' are.
        newSession: { sessionId: 'wt-${runtime.pid}-${n}' },
        prompts: [
          {
            match: 'work',
            steps: [
              {
                request: 'fs/write_text_file',
                params: { sessionId: '${sessionId}', path: 'wt-notes.txt', content: 'from the worktree' },
                as: 'w',
              },
              {
                terminal: {
                  command: '${runtime.node}',
                  args: ['-e', 'process.stdout.write(process.cwd())'],
                  env: '${runtime.nodeEnv}',
                },
                as: 't',
              },
              { stream: 'ran in [${t.output}]' },
              // Tandem's client tools are scoped to the worktree: a relative path is the worktree's file.
              { mcpCall: { server: 'tandem', tool: 'IDE', arguments: {} }, as: 'ide' },
              { mcpCall: { server: 'tandem', tool: 'OpenFile', arguments: { path: 'wt-notes.txt' } }, as: 'open' },
              { stream: ' opened: ${open.text}${open.error.message}' },
            ],
          },
          {
            match: 'outside',
            steps: [
              {
                request: 'fs/write_text_file',
                params: { sessionId: '${sessionId}', path: userFile, content: 'from the agent' },
                as: 'o',
              },
              { stream: 'outside: ${o.error.message}' },
            ],
          },
        ],
        defaultPrompt: { steps: [{ stream: 'ok' }] },
      }),
    );
    const js = join(t.extensionPath, 'out', 'test', 'fixtures', 'agents', 'scripted-agent.js');
    await vscode.workspace
      .getConfiguration('tandem')
      .update(
        'agents',
        [{ name: 'WtA', command: process.execPath, args: [js, file] }],
        vscode.ConfigurationTarget.Global,
      );
  });

  suiteTeardown(async function () {
    this.timeout(30_000);
    await api?.controller.stop();
    const worktrees = (api?.worktrees.all() ?? []).filter((x) => x.agentName === 'WtA');
    await removeGitRepos(ws, ...worktrees.map((r) => wholeFolder(r.worktree.path)));
    for (const r of worktrees) await api.worktrees.remove(r.sessionId);
    rmSync(join(ws, 'user-owned.txt'), { force: true });
  });

  const lastText = (sessionId: string): string => {
    const snap = api.controller.clientOf(sessionId)?.getSession(sessionId)?.snapshot();
    return JSON.stringify(snap?.turns[snap.turns.length - 1] ?? {});
  };

  test('a worktree session works in its own folder: files, commands, and a prompt before the user tree', async function () {
    this.timeout(60_000);
    const ctl = api.controller;
    const id = (await vscode.commands.executeCommand('tandem.newSessionInWorktree', {
      agentName: 'WtA',
      name: 'Fix the notes',
      carryChanges: false,
    })) as string | undefined;
    assert.ok(id, 'a session opened');
    const record = api.worktrees.get(id)!;
    assert.equal(record.worktree.branch, 'tandem/fix-the-notes');
    const wt = record.worktree.path;
    assert.ok(!wt.startsWith(ws + '/'), `the worktree ${wt} is outside the workspace`);
    assert.equal(git(wt, 'rev-parse', '--abbrev-ref', 'HEAD'), 'tandem/fix-the-notes');
    // The tab and the overview name the branch.
    assert.equal(ctl.sessionTabs().find((s) => s.sessionId === id)?.place, 'tandem/fix-the-notes');
    assert.match(api.overview.sessions().find((s) => s.sessionId === id)?.place ?? '', /tandem\/fix-the-notes/);

    await ctl.clientOf(id)!.prompt('work', id);
    assert.equal(readFileSync(join(wt, 'wt-notes.txt'), 'utf8'), 'from the worktree');
    assert.ok(!existsSync(join(ws, 'wt-notes.txt')), "nothing landed in the user's tree");
    assert.match(lastText(id), new RegExp(`ran in \\[${wt.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\]`));
    // Tandem's client tools are offered, scoped to the worktree: OpenFile of a relative path opens
    // the worktree's file and names it relative to the worktree.
    assert.match(lastText(id), /opened: Opened wt-notes\.txt \(1 lines\)/);
    assert.equal(
      realpathSync(vscode.window.activeTextEditor!.document.uri.fsPath),
      realpathSync(join(wt, 'wt-notes.txt')),
    );

    // A write into the user's own tree is outside the session's folder: it asks, and "Deny" holds.
    const turn = ctl.clientOf(id)!.prompt('outside', id);
    const broker = api.permissions.broker;
    await until(() => broker.pending().some((p) => p.sessionId === id), 10_000, 'the prompt for the user tree');
    const asked = broker.pending().find((p) => p.sessionId === id)!;
    assert.match(asked.view.toolCall.title ?? '', /outside the session's worktree/);
    broker.answer(asked.requestId, 'reject_once');
    await turn;
    assert.ok(!existsSync(join(ws, 'user-owned.txt')), 'the denied write did not happen');
    assert.match(lastText(id), /did not allow writing/);

    // Its checkpoints cover its folder: "Restore to here" takes the worktree back to before turn 1.
    const restored = (await runAccepting('tandem.restoreToPrompt', { sessionId: id, turn: 0 })) as
      { restored: string[]; skipped: unknown[]; failed: unknown[] } | undefined;
    assert.deepEqual([restored?.skipped, restored?.failed], [[], []], JSON.stringify(restored));
    assert.ok(!existsSync(join(wt, 'wt-notes.txt')), 'the file the session wrote is gone from its worktree');
  });

  test('carried changes come along, and the user keeps theirs', async function () {
    this.timeout(60_000);
    writeFileSync(join(ws, 'draft.md'), 'my uncommitted draft\n');
    try {
      const id = (await vscode.commands.executeCommand('tandem.newSessionInWorktree', {
        agentName: 'WtA',
        name: 'with my draft',
        carryChanges: true,
      })) as string;
      const wt = api.worktrees.get(id)!.worktree.path;
      assert.equal(readFileSync(join(wt, 'draft.md'), 'utf8'), 'my uncommitted draft\n');
      assert.equal(readFileSync(join(ws, 'draft.md'), 'utf8'), 'my uncommitted draft\n');
      assert.match(git(ws, 'status', '--porcelain'), /\?\? draft\.md/);
    } finally {
      rmSync(join(ws, 'draft.md'), { force: true });
    }
  });

  test('a restarted agent reopens its worktree sessions in their folders', async function () {
    this.timeout(60_000);
    const ctl = api.controller;
    const ids = api.worktrees
      .all()
      .filter((r) => r.agentName === 'WtA')
      .map((r) => r.sessionId);
    assert.ok(ids.length >= 2);
    await ctl.start('WtA');
    await ctl.restart();
    const reopened = () =>
      ids.every((id) =>
        ctl.sessionTabs().some((s) => s.sessionId === id && s.place === api.worktrees.get(id)?.worktree.branch),
      );
    await until(reopened, 15_000, 'every worktree session reopened with its branch').catch((err: Error) => {
      const state = { tabs: ctl.sessionTabs(), records: api.worktrees.all(), agent: ctl.agent };
      throw new Error(`${err.message}: ${JSON.stringify(state)}`);
    });
    // Reopened in its folder: a relative write still lands in the worktree.
    const id = ids[0];
    rmSync(join(api.worktrees.get(id)!.worktree.path, 'wt-notes.txt'), { force: true });
    await ctl.clientOf(id)!.prompt('work', id);
    assert.equal(readFileSync(join(api.worktrees.get(id)!.worktree.path, 'wt-notes.txt'), 'utf8'), 'from the worktree');
  });

  test('archiving keeps the work on the branch and removes the folder; restoring brings both back', async function () {
    this.timeout(60_000);
    const ctl = api.controller;
    const rec = api.worktrees.all().find((r) => r.agentName === 'WtA' && !r.archived)!;
    const { sessionId: id, worktree } = rec;
    writeFileSync(join(worktree.path, 'unsaved-work.txt'), 'not committed yet\n');
    await vscode.commands.executeCommand('tandem.worktree.archive', id);
    assert.ok(!existsSync(worktree.path), 'the folder is gone');
    assert.ok(!ctl.sessionTabs().some((t) => t.sessionId === id), 'the session is closed');
    assert.equal(
      git(ws, 'show', `${worktree.branch}:unsaved-work.txt`),
      'not committed yet',
      'the uncommitted work is committed on the branch',
    );
    const row = api.overview.sessions().find((s) => s.sessionId === id);
    assert.equal(row?.archived, true, 'the Sessions view lists it as archived');

    const back = (await vscode.commands.executeCommand('tandem.worktree.restore', id)) as string | undefined;
    assert.equal(back, id, 'the same session is reopened (session/load)');
    const again = api.worktrees.get(id)!;
    assert.equal(again.archived, undefined);
    assert.equal(readFileSync(join(again.worktree.path, 'unsaved-work.txt'), 'utf8'), 'not committed yet\n');
    assert.equal(ctl.sessionTabs().find((t) => t.sessionId === id)?.place, worktree.branch);
    assert.equal(ctl.current?.session?.sessionId, id, 'the restored session is shown');
  });

  test('tandem.worktree.agents makes New Session open a worktree session for that agent', async function () {
    this.timeout(60_000);
    const ctl = api.controller;
    const config = vscode.workspace.getConfiguration('tandem');
    await config.update('worktree.agents', ['WtA'], vscode.ConfigurationTarget.Global);
    try {
      await ctl.start('WtA');
      const before = new Set(api.worktrees.all().map((r) => r.sessionId));
      // The palette asks what the session is for; the view's "+" runs the same command.
      // (and, should the tree have changes, whether to carry them: the first answer, "Start from HEAD").
      const win = vscode.window as unknown as Record<string, unknown>;
      const [input, pick] = [win.showInputBox, win.showQuickPick];
      win.showInputBox = async () => 'from the plus button';
      win.showQuickPick = async (items: readonly unknown[]) => (await items)[0];
      try {
        await vscode.commands.executeCommand('tandem.newSession');
      } finally {
        [win.showInputBox, win.showQuickPick] = [input, pick];
      }
      const added = api.worktrees.all().find((r) => !before.has(r.sessionId));
      assert.ok(added, 'a worktree session was made');
      assert.equal(added.worktree.branch, 'tandem/from-the-plus-button');
      assert.equal(ctl.current?.session?.sessionId, added.sessionId, 'and shown');
    } finally {
      await config.update('worktree.agents', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
