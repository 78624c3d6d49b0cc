// "Review changes" (command tandem.reviewChanges): the files the agent changed in a turn, in a
// QuickPick. Selecting a file opens the native diff (snapshot before ↔ the file now); buttons
// keep or revert it; items keep or revert the whole turn. The snapshot side is served read-only
// by a TextDocumentContentProvider (scheme tandem-snapshot). Revert restores the snapshot's exact
// bytes (a created file is deleted) through a WorkspaceEdit, so it can be undone.
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { describeChange, folderDescription } from '../client/changeLabels';
import type { ChangeTracker, FileChange } from '../client/changeTracker';
import type { EditPort } from '../client/ports';
import { Disposable } from '../common/disposable';

export const SNAPSHOT_SCHEME = 'tandem-snapshot';

export function snapshotUri(c: Pick<FileChange, 'sessionId' | 'turn' | 'path'>): vscode.Uri {
  return vscode.Uri.from({
    scheme: SNAPSHOT_SCHEME,
    path: vscode.Uri.file(c.path).path,
    query: JSON.stringify({ s: c.sessionId, t: c.turn }),
  });
}

class SnapshotProvider extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly changed = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;
  constructor(private readonly tracker: ChangeTracker) {
    super();
  }
  provideTextDocumentContent(uri: vscode.Uri): string {
    let q: { s: string; t: number };
    try {
      q = JSON.parse(uri.query);
    } catch {
      return '';
    }
    const c = this.tracker.get(q.s, q.t, vscode.Uri.from({ scheme: 'file', path: uri.path }).fsPath);
    return c?.before ? new TextDecoder().decode(c.before) : '';
  }
}

interface FileItem extends vscode.QuickPickItem {
  change: FileChange;
}
interface ActionItem extends vscode.QuickPickItem {
  action: 'keepAll' | 'revertAll' | 'otherTurn';
}

const KEEP: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('check'), tooltip: 'Keep this change' };
const REVERT: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('discard'),
  tooltip: 'Revert this file to before the turn',
};

export class ReviewChanges extends Disposable {
  constructor(
    private readonly tracker: ChangeTracker,
    private readonly edits: EditPort,
    private readonly currentSessionId: () => string | undefined,
  ) {
    super();
    const provider = this._register(new SnapshotProvider(tracker));
    this._register(vscode.workspace.registerTextDocumentContentProvider(SNAPSHOT_SCHEME, provider));
    this._register(
      vscode.commands.registerCommand('tandem.reviewChanges', (arg?: { sessionId?: string; turn?: number }) =>
        this.show(arg),
      ),
    );
  }

  /** Turns with changes, newest first (the current session's first). */
  turns() {
    const sid = this.currentSessionId();
    const all = this.tracker.allTurns();
    return [...all.filter((t) => t.sessionId === sid), ...all.filter((t) => t.sessionId !== sid)];
  }

  async show(arg?: { sessionId?: string; turn?: number }): Promise<void> {
    const turns = this.turns();
    if (!turns.length) {
      void vscode.window.showInformationMessage('Tandem: the agent has not changed any files yet.');
      return;
    }
    const t =
      (arg?.turn !== undefined
        ? turns.find((x) => x.turn === arg.turn && (!arg.sessionId || x.sessionId === arg.sessionId))
        : undefined) ?? turns[0];
    await this.pick(t.sessionId, t.turn, turns.length > 1);
  }

