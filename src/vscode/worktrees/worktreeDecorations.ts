// Files of a session's worktree look like the project's own in editor tabs and the explorer of a
// diff; a badge and a tooltip say whose copy they are, so an edit is never made in the wrong one.
import * as vscode from 'vscode';
import { Disposable } from '../../common/disposable';
import type { WorktreeSessions } from './worktreeSessions';

export class WorktreeDecorations extends Disposable implements vscode.FileDecorationProvider {
  private readonly changed = this._register(new vscode.EventEmitter<undefined>());
  readonly onDidChangeFileDecorations = this.changed.event;

  constructor(private readonly sessions: WorktreeSessions) {
    super();
    this._register(vscode.window.registerFileDecorationProvider(this));
    this._register(sessions.onDidChange(() => this.changed.fire(undefined)));
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    if (uri.scheme !== 'file') return undefined;
    const r = this.sessions.holding(uri.fsPath);
    if (!r) return undefined;
    return {
      badge: 'WT',
      tooltip: `In ${r.agentName}'s worktree on ${r.worktree.branch} — not your working tree`,
      color: new vscode.ThemeColor('gitDecoration.submoduleResourceForeground'),
    };
  }
}
