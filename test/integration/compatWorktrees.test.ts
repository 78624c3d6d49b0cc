/// <reference types="mocha" />
// Many agents at once with real agents, through the real extension: claude-code-acp and
// claude-agent-acp (from npm, against fake Anthropic servers on 127.0.0.1) each open a session in
// a git worktree of their own and run their turns at the same time, editing the same file
// differently. The user's tree is unchanged until Apply; a permission prompt of the session not
// shown is listed under "Needs you" in the Sessions overview; applying one and then the other
// merges the first and leaves the second in conflict, which opens in the merge editor.
//
// Compat layer only (TANDEM_COMPAT=1, `node test/compat/run.mjs`): it needs the installed agents.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { fakeAnthropic, type FakeServer, type Step } from '../compat/fakeModels';
import {
  AGENT_NODE,
  CACHE,
  CLAUDE_AGENT_ACP,
  CLAUDE_CODE_ACP,
  claudeAgentEnv,
  claudeCodeEnv,
} from '../compat/agentPaths';
import { abandonApply } from '../../src/vscode/worktrees/worktreeApply';
import { git, initRepo } from '../support/gitRepo';
import { activateTandem, removeGitRepos, wholeFolder, type TestedTandem, until } from './helpers';

const home = () => realpathSync(mkdtempSync(join(tmpdir(), 'tandem-compat-home-')));

