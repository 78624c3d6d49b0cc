/// <reference types="mocha" />
// The review loop with a real agent, through the real extension: claude-agent-acp 0.101.0 (it
// writes files itself: Tandem learns of its changes from its diffs and snapshots) changes two
// files; two review comments on them go out with Send Feedback as one prompt, which the model
// receives whole (files, lines, quoted code); the agent's next edit makes one comment outdated;
// the comments come back as after a reload; a file marked reviewed loses its mark when the agent
// changes it again. Then, in a git repository, Commit Kept Changes of two of the three files the
// agent wrote makes a commit of exactly those two.
//
// Compat layer only (TANDEM_COMPAT=1, `node test/compat/run.mjs`): it needs the installed agent.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { fakeAnthropic, type FakeServer, type Step } from '../compat/fakeModels';
import { AGENT_NODE, CACHE, CLAUDE_AGENT_ACP_101, claudeAgentEnv } from '../compat/agentPaths';
import { git, initRepo } from '../support/gitRepo';
import { activateTandem, removeGitRepos, type TestedTandem, until } from './helpers';

const A_BEFORE = 'export function add(a: number, b: number) {\n  return a + b;\n}\n';
const A_CHANGED = 'export function add(a: number, b: number) {\n  const sum = a + b;\n  return sum;\n}\n';
const B_BEFORE = 'def load(path):\n    pass\n';
const B_CHANGED = 'def load(path):\n    return None\n';

/** claude-agent-acp 0.101.0 against `model`, with a home of its own. */
const agentEntry = (model: FakeServer) => ({
  name: 'Claude Agent',
  command: AGENT_NODE,
  args: [CLAUDE_AGENT_ACP_101],
  env: claudeAgentEnv(model, realpathSync(mkdtempSync(join(tmpdir(), 'tandem-compat-home-')))),
});

