// CodePort in VS Code: the Code group's questions go to whatever language extensions are
// installed, through the built-in provider commands (`vscode.executeDefinitionProvider`, …);
// edits (rename, quick fixes) are applied as one WorkspaceEdit (one undo step) and recorded for
// Review Changes. The logic — positions, result shapes, bounds — is in src/tools/code*.ts.
import { realpath } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { PortDocument, PortLocation, Pos, Span } from '../../tools/code/codeShape';
import type { CodePort, PortCallItem, PortCodeAction, PortEdit, PortSymbol } from '../../tools/code/codePort';
import { uriOf, workspaceFolders } from './workspaceTools';
import type { EditRecorder } from './editRecorder';

const exec = <T>(command: string, ...args: unknown[]) =>
  Promise.resolve(vscode.commands.executeCommand<T>(command, ...args));

const docs = new WeakMap<PortDocument, vscode.TextDocument>();

function portDocument(d: vscode.TextDocument): PortDocument {
  const p: PortDocument = {
    uri: d.uri.toString(),
    ...(d.uri.scheme === 'file' ? { path: d.uri.fsPath } : {}),
    languageId: d.languageId,
    lineCount: d.lineCount,
    lineAt: (i) => d.lineAt(i).text,
  };
  docs.set(p, d);
  return p;
}
const textDocument = (p: PortDocument) => docs.get(p)!;
const position = (p: Pos) => new vscode.Position(p.line, p.character);
const span = (r: vscode.Range): Span => ({
  start: { line: r.start.line, character: r.start.character },
  end: { line: r.end.line, character: r.end.character },
});

function location(uri: vscode.Uri, range: vscode.Range): PortLocation {
  return { uri: uri.toString(), ...(uri.scheme === 'file' ? { path: uri.fsPath } : {}), range: span(range) };
}

/** Location or LocationLink (definition providers answer either) → where the symbol's name is. */
function fromLocationLike(l: vscode.Location | vscode.LocationLink): PortLocation {
  return 'targetUri' in l ? location(l.targetUri, l.targetSelectionRange ?? l.targetRange) : location(l.uri, l.range);
}

const kindName = (k: vscode.SymbolKind) => vscode.SymbolKind[k] ?? String(k);

function fromSymbol(s: vscode.DocumentSymbol | vscode.SymbolInformation, uri?: vscode.Uri): PortSymbol {
  if ('location' in s)
    return {
      name: s.name,
      kind: kindName(s.kind),
      ...(s.containerName ? { containerName: s.containerName } : {}),
      location: location(s.location.uri, s.location.range),
    };
  return {
    name: s.name,
    kind: kindName(s.kind),
    ...(s.detail ? { detail: s.detail } : {}),
    location: location(uri!, s.range),
    children: s.children.map((c) => fromSymbol(c, uri)),
  };
}

function fromCallItem(i: vscode.CallHierarchyItem): PortCallItem {
  return {
    name: i.name,
    kind: kindName(i.kind),
    ...(i.detail ? { detail: i.detail } : {}),
    location: location(i.uri, i.selectionRange),
    ref: i,
  };
}

function fromEdit(e: vscode.WorkspaceEdit): PortEdit {
  return {
    files: e.entries().map(([uri, edits]) => ({
      uri: uri.toString(),
      ...(uri.scheme === 'file' ? { path: uri.fsPath } : {}),
      edits: edits.length,
    })),
    ref: e,
  };
}

function hoverText(c: vscode.MarkdownString | vscode.MarkedString): string {
  if (typeof c === 'string') return c;
  if ('language' in c) return `\`\`\`${c.language}\n${c.value}\n\`\`\``;
  return c.value;
}

/** Extensions with code that activate for a language: what "language support installed" means here. */
function languageSupport(languageId: string): string[] {
  const event = `onLanguage:${languageId}`;
  return vscode.extensions.all
    .filter((e) => {
      const pkg = e.packageJSON as { main?: string; browser?: string; activationEvents?: string[] };
      return (pkg.main || pkg.browser) && (pkg.activationEvents ?? []).includes(event);
    })
    .map((e) => e.id);
}