if (process.env.TANDEM_COMPAT === '1') {
  suite('compat: two real agents at once, each in its own worktree', function () {
    this.timeout(240_000);
    let api: TestedTandem;
    let ws: string;
    const models: FakeServer[] = [];

    suiteSetup(async function () {
      this.timeout(60_000);
      api = (await activateTandem()).api;
      ws = realpathSync(vscode.workspace.workspaceFolders![0].uri.fsPath);
      writeFileSync(join(ws, 'shared.txt'), 'line one\nline two\n');
      initRepo(ws);
    });

    suiteTeardown(async function () {
      this.timeout(60_000);
      await api?.controller.stop();
      while (models.length) await models.pop()!.close();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      const worktrees = api?.worktrees.all() ?? [];
      await removeGitRepos(ws, ...worktrees.map((r) => wholeFolder(r.worktree.path)));
      for (const r of worktrees) await api.worktrees.remove(r.sessionId);
      rmSync(join(ws, 'shared.txt'), { force: true });
      await vscode.workspace.getConfiguration('tandem').update('agents', undefined, vscode.ConfigurationTarget.Global);
    });

    test('claude-code-acp and claude-agent-acp edit one file in two worktrees at once; Apply merges one, then conflicts', async function () {
      if (!existsSync(CLAUDE_CODE_ACP) || !existsSync(CLAUDE_AGENT_ACP)) {
        console.log(`[compat] skipped: claude-code-acp or claude-agent-acp is not installed in ${CACHE}`);
        this.skip();
      }
      const { controller: ctl, permissions, overview } = api;
      // Each model's steps are filled in once its worktree is known (the fake reads them lazily).
      const stepsA: Step[] = [];
      const stepsB: Step[] = [];
      models.push(await fakeAnthropic(stepsA), await fakeAnthropic(stepsB));
      const [mA, mB] = models;
      await vscode.workspace.getConfiguration('tandem').update(
        'agents',
        [
          { name: 'Claude Code', command: process.execPath, args: [CLAUDE_CODE_ACP], env: claudeCodeEnv(mA, home()) },
          {
            name: 'Claude Agent',
            command: AGENT_NODE || process.execPath,
            args: [CLAUDE_AGENT_ACP],
            env: claudeAgentEnv(mB, home()),
          },
        ],
        vscode.ConfigurationTarget.Global,
      );
      const open = async (agentName: string, name: string) => {
        const id = (await vscode.commands.executeCommand('tandem.newSessionInWorktree', {
          agentName,
          name,
          carryChanges: false,
        })) as string | undefined;
        assert.ok(id, `${agentName} opened a session in a worktree: ${ctl.agent.message ?? ''}`);
        return { id, wt: api.worktrees.get(id)!.worktree.path, client: ctl.clientOf(id)! };
      };
      const a = await open('Claude Code', 'code edit');
      const b = await open('Claude Agent', 'agent edit');
      assert.notEqual(a.client, b.client, 'two agent processes');
      // Both turns take a while on the model side, so they overlap.
      stepsA.push(
        { tool: 'mcp__acp__Read', input: { file_path: join(a.wt, 'shared.txt') }, delayMs: 1500 },
        {
          tool: 'mcp__acp__Edit',
          input: {
            file_path: join(a.wt, 'shared.txt'),
            old_string: 'line two',
            new_string: 'line two, by Claude Code',
          },
        },
        { text: 'Claude Code is done.' },
      );
      stepsB.push(
        {
          tool: 'Edit',
          input: {
            file_path: join(b.wt, 'shared.txt'),
            old_string: 'line two',
            new_string: 'line two, by Claude Agent',
          },
          delayMs: 1500,
        },
        { text: 'Claude Agent is done.' },
      );

      // The user answers each prompt; one of the session not shown must first be listed as needing them.
      let backgroundWaitingSeen = false;
      const sub = permissions.broker.onDidChange((ch) => {
        if (ch.type !== 'added') return;
        const { requestId, sessionId, view } = ch.pending;
        const shown = ctl.current?.session?.sessionId;
        if (sessionId !== shown) {
          const row = overview.sessions().find((s) => s.sessionId === sessionId);
          if (row?.waiting) backgroundWaitingSeen = true;
        }
        const allow =
          view.options.find((o) => o.kind === 'allow_once') ?? view.options.find((o) => o.kind.startsWith('allow'));
        setTimeout(() => allow && permissions.broker.answer(requestId, allow.optionId), 100);
      });
      try {
        const turns = [a.client.prompt('Edit shared.txt', a.id), b.client.prompt('Edit shared.txt', b.id)];
        const working = (id: string, c: typeof a.client) => c.getSession(id)?.state.meta.status === 'working';
        await until(() => working(a.id, a.client) && working(b.id, b.client), 15_000, 'both turns running at once');
        await Promise.all(turns);
      } finally {
        sub.dispose();
      }
      for (const [m, s] of [
        [mA, a],
        [mB, b],
      ] as const) {
        const last = s.client.getSession(s.id)!.snapshot().turns.at(-1)!;
        assert.equal(last.error, undefined, `turn failed: ${last.error}; unknown model paths: ${m.unknown.join(', ')}`);
      }
      assert.equal(readFileSync(join(a.wt, 'shared.txt'), 'utf8'), 'line one\nline two, by Claude Code\n');
      assert.equal(readFileSync(join(b.wt, 'shared.txt'), 'utf8'), 'line one\nline two, by Claude Agent\n');
      assert.equal(
        readFileSync(join(ws, 'shared.txt'), 'utf8'),
        'line one\nline two\n',
        "the user's tree is unchanged",
      );
      assert.equal(git(ws, 'status', '--porcelain'), '', "nothing changed in the user's tree");
      assert.ok(backgroundWaitingSeen, "a prompt of the session not shown was listed under 'Needs you' first");

      await vscode.commands.executeCommand('tandem.worktree.apply', a.id, 'merge');
      assert.equal(readFileSync(join(ws, 'shared.txt'), 'utf8'), 'line one\nline two, by Claude Code\n');
      await vscode.commands.executeCommand('tandem.worktree.apply', b.id, 'merge');
      const merged = readFileSync(join(ws, 'shared.txt'), 'utf8');
      assert.match(merged, /<<<<<<<[\s\S]*by Claude Code[\s\S]*=======[\s\S]*by Claude Agent[\s\S]*>>>>>>>/);
      await until(
        () => vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => /shared\.txt/.test(t.label))),
        15_000,
        'the conflicted file open (the merge editor)',
      );
      const tabs = vscode.window.tabGroups.all.flatMap((g) =>
        g.tabs.map((t) => `${t.label}:${t.input?.constructor.name}`),
      );
      console.log(`[compat] tabs after the conflicting apply: ${JSON.stringify(tabs)}`);
      // Abort as the user would from the conflict message: the merge editor's unsaved result goes too.
      await abandonApply(ws, [vscode.Uri.file(join(ws, 'shared.txt'))]);
      assert.equal(readFileSync(join(ws, 'shared.txt'), 'utf8'), 'line one\nline two, by Claude Code\n');

      // A restarted agent brings its worktree session back in its folder (session/load).
      for (const s of [a, b]) {
        const name = api.worktrees.get(s.id)!.agentName;
        ctl.switchTo(s.id, name);
        await ctl.restart();
        const client = ctl.agents().find((x) => x.name === name)!.client;
        if (!client.canReopen()) {
          console.log(`[compat] ${name} cannot reopen sessions: its worktree session stays closed`);
          continue;
        }
        const branch = api.worktrees.get(s.id)!.worktree.branch;
        await until(
          () => ctl.sessionTabs().some((t) => t.sessionId === s.id && t.place === branch),
          60_000,
          `${name}'s worktree session reopened on ${branch}`,
        );
      }
    });
  });
}
