/// <reference types="mocha" />
// A reviewed mark and a save that reaches the disk just as the agent's changes settle: between
// the save's write and the extension host hearing of it, the file's bytes are the user's while
// its editor still reads dirty. The settle must not take those bytes for the agent's change.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activateTandem, configureScriptedAgent, type TestedTandem, until } from './helpers';

suite('reviewed marks and a save landing as a settle comes', () => {
  let api: TestedTandem;
  let dir: string;
  const race = () => join(dir, 'race.txt');

  suiteSetup(async function () {
    this.timeout(60_000);
    const t = await activateTandem();
    api = t.api;
    dir = join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'save-race');
    mkdirSync(dir, { recursive: true });
    writeFileSync(race(), 'before\n');
    const write = (path: string, content: string) => ({
      request: 'fs/write_text_file',
      params: { sessionId: '${sessionId}', path, content },
    });
    await configureScriptedAgent(t.extensionPath, 'SaveRace', {
      name: 'save-race',
      newSession: { sessionId: 'save-race-${n}' },
      prompts: [
        { match: 'change', steps: [write(race(), 'by the agent\n')] },
        { match: 'elsewhere', steps: [write(join(dir, 'elsewhere.txt'), 'elsewhere\n')] },
      ],
    });
    await api.controller.start('SaveRace');
    assert.equal(api.controller.agent.state, 'ready', api.controller.agent.message);
  });

  suiteTeardown(async () => {
    for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.fsPath.startsWith(dir))) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await api?.controller.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a marked file whose save is on disk but not yet heard of keeps its mark through the agent's next settle", async () => {
    const ctl = api.controller;
    await ctl.current!.prompt('change');
    const id = ctl.current!.session!.sessionId;
    assert.equal(await api.changes.reviewed.set(id, race(), true), true, 'marked');
    // The user edits the file; their save has written the disk, the editor still reads dirty.
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(race()));
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(0, 0), 'mine\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(doc.isDirty);
    writeFileSync(race(), doc.getText());
    // The agent's next change, elsewhere, settles while the save is in flight.
    await ctl.current!.prompt('elsewhere');
    await until(async () => (await api.changes.changes.list(1)).some((f) => f.path.endsWith('elsewhere.txt')));
    await api.changes.reviewed.whenSettled();
    assert.equal(api.changes.reviewed.isReviewed(id, race()), true, 'still reviewed: the bytes are the user’s');
  });
});
