// "Ask Several Agents" in the real VS Code, on a real git repository: one prompt goes to two
// scripted agents, each in a worktree session of its own; the comparison panel shows each one's
// file with its +/− and its final message; "Run Tests" runs the workspace's test task in each
// worktree (it passes only where A's file is); "Apply This One" brings A's work into the user's
// tree and discards B's worktree. The tests run in order: each starts where the one before left.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { renderComparison } from '../../src/shared/comparisonHtml';
import type { ComparisonPanel } from '../../src/vscode/worktrees/comparisonPanel';
import { git, initRepo } from '../support/gitRepo';
import { activateTandem, removeGitRepos, wholeFolder, type TestedTandem, until } from './helpers';

/** A scripted agent whose prompt writes `file` (relative: into its session's folder) and ends with `final`. */
function agentScript(name: string, file: string, final: string) {
  return {
    name,
    initialize: { agentCapabilities: { loadSession: true } },
    // Ids unique across runs and restarts, as real agents' are.
    newSession: { sessionId: `${name.toLowerCase()}-\${runtime.pid}-\${n}` },
    prompts: [
      {
        match: 'greeting',
        steps: [
          {
            request: 'fs/write_text_file',
            params: { sessionId: '${sessionId}', path: file, content: `from ${name}\n` },
            as: 'w',
          },
          { stream: final, chunk: 7 },
        ],
      },
    ],
    defaultPrompt: { steps: [{ stream: 'ok' }] },
  };
}