if (process.env.TANDEM_COMPAT === '1') {
  suite('compat: the review loop with claude-agent-acp', function () {
    this.timeout(240_000);
    let api: TestedTandem;
    let dir: string;
    let model: FakeServer | undefined;
    let unsub: { dispose(): void } | undefined;

    suiteSetup(async function () {
      this.timeout(60_000);
      api = (await activateTandem()).api;
      dir = join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'compat', 'review-loop');
      mkdirSync(dir, { recursive: true });
      // The user allows each tool call the agent asks about, as a click in the view would.
      unsub = api.permissions.broker.onDidChange((ch) => {
        if (ch.type !== 'added') return;
        const allow = ch.pending.view.options.find((o) => o.kind.startsWith('allow'));
        setTimeout(() => allow && api.permissions.broker.answer(ch.pending.requestId, allow.optionId), 50);
      });
    });

    suiteTeardown(async () => {
      unsub?.dispose();
      await api?.controller.stop();
      await model?.close();
      await vscode.workspace.getConfiguration('tandem').update('agents', undefined, vscode.ConfigurationTarget.Global);
    });

    test('two comments become one prompt the model receives whole; its next edit outdates one; marks clear', async function () {
      if (!existsSync(CLAUDE_AGENT_ACP_101) || !AGENT_NODE) {
        console.log(`[compat] skipped: claude-agent-acp 0.101.0 (with Node ≥ 22) is not installed in ${CACHE}`);
        this.skip();
      }
      const a = join(dir, 'a.ts');
      const b = join(dir, 'b.py');
      writeFileSync(a, A_BEFORE);
      writeFileSync(b, B_BEFORE);
      const steps: Step[] = [
        // Turn 1: the agent changes both files.
        { tool: 'Write', input: { file_path: a, content: A_CHANGED } },
        { tool: 'Write', input: { file_path: b, content: B_CHANGED } },
        { text: 'CHANGED-BOTH' },
        // Turn 2 (the feedback): it inlines the sum, the lines of the first comment.
        {
          tool: 'Edit',
          input: { file_path: a, old_string: '  const sum = a + b;\n  return sum;\n', new_string: '  return a + b;\n' },
        },
        { text: 'FEEDBACK-DONE' },
      ];
      model = await fakeAnthropic(steps);
      await vscode.workspace
        .getConfiguration('tandem')
        .update('agents', [agentEntry(model)], vscode.ConfigurationTarget.Global);
      const ctl = api.controller;
      await ctl.start('Claude Agent');
      assert.equal(ctl.agent.state, 'ready', ctl.agent.message);
      await ctl.current!.prompt('Change add and load');
      const sid = ctl.current!.session!.sessionId;
      await until(
        () => api.changes.tracker.allTurns(sid).flatMap((t) => t.files).length === 2,
        20_000,
        "both of the agent's changes known to Tandem",
      );

      const feedback = api.feedback;
      const docA = await vscode.workspace.openTextDocument(vscode.Uri.file(a));
      const docB = await vscode.workspace.openTextDocument(vscode.Uri.file(b));
      const one = await feedback.review.addComment(docA.uri, new vscode.Range(1, 0, 2, 13), 'Inline the sum.');
      const two = await feedback.review.addComment(docB.uri, new vscode.Range(1, 0, 1, 0), 'Raise instead.');
      assert.ok(one && two, 'comments offered on the files the agent changed');
      // Marked reviewed before the feedback: b.py stays untouched by the next turn, a.ts does not.
      await api.changes.reviewed.set(sid, a, true);
      await api.changes.reviewed.set(sid, b, true);

      const before = model.requests.length;
      assert.equal(await vscode.commands.executeCommand('tandem.sendFeedback', sid), 'sent');
      const sent = model.requests.slice(before).map((r) => JSON.stringify(r));
      const withFeedback = sent.find((r) => r.includes('Review comments on your changes (2 comments)'));
      assert.ok(withFeedback, `the model got the feedback prompt: ${sent.map((r) => r.slice(0, 300)).join('\n')}`);
      // JSON-escaped inside the request body: newlines are \n, quotes \".
      for (const part of [
        'Comment 1 of 2: compat/review-loop/a.ts L2–L3',
        '  const sum = a + b;\\n  return sum;',
        'Inline the sum.',
        'Comment 2 of 2: compat/review-loop/b.py L2',
        '    return None',
        'Raise instead.',
      ])
        assert.ok(withFeedback.includes(part), `the prompt holds ${part}`);

      await until(() => feedback.store.get(one.id)?.status === 'outdated', 20_000, 'the first comment outdated');
      assert.equal(feedback.store.get(two.id)?.status, 'sent', 'the other comment still holds');
      await api.changes.reviewed.whenSettled();
      assert.equal(api.changes.reviewed.isReviewed(sid, a), false, 'a.ts changed again: to review again');
      assert.equal(api.changes.reviewed.isReviewed(sid, b), true, 'b.py untouched: still reviewed');

      // As after a window reload: both come back from the workspace state.
      feedback.reload();
      assert.equal(feedback.store.get(one.id)?.status, 'outdated');
      assert.equal(feedback.store.get(two.id)?.status, 'sent');
      feedback.store.remove(one.id);
      feedback.store.remove(two.id);
    });
    test('Commit Kept Changes of two files out of three the agent wrote: the commit holds exactly those', async function () {
      if (!existsSync(CLAUDE_AGENT_ACP_101) || !AGENT_NODE) this.skip();
      const ws = realpathSync(vscode.workspace.workspaceFolders![0].uri.fsPath);
      const names = ['rl-a.txt', 'rl-b.txt', 'rl-c.txt'];
      for (const n of names) writeFileSync(join(ws, n), `${n}\n`);
      // The shared workspace is a repository for this test only (removed at its end).
      initRepo(ws);
      try {
        await api.controller.stop();
        await model?.close();
        model = await fakeAnthropic([
          ...names.map((n): Step => ({
            tool: 'Write',
            input: { file_path: join(ws, n), content: `${n} by the agent\n` },
          })),
          { text: 'WROTE-THREE' },
        ]);
        await vscode.workspace
          .getConfiguration('tandem')
          .update('agents', [agentEntry(model)], vscode.ConfigurationTarget.Global);
        const ctl = api.controller;
        await ctl.start('Claude Agent');
        await ctl.current!.prompt('Write the three files');
        const sid = ctl.current!.session!.sessionId;
        await until(
          () => api.changes.tracker.allTurns(sid).flatMap((t) => t.files).length === 3,
          20_000,
          "the agent's three changes known to Tandem",
        );
        const turn = ctl.current!.session!.state.turns.length - 1;
        await api.changes.changes.act(turn, 'keep', join(ws, 'rl-a.txt'));
        await api.changes.changes.act(turn, 'keep', join(ws, 'rl-b.txt'));
        const r = await vscode.commands.executeCommand<{ sha: string } | undefined>('tandem.commitKeptChanges', {
          sessionId: sid,
          files: [join(ws, 'rl-a.txt'), join(ws, 'rl-b.txt')],
          message: 'Keep a and b',
        });
        assert.ok(r, 'committed');
        assert.deepEqual(git(ws, 'show', '--name-only', '--format=', 'HEAD').split('\n').filter(Boolean), [
          'rl-a.txt',
          'rl-b.txt',
        ]);
        assert.deepEqual(
          git(ws, 'diff', '--name-only').split('\n').filter(Boolean),
          ['rl-c.txt'],
          'the third stays modified',
        );
      } finally {
        await api.controller.stop();
        await removeGitRepos(ws);
        for (const n of names) rmSync(join(ws, n), { force: true });
      }
    });
  });
}