export function vscodeCodePort(recorder: EditRecorder): CodePort {
  return {
    folders: workspaceFolders,
    // Where a symlink really leads: the Code tools ask before reading outside the workspace.
    realpath: (p) => realpath(p),
    async open(pathOrUri) {
      return portDocument(await vscode.workspace.openTextDocument(uriOf(pathOrUri)));
    },
    languageSupport,
    async lineText(loc) {
      const d = await vscode.workspace.openTextDocument(vscode.Uri.parse(loc.uri, true));
      return loc.range.start.line < d.lineCount ? d.lineAt(loc.range.start.line).text : undefined;
    },
    async definitions(doc, pos) {
      const r = await exec<Array<vscode.Location | vscode.LocationLink>>(
        'vscode.executeDefinitionProvider',
        textDocument(doc).uri,
        position(pos),
      );
      return (r ?? []).map(fromLocationLike);
    },
    async references(doc, pos) {
      const r = await exec<vscode.Location[]>('vscode.executeReferenceProvider', textDocument(doc).uri, position(pos));
      return (r ?? []).map((l) => location(l.uri, l.range));
    },
    async documentSymbols(doc) {
      const uri = textDocument(doc).uri;
      const r = await exec<Array<vscode.DocumentSymbol | vscode.SymbolInformation>>(
        'vscode.executeDocumentSymbolProvider',
        uri,
      );
      return (r ?? []).map((s) => fromSymbol(s, uri));
    },
    async workspaceSymbols(query) {
      const r = await exec<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', query);
      return (r ?? []).map((s) => fromSymbol(s));
    },
    async hover(doc, pos) {
      const r = await exec<vscode.Hover[]>('vscode.executeHoverProvider', textDocument(doc).uri, position(pos));
      return (r ?? []).flatMap((h) => h.contents.map(hoverText));
    },
    async prepareCallHierarchy(doc, pos) {
      const r = await exec<vscode.CallHierarchyItem[]>(
        'vscode.prepareCallHierarchy',
        textDocument(doc).uri,
        position(pos),
      );
      return (r ?? []).map(fromCallItem);
    },
    async calls(item, direction) {
      if (direction === 'incoming') {
        const r = await exec<vscode.CallHierarchyIncomingCall[]>('vscode.provideIncomingCalls', item.ref);
        return (r ?? []).map((c) => ({ item: fromCallItem(c.from), ranges: c.fromRanges.map(span) }));
      }
      const r = await exec<vscode.CallHierarchyOutgoingCall[]>('vscode.provideOutgoingCalls', item.ref);
      return (r ?? []).map((c) => ({ item: fromCallItem(c.to), ranges: c.fromRanges.map(span) }));
    },
    async rename(doc, pos, newName) {
      const r = await exec<vscode.WorkspaceEdit | undefined>(
        'vscode.executeDocumentRenameProvider',
        textDocument(doc).uri,
        position(pos),
        newName,
      );
      return r ? fromEdit(r) : undefined;
    },
    async codeActions(doc, range, kind) {
      // Resolve the edits of up to 50 actions: an action applied later needs its edit.
      const r = await exec<Array<vscode.CodeAction | vscode.Command>>(
        'vscode.executeCodeActionProvider',
        textDocument(doc).uri,
        new vscode.Range(position(range.start), position(range.end)),
        kind,
        50,
      );
      return (r ?? []).map((a): PortCodeAction => {
        if (typeof (a as vscode.Command).command === 'string')
          return { title: a.title, diagnostics: [], command: (a as vscode.Command).command, ref: a };
        const c = a as vscode.CodeAction;
        return {
          title: c.title,
          ...(c.kind ? { kind: c.kind.value } : {}),
          ...(c.isPreferred ? { isPreferred: true } : {}),
          ...(c.disabled ? { disabled: c.disabled.reason } : {}),
          diagnostics: (c.diagnostics ?? []).map((d) => d.message),
          ...(c.edit ? { edit: fromEdit(c.edit) } : {}),
          ...(c.command ? { command: c.command.command } : {}),
          ref: c,
        };
      });
    },
    applyEdit: (edit, sessionId) => recorder.apply(edit.ref as vscode.WorkspaceEdit, sessionId),
    async runCommand(action) {
      const a = action.ref as vscode.CodeAction | vscode.Command;
      const cmd = 'command' in a && typeof a.command === 'object' ? a.command : (a as vscode.Command);
      await vscode.commands.executeCommand(cmd.command, ...(cmd.arguments ?? []));
    },
  };
}