suite('Ask Several Agents', () => {
  let api: TestedTandem;
  let ws: string;
  let tasksJson: string;
  let tasksBefore: string;
  let comparisonId: string;
  let panel: ComparisonPanel;
  let ids: { a: string; b: string };

  suiteSetup(async function () {
    this.timeout(60_000);
    const t = await activateTandem();
    api = t.api;
    ws = realpathSync(vscode.workspace.workspaceFolders![0].uri.fsPath);
    // The workspace's test task: passes where A's file is, fails elsewhere. Added beside the
    // fixture's own task, which suiteTeardown puts back as it was.
    tasksJson = join(ws, '.vscode', 'tasks.json');
    tasksBefore = readFileSync(tasksJson, 'utf8');
    const tasks = JSON.parse(tasksBefore) as { tasks: unknown[] };
    tasks.tasks.push({
      label: 'ask: check',
      type: 'process',
      command: process.execPath,
      args: ['-e', "process.exit(require('fs').existsSync('ask-a.txt') ? 0 : 1)"],
      group: { kind: 'test', isDefault: true },
      problemMatcher: [],
      presentation: { reveal: 'never', panel: 'dedicated' },
    });
    writeFileSync(tasksJson, JSON.stringify(tasks, null, 2));
    // The shared workspace becomes a repository for this suite only (suiteTeardown removes .git).
    initRepo(ws);
    const dir = mkdtempSync(join(tmpdir(), 'tandem-ask-agents-'));
    const agentJs = join(t.extensionPath, 'out', 'test', 'fixtures', 'agents', 'scripted-agent.js');
    const agents = [
      agentScript('AskA', 'ask-a.txt', 'A is done.\nIt wrote ask-a.txt <and> nothing else.'),
      agentScript('AskB', 'ask-b.txt', 'B is done: ask-b.txt.'),
    ].map((script) => {
      const file = join(dir, `${script.name}.json`);
      writeFileSync(file, JSON.stringify(script));
      return { name: script.name, command: process.execPath, args: [agentJs, file] };
    });
    await vscode.workspace.getConfiguration('tandem').update('agents', agents, vscode.ConfigurationTarget.Global);
  });

  suiteTeardown(async function () {
    this.timeout(30_000);
    panel?.panel.dispose();
    await api?.controller.stop();
    const worktrees = (api?.worktrees.all() ?? []).filter((x) => x.agentName.startsWith('Ask'));
    await removeGitRepos(ws, ...worktrees.map((r) => wholeFolder(r.worktree.path)));
    for (const r of worktrees) await api.worktrees.remove(r.sessionId);
    if (comparisonId) await api.askSeveral.comparisons.remove(comparisonId);
    rmSync(join(ws, 'ask-a.txt'), { force: true });
    if (tasksBefore !== undefined) writeFileSync(tasksJson, tasksBefore);
  });

  test('one prompt to two agents, each in its own worktree; the comparison shows their files and final messages', async function () {
    this.timeout(90_000);
    const id = await vscode.commands.executeCommand<string | undefined>('tandem.askSeveralAgents', {
      agents: ['AskA', 'AskB'],
      prompt: 'Write a greeting file',
    });
    assert.ok(id, 'a comparison opened');
    comparisonId = id;
    const record = api.askSeveral.comparisons.get(id)!;
    assert.equal(record.prompt, 'Write a greeting file');
    assert.deepEqual(
      record.sessions.map((s) => s.agentName),
      ['AskA', 'AskB'],
    );
    ids = { a: record.sessions[0].sessionId, b: record.sessions[1].sessionId };
    const a = api.worktrees.get(ids.a)!;
    const b = api.worktrees.get(ids.b)!;
    assert.equal(a.worktree.branch, 'tandem/write-a-greeting-file-aska');
    assert.equal(b.worktree.branch, 'tandem/write-a-greeting-file-askb');
    panel = api.askSeveral.panel(id)!;
    assert.ok(panel, 'its panel is open');
    assert.equal(panel.panel.title, 'Compare: Write a greeting file');

    const done = () =>
      !!panel.rendered?.columns.every((c) => c.status === 'done' && c.files?.length === 1 && c.message);
    await until(done, 60_000, 'both agents done, with their files, in the comparison').catch((err: Error) => {
      throw new Error(`${err.message}: ${JSON.stringify(panel.rendered)}`);
    });
    assert.equal(readFileSync(join(a.worktree.path, 'ask-a.txt'), 'utf8'), 'from AskA\n');
    assert.equal(readFileSync(join(b.worktree.path, 'ask-b.txt'), 'utf8'), 'from AskB\n');
    assert.ok(!existsSync(join(ws, 'ask-a.txt')) && !existsSync(join(ws, 'ask-b.txt')), "the user's tree is untouched");
    const [ca, cb] = panel.rendered!.columns;
    assert.deepEqual(
      [ca.agentName, ca.branch, ca.files, ca.added, ca.removed],
      ['AskA', a.worktree.branch, [{ path: 'ask-a.txt', status: 'added', added: 1, removed: 0 }], 1, 0],
    );
    assert.equal(ca.message, 'A is done.\nIt wrote ask-a.txt <and> nothing else.');
    assert.deepEqual([cb.agentName, cb.files?.[0].path, cb.message], ['AskB', 'ask-b.txt', 'B is done: ask-b.txt.']);
    assert.ok(ca.can.apply && cb.can.apply);
    // What the page gets: the message as escaped text with its newline.
    const html = renderComparison(panel.rendered!).columns[0].html;
    assert.ok(html.includes('A is done.\nIt wrote ask-a.txt &lt;and&gt; nothing else.'), html);
  });

  test("Run Tests runs the workspace's test task in each worktree and shows whether it passed", async function () {
    this.timeout(60_000);
    // tasks.json changed in this suite's setup: wait until VS Code has read it again.
    await until(
      async () => (await vscode.tasks.fetchTasks()).some((t) => t.name === 'ask: check'),
      15_000,
      'the test task in tasks.json',
    );
    await panel.handle({ type: 'runTests', sessionId: ids.a });
    await panel.handle({ type: 'runTests', sessionId: ids.b });
    const [ca, cb] = panel.model().columns;
    assert.deepEqual(ca.tests, { state: 'passed', task: 'ask: check', exitCode: 0 });
    assert.deepEqual(cb.tests, { state: 'failed', task: 'ask: check', exitCode: 1 });
  });

  test("Apply This One brings A's work into the user's tree and, confirmed, discards B's worktree", async function () {
    this.timeout(60_000);
    const b = api.worktrees.get(ids.b)!.worktree;
    const outcome = await panel.handle(
      { type: 'apply', sessionId: ids.a },
      { mode: 'uncommitted', discardOthers: true },
    );
    assert.equal(outcome?.result?.applied, true, outcome?.result?.message);
    assert.deepEqual(outcome?.discarded, [ids.b]);
    assert.equal(readFileSync(join(ws, 'ask-a.txt'), 'utf8'), 'from AskA\n');
    assert.ok(!existsSync(join(ws, 'ask-b.txt')), "B's work did not come");
    assert.ok(!existsSync(b.path), "B's worktree folder is gone");
    assert.equal(api.worktrees.get(ids.b), undefined);
    assert.equal(git(ws, 'branch', '--list', b.branch), '', "B's branch is gone");
    assert.ok(api.worktrees.get(ids.a), "A's worktree stays");
    assert.equal(api.askSeveral.comparisons.get(comparisonId)?.appliedId, ids.a);
    await until(
      () => panel.rendered?.appliedAgent === 'AskA' && panel.rendered.columns[1].status === 'discarded',
      10_000,
      'the panel showing A applied and B discarded',
    );
    assert.ok(panel.rendered!.columns[0].applied);
    assert.equal(
      panel.rendered!.columns[1].message,
      'B is done: ask-b.txt.',
      'a discarded column still says what B did',
    );
  });
});
