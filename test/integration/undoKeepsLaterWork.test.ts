/// <reference types="mocha" />
// Undo and restore in the real VS Code never take later work with them: undoing an earlier turn's
// change keeps what a later turn and the user changed since (saved, or unsaved in a buffer that
// stays unsaved), and "Restore to here" leaves alone a buffer with unsaved edits that the editor
// opened through a symlinked path.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activateTandem, configureScriptedAgent, runAccepting, until } from './helpers';
import type { RestoreResult } from '../../src/checkpoints/restore';
import type { AgentChanges } from '../../src/vscode/changes/agentChanges';
import type { Controller } from '../../src/vscode/agent/controller';

const lines = (...ls: string[]) => ls.map((l) => `${l}\n`).join('');
const BASE = lines('1', '2', '3', '4', '5', '6', '7', '8', '9', '10');
const TURN = BASE.replace('2\n', 'two (agent)\n');
const LATER = TURN.replace('8\n', 'eight (later turn)\n');

suite('undo keeps later work (an earlier turn, saved and unsaved edits, a symlinked path)', () => {
  let ctl: Controller;
  let hands: AgentChanges;
  let dir: string;
  let alias: string;
  const file = (name: string) => join(dir, name);
  const sid = () => ctl.current!.session!.sessionId;
  const lastTurn = () => ctl.current!.session!.state.turns.length - 1;

  suiteSetup(async function () {
    this.timeout(60_000);
    const { api, extensionPath } = await activateTandem();
    ({ controller: ctl, changes: hands } = api);
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    dir = join(folder, 'undo-later');
    mkdirSync(dir, { recursive: true });
    for (const n of ['u.txt', 'v.txt', 'w.txt', 's.txt', 's2.txt']) writeFileSync(file(n), BASE);
    // The workspace folder under a second name, as a symlinked path to it would be.
    alias = join(mkdtempSync(join(tmpdir(), 'tandem-alias-')), 'ws');
    symlinkSync(folder, alias, 'dir');
    assert.ok(await hands.checkpointsReady, 'the workspace has checkpoints');
    const s = '${sessionId}';
    const write = (name: string, content: string) => ({
      request: 'fs/write_text_file',
      params: { sessionId: s, path: file(name), content },
    });
    await configureScriptedAgent(extensionPath, 'UndoLater', {
      name: 'undo-later',
      newSession: { sessionId: 'undo-later-${n}' }, // its own changes, apart from other suites'
      prompts: [
        { match: 'u1', steps: [write('u.txt', TURN)] },
        { match: 'u2', steps: [write('u.txt', LATER)] },
        { match: 'v1', steps: [write('v.txt', TURN)] },
        { match: 'w1', steps: [write('w.txt', TURN)] },
        { match: 's1', steps: [write('s.txt', TURN), write('s2.txt', TURN)] },
      ],
    });
    await ctl.start('UndoLater');
    assert.equal(ctl.agent.state, 'ready', ctl.agent.message);
  });

  suiteTeardown(async () => {
    // Unsaved buffers are dropped first, so closing asks nothing.
    for (const d of vscode.workspace.textDocuments.filter((x) => x.isDirty)) {
      await vscode.window.showTextDocument(d);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await ctl?.stop();
    rmSync(alias, { force: true });
  });

  /** The turn has ended, by the file system's clock too, so an edit now comes after it. */
  async function afterTurn(turn: number): Promise<void> {
    const timeline = hands.checkpoints!.session(sid()).timeline;
    await until(() => timeline.settled.has(turn), 10_000, 'the turn settled');
    const ended = timeline.settled.get(turn)!;
    await until(() => Date.now() > ended + 30, 1000, 'the clock past the end of the turn');
  }

  /** `text` with line `n` (1-based) replaced, in the editor: left unsaved. */
  async function typeLine(doc: vscode.TextDocument, n: number, text: string): Promise<void> {
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    assert.ok(
      await editor.edit((b) => b.replace(new vscode.Range(n - 1, 0, n - 1, doc.lineAt(n - 1).text.length), text)),
    );
  }

  test("undoing an earlier turn's change keeps what a later turn changed in the same file", async () => {
    await ctl.current!.prompt('u1');
    const first = lastTurn();
    await ctl.current!.prompt('u2');
    assert.equal(readFileSync(file('u.txt'), 'utf8'), LATER);
    await hands.changes.act(first, 'undo', file('u.txt'));
    assert.equal(readFileSync(file('u.txt'), 'utf8'), BASE.replace('8\n', 'eight (later turn)\n'));
    assert.equal(hands.tracker.get(sid(), first, file('u.txt'))!.state, 'reverted');
  });

  test('undo after the user saved an edit of the file keeps the edit', async () => {
    await ctl.current!.prompt('w1');
    const turn = lastTurn();
    await afterTurn(turn);
    const doc = await vscode.workspace.openTextDocument(file('w.txt'));
    await typeLine(doc, 9, '9 (user, saved)');
    assert.ok(await doc.save());
    await hands.changes.act(turn, 'undo', file('w.txt'));
    assert.equal(readFileSync(file('w.txt'), 'utf8'), BASE.replace('9\n', '9 (user, saved)\n'));
  });

  test('undo with unsaved edits in the editor: the buffer gets the undo and keeps the edits, still unsaved', async () => {
    await ctl.current!.prompt('v1');
    const turn = lastTurn();
    await afterTurn(turn);
    const doc = await vscode.workspace.openTextDocument(file('v.txt'));
    await typeLine(doc, 9, '9 (user, unsaved)');
    await hands.changes.act(turn, 'undo', file('v.txt'));
    assert.equal(doc.getText(), BASE.replace('9\n', '9 (user, unsaved)\n'), 'the undo is in the buffer');
    assert.equal(doc.isDirty, true, 'not saved for the user');
    assert.equal(readFileSync(file('v.txt'), 'utf8'), TURN, 'the disk is not written');
  });

  test('"Restore to here" leaves alone a buffer with unsaved edits opened through a symlinked path', async function () {
    this.timeout(40_000);
    await ctl.current!.prompt('s1');
    const turn = lastTurn();
    await afterTurn(turn);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(join(alias, 'undo-later', 's.txt')));
    await typeLine(doc, 9, '9 (user, unsaved)');
    // The first choice is the safe one: every file but those with unsaved edits.
    const r = (await runAccepting('tandem.restoreToPrompt', { sessionId: sid(), turn })) as RestoreResult;
    assert.deepEqual(r.restored, [file('s2.txt')]);
    assert.deepEqual(
      r.skipped.map((s) => s.reason),
      ['undo-later/s.txt has unsaved changes in an editor'],
    );
    assert.equal(readFileSync(file('s.txt'), 'utf8'), TURN, 'the file under the unsaved buffer is not written');
    assert.equal(doc.isDirty, true);
    assert.equal(doc.lineAt(8).text, '9 (user, unsaved)');
  });
});
