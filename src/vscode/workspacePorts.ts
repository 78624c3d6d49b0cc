// VS Code implementations of the client's ports (src/client/ports.ts): buffers from the open
// TextDocuments, the disk through vscode.workspace.fs, every change through a WorkspaceEdit.
import { promises as nodeFs } from 'node:fs';
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import type { DocumentsPort, EditPort, FsPort, OpenDocument, WorkspacePort } from '../client/ports';

function findDocument(path: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === path && !d.isClosed);
}

export const vscodeDocuments: DocumentsPort = {
  get(path: string): OpenDocument | undefined {
    const d = findDocument(path);
    return d ? { text: d.getText(), isDirty: d.isDirty, version: d.version } : undefined;
  },
};

export const vscodeFs: FsPort = {
  async stat(path) {
    try {
      const s = await vscode.workspace.fs.stat(vscode.Uri.file(path));
      const type = s.type & vscode.FileType.File ? 'file' : s.type & vscode.FileType.Directory ? 'directory' : 'other';
      return { type, size: s.size };
    } catch (err) {
      if (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') return undefined;
      throw err;
    }
  },
  readFile: async (path) => vscode.workspace.fs.readFile(vscode.Uri.file(path)),
  // The extension host runs where the files are (extensionKind: workspace): node can resolve links.
  realpath: (path) => nodeFs.realpath(path),
};

export const vscodeWorkspace: WorkspacePort = {
  folders: () =>
    (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
};

const META: vscode.WorkspaceEditEntryMetadata = { needsConfirmation: false, label: 'Tandem agent edit' };

function fullRange(doc: vscode.TextDocument): vscode.Range {
  return new vscode.Range(0, 0, doc.lineCount, 0);
}

async function apply(edit: vscode.WorkspaceEdit, what: string): Promise<void> {
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`VS Code did not apply the edit (${what})`);
}

async function save(doc: vscode.TextDocument): Promise<void> {
  if (doc.isDirty && !(await doc.save())) throw new Error(`VS Code could not save ${doc.uri.fsPath}`);
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Text the editor can hold byte-exactly: UTF-8 without BOM, one kind of line ending. */
function representable(bytes: Uint8Array): { text: string; eol?: vscode.EndOfLine } | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
  if (text.charCodeAt(0) === 0xfeff) return undefined;
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length;
  const cr = (text.match(/\r/g) ?? []).length;
  if (cr !== crlf) return undefined; // lone CRs
  if (crlf && crlf !== lf) return undefined; // mixed
  return { text, eol: crlf ? vscode.EndOfLine.CRLF : lf ? vscode.EndOfLine.LF : undefined };
}

export const vscodeEdits: EditPort = {
  async replaceText(path, text) {
    const uri = vscode.Uri.file(path);
    const doc = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, fullRange(doc), text, META);
    await apply(edit, `write ${path}`);
    await save(doc);
  },

  async createFile(path, contents) {
    const uri = vscode.Uri.file(path);
    await vscode.workspace.fs.createDirectory(vscode.Uri.file(nodePath.dirname(path)));
    const edit = new vscode.WorkspaceEdit();
    edit.createFile(uri, { contents, overwrite: false }, META);
    await apply(edit, `create ${path}`);
  },

  async deleteFile(path) {
    const edit = new vscode.WorkspaceEdit();
    edit.deleteFile(
      vscode.Uri.file(path),
      { ignoreIfNotExists: true },
      { ...META, label: 'Tandem: revert agent change' },
    );
    await apply(edit, `delete ${path}`);
  },

  async restoreBytes(path, bytes) {
    const uri = vscode.Uri.file(path);
    let exists = true;
    try {
      await vscode.workspace.fs.stat(uri);
    } catch {
      exists = false;
    }
    if (!exists) {
      const edit = new vscode.WorkspaceEdit();
      await vscode.workspace.fs.createDirectory(vscode.Uri.file(nodePath.dirname(path)));
      edit.createFile(uri, { contents: bytes, overwrite: true }, { ...META, label: 'Tandem: revert agent change' });
      await apply(edit, `restore ${path}`);
      return;
    }
    const rep = representable(bytes);
    if (rep) {
      // An undoable edit of the document, line endings set to the snapshot's, then saved.
      const doc = await vscode.workspace.openTextDocument(uri);
      const edits = [vscode.TextEdit.replace(fullRange(doc), rep.text)];
      if (rep.eol !== undefined && rep.eol !== doc.eol) edits.push(vscode.TextEdit.setEndOfLine(rep.eol));
      const edit = new vscode.WorkspaceEdit();
      edit.set(
        uri,
        edits.map((e): [vscode.TextEdit, vscode.WorkspaceEditEntryMetadata] => [
          e,
          { ...META, label: 'Tandem: revert agent change' },
        ]),
      );
      await apply(edit, `restore ${path}`);
      await save(doc);
    }
    // Save participants (format on save, trim whitespace) or bytes the editor cannot hold
    // (BOM, mixed line endings, another encoding): write the exact bytes.
    const now = await vscode.workspace.fs.readFile(uri);
    if (!bytesEqual(now, bytes)) await vscode.workspace.fs.writeFile(uri, bytes);
  },
};