  private async pick(sessionId: string, turn: number, more: boolean): Promise<void> {
    const qp = vscode.window.createQuickPick<FileItem | ActionItem>();
    qp.title = `Tandem: changes of turn ${turn + 1}`;
    qp.placeholder = 'Select a file to see its diff; use the buttons to keep or revert';
    qp.matchOnDescription = true;
    const refresh = () => {
      const files = this.tracker.changes(sessionId, turn);
      const items: (FileItem | ActionItem)[] = files.map((c) => ({
        label: `${stateIcon(c)} ${nodePath.basename(c.path)}`,
        description: folderDescription(c.path, roots()),
        detail: describeChange(c),
        buttons: c.state === 'reverted' ? [KEEP] : c.state === 'kept' ? [REVERT] : [KEEP, REVERT],
        change: c,
      }));
      items.push({ label: '', kind: vscode.QuickPickItemKind.Separator } as ActionItem);
      items.push(
        { label: '$(check-all) Keep all', action: 'keepAll' },
        { label: '$(discard) Revert all', action: 'revertAll' },
      );
      if (more) items.push({ label: '$(history) Another turn…', action: 'otherTurn' });
      qp.items = items;
    };
    refresh();
    const sub = this.tracker.onDidChange((e) => {
      if (e.sessionId === sessionId && e.turn === turn) refresh();
    });
    qp.onDidTriggerItemButton(async (e) => {
      const c = (e.item as FileItem).change;
      if (e.button === KEEP) this.keep(c);
      else await this.revertWithMessage([c]);
    });
    qp.onDidAccept(async () => {
      const item = qp.selectedItems[0];
      if (!item) return;
      if ('change' in item) {
        await this.openDiff(item.change);
        return;
      }
      if (item.action === 'keepAll') {
        for (const c of this.tracker.changes(sessionId, turn)) this.keep(c);
        qp.hide();
      } else if (item.action === 'revertAll') {
        qp.hide();
        await this.revertWithMessage(this.tracker.changes(sessionId, turn).filter((c) => c.state !== 'reverted'));
      } else {
        qp.hide();
        await this.pickTurn();
      }
    });
    qp.onDidHide(() => {
      sub.dispose();
      qp.dispose();
    });
    qp.show();
  }

  private async pickTurn(): Promise<void> {
    const turns = this.turns();
    const pick = await vscode.window.showQuickPick(
      turns.map((t) => ({
        label: `Turn ${t.turn + 1}`,
        description: `${t.files.length} file${t.files.length === 1 ? '' : 's'}`,
        t,
      })),
      { title: 'Tandem: review changes of turn…' },
    );
    if (pick) await this.pick(pick.t.sessionId, pick.t.turn, turns.length > 1);
  }

  /** Opens the native diff: snapshot (before the turn) ↔ the file now. */
  async openDiff(c: FileChange): Promise<void> {
    const name = nodePath.basename(c.path);
    const right = vscode.Uri.file(c.path);
    let exists = true;
    try {
      await vscode.workspace.fs.stat(right);
    } catch {
      exists = false;
    }
    const title = `${name} (before turn ${c.turn + 1} ↔ ${exists ? 'now' : 'deleted'})`;
    await vscode.commands.executeCommand(
      'vscode.diff',
      snapshotUri(c),
      exists ? right : snapshotUri({ ...c, turn: -1 }),
      title,
      { preview: true, preserveFocus: false },
    );
  }

  keep(c: FileChange): void {
    this.tracker.setState(c.sessionId, c.turn, c.path, 'kept');
  }

  /** Restores the snapshot exactly (a file the agent created is deleted); undoable. */
  async revert(c: FileChange): Promise<void> {
    if (c.before === null) await this.edits.deleteFile(c.path);
    else await this.edits.restoreBytes(c.path, c.before);
    this.tracker.setState(c.sessionId, c.turn, c.path, 'reverted');
  }

  async revertTurn(sessionId: string, turn: number): Promise<void> {
    for (const c of this.tracker.changes(sessionId, turn)) if (c.state !== 'reverted') await this.revert(c);
  }

  /** Reverts the files, then says how it went (and that Undo brings the agent's version back). */
  async revertWithMessage(changes: FileChange[]): Promise<void> {
    const failed: string[] = [];
    for (const c of changes) {
      try {
        await this.revert(c);
      } catch (err) {
        failed.push(`${nodePath.basename(c.path)}: ${err instanceof Error ? err.message : err}`);
      }
    }
    if (failed.length) void vscode.window.showErrorMessage(`Tandem: could not revert ${failed.join('; ')}`);
    else if (changes.length) {
      const inexact = changes.filter((c) => !c.exact).length;
      void vscode.window.setStatusBarMessage(
        `Tandem: reverted ${changes.length} file${changes.length === 1 ? '' : 's'}${inexact ? ` (${inexact} from the agent's diff, not a snapshot)` : ''} — Undo restores the agent's version`,
        5000,
      );
    }
  }
}

const roots = () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);

function stateIcon(c: FileChange): string {
  return c.state === 'kept'
    ? '$(check)'
    : c.state === 'reverted'
      ? '$(discard)'
      : c.before === null
        ? '$(diff-added)'
        : '$(diff-modified)';
}
