// "Open diff": a tool call's diff content shown in VS Code's own diff editor. Both sides are
// read-only virtual documents (scheme tandem-diff) served from the session's tool call, so
// nothing is written to disk and the agent's file is untouched.
import * as vscode from 'vscode';

export const DIFF_SCHEME = 'tandem-diff';

type Lookup = (
  toolCallId: string,
  index: number,
) => { path: string; oldText: string | null; newText: string } | undefined;

export class DiffDocuments implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly lookup: Lookup) {}

  static register(lookup: Lookup): { provider: DiffDocuments; disposable: vscode.Disposable } {
    const provider = new DiffDocuments(lookup);
    return {
      provider,
      disposable: vscode.Disposable.from(
        vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, provider),
        provider.changed,
      ),
    };
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const q = new URLSearchParams(uri.query);
    const d = this.lookup(q.get('call') ?? '', Number(q.get('i')));
    if (!d) return '';
    return q.get('side') === 'old' ? (d.oldText ?? '') : d.newText;
  }

  async open(toolCallId: string, index: number): Promise<boolean> {
    const d = this.lookup(toolCallId, index);
    if (!d) return false;
    const name = d.path.split(/[\\/]/).pop() || d.path;
    // The path keeps the file's extension, so the diff editor picks its language.
    const make = (side: string) =>
      vscode.Uri.from({
        scheme: DIFF_SCHEME,
        path: d.path.startsWith('/') ? d.path : `/${d.path}`,
        query: new URLSearchParams({ call: toolCallId, i: String(index), side }).toString(),
      });
    const left = make('old'),
      right = make('new');
    this.changed.fire(left);
    this.changed.fire(right);
    const title = `${name} (${d.oldText == null ? 'new file' : 'agent edit'})`;
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true, preserveFocus: false });
    return true;
  }
}
