// VS Code implementations of the client's ports (src/client/ports.ts): buffers from the open
// TextDocuments, the disk through vscode.workspace.fs, every change through a WorkspaceEdit.
// Paths come in canonical (a workspace folder's real path, checkpoints/pathForms.ts) or as the
// editor has them; a document is found under either, and edited under the form it was opened
// with, so a folder opened through a symlink never gets a second document for the same file.
import { promises as nodeFs } from 'node:fs';
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { PathForms } from '../../checkpoints/pathForms';
import type { DocumentsPort, EditPort, FsPort, OpenDocument, WorkspacePort } from '../../client/ports';

let forms: { key: string; forms: PathForms } | undefined;

/** The workspace folders' two forms (resolved again when the folders change). */
export function workspacePaths(): PathForms {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  const key = folders.map((f) => f.uri.fsPath).join('\u0000');
  if (forms?.key !== key) forms = { key, forms: new PathForms(folders.map((f) => f.uri.fsPath)) };
  return forms.forms;
}

/** The open document of `path`, whichever form either has. */
export function findDocument(path: string): vscode.TextDocument | undefined {
  const docs = vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'file' && !d.isClosed);
  const exact = docs.find((d) => d.uri.fsPath === path);
  if (exact) return exact;
  const { canonical } = workspacePaths();
  const want = canonical(path);
  return docs.find((d) => canonical(d.uri.fsPath) === want);
}

/** The uri an editor has (or would have) for `path`: its open document's, else the folder's form. */
export function editorUri(path: string): vscode.Uri {
  return findDocument(path)?.uri ?? vscode.Uri.file(workspacePaths().display(path));
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

/** The whole text of `doc` replaced as one undoable edit, line endings set to the text's. */
function replaceAll(doc: vscode.TextDocument, rep: { text: string; eol?: vscode.EndOfLine }): vscode.WorkspaceEdit {
  const edits = [vscode.TextEdit.replace(fullRange(doc), rep.text)];
  if (rep.eol !== undefined && rep.eol !== doc.eol) edits.push(vscode.TextEdit.setEndOfLine(rep.eol));
  const edit = new vscode.WorkspaceEdit();
  const meta = { ...META, label: 'Tandem: revert agent change' };
  edit.set(
    doc.uri,
    edits.map((e): [vscode.TextEdit, vscode.WorkspaceEditEntryMetadata] => [e, meta]),
  );
  return edit;
}

/** The EditPort, and how a restore treats a document with unsaved edits. */
export interface EditorEdits extends EditPort {
  restoreBytes(path: string, bytes: Uint8Array, opts?: { saveDirty?: boolean }): Promise<void>;
}

export const vscodeEdits: EditorEdits = {
  async replaceText(path, text) {
    const uri = editorUri(path);
    const doc = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, fullRange(doc), text, META);
    await apply(edit, `write ${path}`);
    await save(doc);
  },

  async createFile(path, contents) {
    const uri = editorUri(path);
    await vscode.workspace.fs.createDirectory(vscode.Uri.file(nodePath.dirname(uri.fsPath)));
    const edit = new vscode.WorkspaceEdit();
    edit.createFile(uri, { contents, overwrite: false }, META);
    await apply(edit, `create ${path}`);
  },

  async deleteFile(path) {
    const edit = new vscode.WorkspaceEdit();
    edit.deleteFile(editorUri(path), { ignoreIfNotExists: true }, { ...META, label: 'Tandem: revert agent change' });
    await apply(edit, `delete ${path}`);
  },

  /**
   * A document with unsaved edits gets the bytes as an edit and stays unsaved (the user saves or
   * undoes it), unless `saveDirty`: the user chose to discard those edits.
   */
  async restoreBytes(path, bytes, opts = {}) {
    const uri = editorUri(path);
    let exists = true;
    try {
      await vscode.workspace.fs.stat(uri);
    } catch {
      exists = false;
    }
    if (!exists) {
      const edit = new vscode.WorkspaceEdit();
      await vscode.workspace.fs.createDirectory(vscode.Uri.file(nodePath.dirname(uri.fsPath)));
      edit.createFile(uri, { contents: bytes, overwrite: true }, { ...META, label: 'Tandem: revert agent change' });
      await apply(edit, `restore ${path}`);
      return;
    }
    const rep = representable(bytes);
    const wasDirty = findDocument(path)?.isDirty ?? false;
    if (wasDirty && !opts.saveDirty) {
      // Nothing on disk changes: the buffer holds the user's work, which is theirs to save.
      if (!rep) throw new Error(`${path} has unsaved changes, and its content before cannot be shown in an editor`);
      await apply(replaceAll(await vscode.workspace.openTextDocument(uri), rep), `restore ${path}`);
      return;
    }
    if (rep) {
      // An undoable edit of the document, line endings set to the snapshot's, then saved.
      const doc = await vscode.workspace.openTextDocument(uri);
      await apply(replaceAll(doc, rep), `restore ${path}`);
      await save(doc);
    }
    // Save participants (format on save, trim whitespace) or bytes the editor cannot hold
    // (BOM, mixed line endings, another encoding): write the exact bytes.
    const now = await vscode.workspace.fs.readFile(uri);
    if (!bytesEqual(now, bytes)) await vscode.workspace.fs.writeFile(uri, bytes);
  },
};
