/// <reference types="mocha" />
// The extension is present in the real VS Code, activates, and sees the fixture workspace.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const ID = 'tandem-dev.tandem';

suite('activation', () => {
  test(`${ID} is installed`, () => {
    const ext = vscode.extensions.getExtension(ID);
    assert.ok(ext, `${ID} not found among ${vscode.extensions.all.length} extensions`);
    assert.equal(ext.packageJSON.publisher, 'tandem-dev');
  });

  test('activates without throwing', async () => {
    const ext = vscode.extensions.getExtension(ID);
    assert.ok(ext);
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  test('the fixture workspace is open', async () => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.equal(folders.length, 1, 'one workspace folder');
    const readme = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folders[0].uri, 'README.md'));
    assert.match(Buffer.from(readme).toString('utf8'), /Fixture workspace/);
  });
});
