// The VS Code side of one name per file: with the workspace folder opened through a symlink, a
// document the editor has under the folder's path is the one the agent's real path names, and a
// file not open yet is shown under the folder's path. Fake `vscode`, real folders and link.
import { state as vs, vscodeFake } from '../security/fakeVscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { editorUri, vscodeDocuments, workspacePaths } from '../../../src/vscode/editor/workspacePorts';

test('a folder opened through a symlink: the editor’s document is found for the real path, new files keep the folder’s path', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-wsp-')));
  const real = join(root, 'real');
  mkdirSync(real);
  const opened = join(root, 'opened-as');
  symlinkSync(real, opened, 'dir');
  vs.folders = [opened];
  const Uri = vscodeFake.Uri;
  vscodeFake.workspace.textDocuments = [
    { uri: Uri.file(join(opened, 'a.txt')), isDirty: true, isClosed: false, version: 7, getText: () => 'unsaved' },
  ];
  try {
    assert.equal(workspacePaths().canonical(join(opened, 'a.txt')), join(real, 'a.txt'));
    assert.deepEqual(vscodeDocuments.get(join(real, 'a.txt')), { text: 'unsaved', isDirty: true, version: 7 });
    assert.equal(editorUri(join(real, 'a.txt')).fsPath, join(opened, 'a.txt'), 'the open document’s own uri');
    assert.equal(editorUri(join(real, 'src', 'b.txt')).fsPath, join(opened, 'src', 'b.txt'));
    assert.equal(editorUri('/etc/hosts').fsPath, '/etc/hosts');
  } finally {
    vs.folders = [];
    vscodeFake.workspace.textDocuments = [];
  }
});
