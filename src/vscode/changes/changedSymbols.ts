// The symbols a change touched (src/review/touchedSymbols.ts), from the language extension's
// document symbols of the file as it is now: "parseRules changed, matchScope added". Asked only
// when the file now is the change's end (a later turn changed it: no names rather than wrong
// ones), and remembered per file content, since the changes list asks again on every change.
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { decodeExact } from '../../checkpoints/hunks';
import { Disposable, toDisposable } from '../../common/disposable';
import { Emitter } from '../../common/event';
import { describeTouched, touchedSymbols, type SymbolSpan } from '../../review/touchedSymbols';
import { lineDiff } from '../../shared/lineDiff';
import { editorUri } from '../editor/workspacePorts';

/** Remembered answers (path + both contents): enough for a session's changes lists. */
const MAX_REMEMBERED = 200;

/** A language extension that had no symbols yet (still starting) is asked again after these waits. */
const RETRY_MS = [2000, 5000, 15_000];

export class ChangedSymbols extends Disposable {
  private readonly known = new Map<string, string | undefined>();
  private readonly retried = new Map<string, number>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly learned = this._register(new Emitter<void>());
  /** Symbols became known for a change that had none when asked (the language extension started). */
  readonly onDidLearn = this.learned.event;

  constructor() {
    super();
    this._register(toDisposable(() => this.timers.forEach((t) => clearTimeout(t))));
  }

  /** "a changed, b added", or undefined when nothing named was touched or no symbols are known. */
  async describe(path: string, before: Uint8Array | null, now: Uint8Array | null): Promise<string | undefined> {
    if (now === null) return undefined;
    const key = createHash('sha256')
      .update(path)
      .update(before ?? new Uint8Array())
      .update('\u0000')
      .update(now)
      .digest('hex');
    if (this.known.has(key)) return this.known.get(key);
    const a = before === null ? '' : decodeExact(before);
    const b = decodeExact(now);
    if (a === undefined || b === undefined) return this.remember(key, undefined);
    const diff = lineDiff(a, b);
    if (diff.tooLarge || !diff.hunks.length) return this.remember(key, undefined);
    const symbols = await documentSymbols(editorUri(path));
    // No symbols may mean the language extension has not started yet: ask again a few times, later.
    if (!symbols.length) {
      this.retry(key, path);
      return undefined;
    }
    const touched = touchedSymbols(symbols, diff.hunks);
    return this.remember(key, touched.length ? describeTouched(touched) : undefined);
  }

  private retry(key: string, path: string): void {
    const n = this.retried.get(key) ?? 0;
    if (n >= RETRY_MS.length || this.timers.size >= MAX_REMEMBERED) return;
    this.retried.set(key, n + 1);
    if (this.retried.size > MAX_REMEMBERED) this.retried.delete(this.retried.keys().next().value!);
    const t = setTimeout(() => {
      this.timers.delete(t);
      void documentSymbols(editorUri(path)).then((s) => (s.length ? this.learned.fire() : this.retry(key, path)));
    }, RETRY_MS[n]);
    this.timers.add(t);
  }

  private remember(key: string, text: string | undefined): string | undefined {
    this.known.set(key, text);
    if (this.known.size > MAX_REMEMBERED) this.known.delete(this.known.keys().next().value!);
    return text;
  }
}

async function documentSymbols(uri: vscode.Uri): Promise<SymbolSpan[]> {
  try {
    const found = await vscode.commands.executeCommand<Array<vscode.DocumentSymbol | vscode.SymbolInformation>>(
      'vscode.executeDocumentSymbolProvider',
      uri,
    );
    return (found ?? []).map(span);
  } catch {
    return []; // no language support for the file: no names
  }
}

function span(s: vscode.DocumentSymbol | vscode.SymbolInformation): SymbolSpan {
  const range = 'location' in s ? s.location.range : s.range;
  const lines = { name: s.name, startLine: range.start.line, endLine: lastLine(range) };
  return 'location' in s ? lines : { ...lines, children: s.children.map(span) };
}

/** A range that ends at the start of a line (a Markdown section up to the next heading) does not hold that line. */
function lastLine(r: vscode.Range): number {
  return r.end.character === 0 && r.end.line > r.start.line ? r.end.line - 1 : r.end.line;
}
