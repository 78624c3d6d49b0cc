// "Open diff": a tool call's diff content shown in VS Code's own diff editor. Both sides are
// read-only virtual documents (scheme tandem-diff) served from the session's tool call, so
// nothing is written to disk and the agent's file is untouched.
import * as vscode from 'vscode';
import { Disposable } from '../../common/disposable';
import type { SessionState } from '../../session/reducer';
import { getToolCall } from '../../session/snapshot';

export const DIFF_SCHEME = 'tandem-diff';

export class DiffDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly changed = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;

  /** `shownSession`: the state of the session whose tool calls the view shows. */
  constructor(private readonly shownSession: () => SessionState | undefined) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, this));
  }

  /** A diff of a tool call, or of a pending permission request's call (`requestId`). */
  private lookup(toolCallId: string, index: number, requestId?: string | null) {
    const state = this.shownSession();
    const asked = requestId ? state?.permissions.find((p) => p.requestId === requestId)?.toolCall : undefined;
    const c = requestId ? asked?.content?.[index] : state && getToolCall(state, toolCallId)?.content[index];
    return c?.type === 'diff' ? { path: c.path, oldText: c.oldText ?? null, newText: c.newText } : undefined;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const q = new URLSearchParams(uri.query);
    const d = this.lookup(q.get('call') ?? '', Number(q.get('i')), q.get('req'));
    if (!d) return '';
    return q.get('side') === 'old' ? (d.oldText ?? '') : d.newText;
  }

  async open(toolCallId: string, index: number, requestId?: string): Promise<boolean> {
    const d = this.lookup(toolCallId, index, requestId);
    if (!d) return false;
    const name = d.path.split(/[\\/]/).pop() || d.path;
    // The path keeps the file's extension, so the diff editor picks its language.
    const make = (side: string) =>
      vscode.Uri.from({
        scheme: DIFF_SCHEME,
        path: d.path.startsWith('/') ? d.path : `/${d.path}`,
        query: new URLSearchParams({
          call: toolCallId,
          i: String(index),
          side,
          ...(requestId ? { req: requestId } : {}),
        }).toString(),
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
