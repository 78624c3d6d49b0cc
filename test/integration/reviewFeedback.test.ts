// Review comments on the agent's changes that become the next prompt, in the real VS Code: two
// comments on two files the agent changed, "Send Feedback" sends one prompt holding both (file,
// lines, quoted code), the agent's next edit makes one outdated with the new text, and the
// comments come back from workspaceState when the feature is built again (as after a reload).
// Sent while the session's turn runs, the feedback waits in the queue for the turn's end.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { FeedbackComment } from '../../src/review/feedbackComments';
import type { Controller } from '../../src/vscode/agent/controller';
import type { Feedback } from '../../src/vscode/review/registerFeedback';
import { activateTandem, configureScriptedAgent, type TestedTandem, until } from './helpers';

const A_CHANGED = [
  'export function add(a: number, b: number) {',
  '  const sum = a + b;',
  '  return sum;',
  '}',
  'export const label = `sum: ${add(1, 2)}`;',
  '',
].join('\n');
const A_AFTER_FEEDBACK = A_CHANGED.replace('  const sum = a + b;\n  return sum;\n', '  return a + b;\n');
const B_CHANGED = 'def load(path):\n    return None\n';

suite('review feedback (comments that become the next prompt)', () => {
  let api: TestedTandem;
  let ctl: Controller;
  let feedback: Feedback;
  let dir: string;
  const file = (name: string) => join(dir, name);
  const received = () => (existsSync(file('received.txt')) ? readFileSync(file('received.txt'), 'utf8') : '');

  suiteSetup(async function () {
    this.timeout(60_000);
    const t = await activateTandem();
    api = t.api;
    ({ controller: ctl, feedback } = api);
    dir = join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'feedback');
    mkdirSync(dir, { recursive: true });
    writeFileSync(file('a.ts'), 'export const a = 1;\n');
    writeFileSync(file('b.py'), 'pass\n');
    writeFileSync(file('untouched.txt'), 'the agent never writes this\n');
    const s = '${sessionId}';
    const write = (path: string, content: string) => ({
      request: 'fs/write_text_file',
      params: { sessionId: s, path, content },
    });
    const ask = {
      request: 'session/request_permission',
      params: {
        sessionId: s,
        toolCall: { toolCallId: 'hold-1', title: 'Run the tests', kind: 'execute', rawInput: { command: 'npm test' } },
        options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }],
      },
      as: 'p',
    };
    await configureScriptedAgent(t.extensionPath, 'Feedback', {
      name: 'feedback',
      // Its own session ids: the change tracker is extension-wide, shared with other suites' agents.
      newSession: { sessionId: 'feedback-${n}' },
      prompts: [
        { match: 'write both', steps: [write(file('a.ts'), A_CHANGED), write(file('b.py'), B_CHANGED)] },
        {
          match: 'Review comments on your changes',
          steps: [write(file('received.txt'), '${prompt}'), write(file('a.ts'), A_AFTER_FEEDBACK)],
        },
        { match: 'hold', steps: [ask, { stream: 'held' }] },
      ],
      defaultPrompt: { steps: [write(file('received.txt'), '${prompt}')] },
    });
    await ctl.start('Feedback');
    assert.equal(ctl.agent.state, 'ready', ctl.agent.message);
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const c of feedback?.store.all() ?? []) feedback.store.remove(c.id);
    await ctl?.stop();
  });

  test('two comments on two changed files go out as one prompt; the next edit outdates one; a reload keeps them', async function () {
    this.timeout(60_000);
    await ctl.current!.prompt('write both');
    const sid = ctl.current!.session!.sessionId;
    const docA = await vscode.workspace.openTextDocument(vscode.Uri.file(file('a.ts')));
    await vscode.window.showTextDocument(docA, { preview: false });
    const docB = await vscode.workspace.openTextDocument(vscode.Uri.file(file('b.py')));
    const other = await vscode.workspace.openTextDocument(vscode.Uri.file(file('untouched.txt')));
    const { threads, review } = feedback;
    assert.equal(threads.provideCommentingRanges(docA).length, 1, 'a file the agent changed can be commented on');
    assert.deepEqual(threads.provideCommentingRanges(other), [], 'a file it did not change cannot');

    const a = await review.addComment(docA.uri, new vscode.Range(1, 0, 2, 13), 'Inline the sum.');
    // The second as the comment box's "Add Comment" button does it: the command gets the thread and text.
    const reply = { thread: threads.createThread(docB.uri, new vscode.Range(1, 0, 1, 0)), text: 'Raise instead.' };
    const b = await vscode.commands.executeCommand<FeedbackComment | undefined>('tandem.feedback.add', reply);
    assert.ok(a && b);
    assert.equal(a.sessionId, sid, 'the session shown when commenting owns the comment');
    assert.equal(feedback.pending(sid), 2);
    assert.equal(threads.threadOf(a.id)?.contextValue, 'pending');
    assert.equal(threads.threadOf(b.id), reply.thread, 'the thread typed in shows the comment');
    const row = api.overview.sessions().find((s) => s.sessionId === sid)!;
    assert.deepEqual(
      api.overview.getChildren(row).map((n) => 'feedback' in n && n.feedback),
      [2],
      'the overview lists "2 comments pending" under the session',
    );

    const outcome = await vscode.commands.executeCommand('tandem.sendFeedback');
    assert.equal(outcome, 'sent');
    const prompt = received();
    assert.match(prompt, /^Review comments on your changes \(2 comments\)/);
    assert.ok(
      prompt.includes(
        'Comment 1 of 2: feedback/a.ts L2–L3\n```typescript\n  const sum = a + b;\n  return sum;\n```\nInline the sum.',
      ),
      prompt,
    );
    assert.ok(
      prompt.includes('Comment 2 of 2: feedback/b.py L2\n```python\n    return None\n```\nRaise instead.'),
      prompt,
    );
    assert.equal(feedback.pending(sid), 0, 'sent comments are no longer pending');

    // The agent's edit in that turn replaced the lines of the first comment only.
    await until(() => feedback.store.get(a.id)?.status === 'outdated', 10_000, 'the first comment outdated');
    assert.deepEqual(feedback.store.get(a.id)?.now, { kind: 'changed', start: 1, lines: ['  return a + b;'] });
    assert.equal(feedback.store.get(b.id)?.status, 'sent', 'the other comment still holds');
    const thread = threads.threadOf(a.id)!;
    assert.equal(thread.contextValue, 'outdated');
    const shown = thread.comments[thread.comments.length - 1].body;
    assert.match(typeof shown === 'string' ? shown : shown.value, /return a \+ b;/, 'the thread shows the new text');

    // What activation does after a window reload: the store and threads built from workspaceState.
    const before = JSON.stringify(feedback.store.all());
    feedback.reload();
    assert.equal(JSON.stringify(feedback.store.all()), before);
    assert.equal(feedback.threads.threadOf(a.id)?.contextValue, 'outdated');
    assert.equal(feedback.threads.threadOf(b.id)?.comments[0].body, 'Raise instead.');
    assert.equal(feedback.threads.threadOf(b.id)?.uri.fsPath, docB.uri.fsPath);

    await vscode.commands.executeCommand('tandem.feedback.resolve', feedback.threads.threadOf(a.id));
    assert.equal(feedback.store.get(a.id), undefined, 'resolved: gone');
    feedback.store.remove(b.id);
  });

  test('feedback sent while the turn runs waits in the queue and goes out when the turn ends', async function () {
    this.timeout(60_000);
    const sid = ctl.current!.session!.sessionId;
    const turn = ctl.current!.prompt('hold');
    const broker = api.permissions.broker;
    await until(() => broker.pending().some((p) => p.sessionId === sid), 10_000, 'the turn waiting on a prompt');
    const docB = await vscode.workspace.openTextDocument(vscode.Uri.file(file('b.py')));
    const c = await feedback.review.addComment(docB.uri, new vscode.Range(0, 0, 0, 0), 'Add a docstring.');
    assert.ok(c);
    assert.equal(await vscode.commands.executeCommand('tandem.sendFeedback', sid), 'queued');
    assert.equal(ctl.queues.get(sid).items.length, 1);
    assert.ok(!received().includes('Add a docstring.'), 'not sent while the turn runs');

    const asked = broker.pending().find((p) => p.sessionId === sid)!;
    assert.ok(api.permissions.answer(asked.requestId, 'allow'));
    await turn;
    await until(() => received().includes('Add a docstring.'), 10_000, 'the queued feedback sent');
    assert.match(
      received(),
      /Comment 1 of 1: feedback\/b\.py L1\n```python\ndef load\(path\):\n```\nAdd a docstring\./,
    );
  });
});
