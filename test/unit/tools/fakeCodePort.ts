// A fake CodePort for the Code group's unit tests: documents from strings, provider answers set
// per test, every applied edit and run command recorded.
import * as nodePath from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PortDocument, PortLocation, Span } from '../../../src/tools/code/codeShape';
import type {
  CodePort,
  PortCall,
  PortCallItem,
  PortCodeAction,
  PortEdit,
  PortSymbol,
} from '../../../src/tools/code/codePort';

export const ROOT = nodePath.resolve('/ws/project');

export function loc(rel: string, line: number, character: number, length = 3): PortLocation {
  const path = nodePath.join(ROOT, rel);
  return {
    uri: `file://${path}`,
    path,
    range: { start: { line, character }, end: { line, character: character + length } },
  };
}

export function span(line: number, character: number, endLine = line, endCharacter = character): Span {
  return { start: { line, character }, end: { line: endLine, character: endCharacter } };
}

export class FakeCodePort implements CodePort {
  files = new Map<string, { text: string; languageId: string }>();
  support = new Map<string, string[]>([['typescript', ['vscode.typescript-language-features']]]);
  answers: {
    definitions?: PortLocation[];
    references?: PortLocation[];
    documentSymbols?: PortSymbol[];
    workspaceSymbols?: PortSymbol[];
    hover?: string[];
    callItems?: PortCallItem[];
    calls?: PortCall[];
    rename?: PortEdit | Error;
    codeActions?: PortCodeAction[];
  } = {};
  applyResult = true;
  /** What was asked: [method, relative path, 0-based line, character]. */
  asked: Array<[string, string, number?, number?]> = [];
  applied: Array<{ edit: PortEdit; sessionId?: string }> = [];
  commands: string[] = [];
  lastRange?: Span;
  lastKind?: string;
  lastDirection?: string;
  /** Symlinks: a path under a key really is under its value. */
  links = new Map<string, string>();
  /** Every path or URI open() was asked for. */
  opened: string[] = [];

  file(rel: string, text: string, languageId = 'typescript'): this {
    this.files.set(nodePath.join(ROOT, rel), { text, languageId });
    return this;
  }

  folders() {
    return [{ name: 'project', path: ROOT }];
  }
  async realpath(p: string): Promise<string> {
    for (const [from, to] of this.links)
      if (p === from || p.startsWith(from + nodePath.sep)) return to + p.slice(from.length);
    return p;
  }
  async open(pathOrUri: string): Promise<PortDocument> {
    this.opened.push(pathOrUri);
    if (pathOrUri.startsWith('file://')) pathOrUri = fileURLToPath(pathOrUri);
    const f = this.files.get(pathOrUri);
    if (!f) throw new Error('File not found');
    const lines = f.text.split('\n');
    return {
      uri: `file://${pathOrUri}`,
      path: pathOrUri,
      languageId: f.languageId,
      lineCount: lines.length,
      lineAt: (i) => lines[i],
    };
  }
  languageSupport(languageId: string): string[] {
    return this.support.get(languageId) ?? [];
  }
  async lineText(l: PortLocation): Promise<string | undefined> {
    return this.files.get(l.path!)?.text.split('\n')[l.range.start.line];
  }
  private ask(what: string, doc: PortDocument, line?: number, character?: number) {
    this.asked.push([what, nodePath.relative(ROOT, doc.path!), line, character]);
  }
  async definitions(doc: PortDocument, pos: { line: number; character: number }) {
    this.ask('definitions', doc, pos.line, pos.character);
    return this.answers.definitions ?? [];
  }
  async references(doc: PortDocument, pos: { line: number; character: number }) {
    this.ask('references', doc, pos.line, pos.character);
    return this.answers.references ?? [];
  }
  async documentSymbols(doc: PortDocument) {
    this.ask('documentSymbols', doc);
    return this.answers.documentSymbols ?? [];
  }
  async workspaceSymbols() {
    return this.answers.workspaceSymbols ?? [];
  }
  async hover(doc: PortDocument, pos: { line: number; character: number }) {
    this.ask('hover', doc, pos.line, pos.character);
    return this.answers.hover ?? [];
  }
  async prepareCallHierarchy(doc: PortDocument, pos: { line: number; character: number }) {
    this.ask('prepareCallHierarchy', doc, pos.line, pos.character);
    return this.answers.callItems ?? [];
  }
  async calls(_item: PortCallItem, direction: 'incoming' | 'outgoing') {
    this.lastDirection = direction;
    return this.answers.calls ?? [];
  }
  async rename(doc: PortDocument, pos: { line: number; character: number }) {
    this.ask('rename', doc, pos.line, pos.character);
    const r = this.answers.rename;
    if (r instanceof Error) throw r;
    return r;
  }
  async codeActions(doc: PortDocument, range: Span, kind?: string) {
    this.ask('codeActions', doc);
    this.lastRange = range;
    this.lastKind = kind;
    return this.answers.codeActions ?? [];
  }
  async applyEdit(edit: PortEdit, sessionId: string | undefined) {
    if (this.applyResult) this.applied.push({ edit, sessionId });
    return this.applyResult;
  }
  async runCommand(action: PortCodeAction) {
    this.commands.push(action.command!);
  }
}
