/// <reference types="mocha" />
// The review loop's "what changed" in the real VS Code: the +/− counts under a prompt are that
// turn's own (a later turn's changes are not counted under an earlier prompt, a hunk the user
// undoes counts no more); files marked reviewed, counted and cleared when the agent changes them
// again; the symbols a change touched; the agent's own summary of the session.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activateTandem, configureScriptedAgent, type TestedTandem, until } from './helpers';
import { describeSession } from '../../src/session/overview';
import type { Controller } from '../../src/vscode/agent/controller';
import type { AgentChanges } from '../../src/vscode/changes/agentChanges';

const lines = (...l: string[]) => l.map((x) => `${x}\n`).join('');
const V0 = lines('a', 'b', 'c', 'd', 'e');
const V1 = lines('A', 'b', 'c', 'd', 'e');
const V2 = lines('A', 'B', 'C', 'D', 'e');
const NOTES_BEFORE = lines('# Intro', '', 'Some text.', '', '# Usage', '', 'Run it.');
const NOTES_AFTER = lines(
  '# Intro',
  '',
  'Some text.',
  '',
  '# Usage',
  '',
  'Run it twice.',
  '',
  '# Limits',
  '',
  'None yet.',
);

suite('turn counts, reviewed marks, touched symbols, summaries', () => {
  let ctl: Controller;
  let hands: AgentChanges;
  let api: TestedTandem;
  let dir: string;
  const file = () => join(dir, 'counted.txt');

  suiteSetup(async function () {
    this.timeout(60_000);
    const t = await activateTandem();
    api = t.api;
    const extensionPath = t.extensionPath;
    ({ controller: ctl, changes: hands } = api);
    dir = join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'turn-counts');
    mkdirSync(dir, { recursive: true });
    writeFileSync(file(), V0);
    const write = (content: string) => ({
      request: 'fs/write_text_file',
      params: { sessionId: '${sessionId}', path: file(), content },
    });
    await configureScriptedAgent(extensionPath, 'Counts', {
      name: 'counts',
      newSession: { sessionId: 'counts-${n}' },
      prompts: [
        { match: 'first', steps: [write(V1)] },
        { match: 'second', steps: [write(V2)] },
        { match: 'third', steps: [write(lines('A', 'B', 'C', 'D', 'E'))] },
        {
          match: 'Summarize the changes',
          steps: [{ stream: 'I renamed the counters and added a limits section, to make the notes complete.' }],
        },
        {
          match: 'markdown',
          steps: [
            {
              request: 'fs/write_text_file',
              params: { sessionId: '${sessionId}', path: join(dir, 'notes.md'), content: NOTES_AFTER },
            },
          ],
        },
        {
          match: 'touch',
          steps: [
            {
              request: 'fs/write_text_file',
              params: { sessionId: '${sessionId}', path: join(dir, 'touch.txt'), content: 'touched\n' },
            },
          ],
        },
        {
          match: 'other',
          steps: [
            {
              request: 'fs/write_text_file',
              params: { sessionId: '${sessionId}', path: join(dir, 'other.txt'), content: 'other\n' },
            },
          ],
        },
      ],
    });
    await ctl.start('Counts');
    assert.equal(ctl.agent.state, 'ready', ctl.agent.message);
  });

  suiteTeardown(async () => {
    await ctl?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const counts = async (turn: number) => {
    const f = (await hands.changes.list(turn)).find((x) => x.path === file());
    return [f?.added, f?.removed];
  };

  test("a later turn's changes are not counted under an earlier prompt; a hand-undone line leaves the last turn's count", async () => {
    await ctl.current!.prompt('first');
    await until(async () => (await counts(0))[0] === 1, 10_000, 'turn 1 counted');
    await ctl.current!.prompt('second');
    await until(async () => (await counts(1))[0] === 3, 10_000, 'turn 2 counted');
    assert.deepEqual(await counts(0), [1, 1], 'turn 1: its own one line');
    assert.deepEqual(await counts(1), [3, 3], 'turn 2: its own three lines');
    // The user puts one of turn 2's lines back by hand: turn 2 now counts two.
    writeFileSync(file(), lines('A', 'b', 'C', 'D', 'e'));
    assert.deepEqual(await counts(1), [2, 2]);
    assert.deepEqual(await counts(0), [1, 1]);
  });

  test('Mark as Reviewed: from the list and the editor title, counted, kept across a save, cleared by the agent', async () => {
    const { overview } = api;
    const id = ctl.current!.session!.sessionId;
    await ctl.current!.prompt('other');
    const other = join(dir, 'other.txt');
    const row = () => overview.sessions().find((s) => s.sessionId === id);
    await until(() => row()?.toReview === 2, 10_000, 'two files to review');
    // From the changes list.
    await hands.changes.act(2, 'reviewed', other);
    assert.equal((await hands.changes.list(2)).find((f) => f.path === other)?.reviewed, true);
    await until(() => row()?.toReview === 1, 5000, 'one left to review');
    // From the editor title: the active file is the changed one.
    await vscode.window.showTextDocument(vscode.Uri.file(file()));
    await vscode.commands.executeCommand('tandem.markReviewed');
    assert.equal(hands.reviewed.isReviewed(id, file()), true);
    await until(() => row()?.toReview === undefined, 5000, 'nothing left to review');
    assert.match(describeSession(row()!), /2 files/);
    assert.doesNotMatch(describeSession(row()!), /to review/);
    // The user's own save outside a turn keeps the mark.
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file()));
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(0, 0), 'mine\n');
    await vscode.workspace.applyEdit(edit);
    await doc.save();
    // The agent's next change (another file) is compared with the marks: the saved file keeps its.
    await ctl.current!.prompt('touch');
    await until(() => row()?.toReview === 1, 5000, 'the touched file to review');
    await hands.reviewed.whenSettled();
    assert.equal(hands.reviewed.isReviewed(id, file()), true, 'still reviewed after the user saved');
    // The agent changes it again: the mark clears and it counts again.
    await ctl.current!.prompt('third');
    await until(() => !hands.reviewed.isReviewed(id, file()), 5000, 'the mark cleared');
    await until(() => row()?.toReview === 2, 5000, 'two to review again');
    assert.equal(hands.reviewed.isReviewed(id, other), true, 'the untouched file keeps its mark');
    // The marks are kept in the workspace state: read back as after a reload.
    hands.reviewed.reload();
    assert.equal(hands.reviewed.isReviewed(id, other), true);
    assert.equal(hands.reviewed.isReviewed(id, file()), false);
  });

  test("each changed file names the symbols its turn touched, from the language's document symbols", async () => {
    const notes = join(dir, 'notes.md');
    writeFileSync(notes, NOTES_BEFORE);
    const turn = ctl.current!.session!.state.turns.length;
    await ctl.current!.prompt('markdown');
    await until(
      async () => !!(await hands.changes.list(turn)).find((f) => f.path === notes)?.symbols,
      15_000,
      'the markdown symbols',
    );
    const f = (await hands.changes.list(turn)).find((x) => x.path === notes)!;
    assert.equal(f.symbols, '# Usage changed, # Limits added');
  });

  test("Ask the Agent to Summarize: the answer becomes the session's summary, shown as the agent's words", async () => {
    const id = ctl.current!.session!.sessionId;
    const summary = (await vscode.commands.executeCommand('tandem.summarizeChanges')) as { text: string } | undefined;
    assert.equal(summary?.text, 'I renamed the counters and added a limits section, to make the notes complete.');
    const row = api.overview.sessions().find((s) => s.sessionId === id)!;
    const tooltip = String(api.overview.getTreeItem(row).tooltip);
    assert.match(tooltip, /Summary, in the agent's words:\nI renamed the counters/);
  });
});
