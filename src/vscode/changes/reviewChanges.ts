// "Review changes" (command tandem.reviewChanges): the files the agent changed in a turn, in a
// QuickPick. Selecting a file opens the native diff (snapshot before ↔ the file now); buttons
// keep or revert it; items keep or revert the whole turn. The snapshot side is served read-only
// by a TextDocumentContentProvider (scheme tandem-snapshot). Revert (undo) goes through a
// WorkspaceEdit, so it can be undone, and never takes later work with it (undoChange.ts): a file
// nobody changed since the agent gets the snapshot's exact bytes back (a created file is
// deleted); a file changed since loses only the turn's hunks, or the user is asked first; a
// buffer with unsaved edits is edited and left unsaved.
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { planUndo, undoQuestion, type UndoPlan } from '../../checkpoints/undoChange';
import { describeChange, folderDescription } from '../../client/changes/changeLabels';
import { beforeIfKnown } from '../../client/changes/changeEntries';
import type { ChangeTracker, FileChange } from '../../client/changes/changeTracker';
import { Disposable } from '../../common/disposable';
import { editorUri, type EditorEdits, findDocument, workspacePaths } from '../editor/workspacePorts';

export const SNAPSHOT_SCHEME = 'tandem-snapshot';

export function snapshotUri(c: Pick<FileChange, 'sessionId' | 'turn' | 'path'>): vscode.Uri {
  return vscode.Uri.from({
    scheme: SNAPSHOT_SCHEME,
    path: vscode.Uri.file(workspacePaths().display(c.path)).path,
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
    const before = c && beforeIfKnown(c);
    return before ? new TextDecoder().decode(before) : '';
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
    private readonly edits: EditorEdits,
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
        description: folderDescription(workspacePaths().display(c.path), roots()),
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
    const right = editorUri(c.path);
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

  /** Undoes one change (undoChange.ts: later work is kept, or the user is asked); undoable. */
  async revert(c: FileChange): Promise<void> {
    const r = await this.undo([c]);
    if (r.failed.length) throw new Error(r.failed.join('; '));
  }

  async revertTurn(sessionId: string, turn: number): Promise<void> {
    await this.undo(this.tracker.changes(sessionId, turn).filter((c) => c.state !== 'reverted'));
  }

  /**
   * Undoes the changes: each file is compared with what the agent left; those that cannot be
   * undone without losing what changed since are listed in one modal question first.
   */
  async undo(changes: readonly FileChange[]): Promise<UndoResult> {
    const failed: string[] = [];
    const name = (c: FileChange) => vscode.workspace.asRelativePath(workspacePaths().display(c.path));
    const plans: { c: FileChange; plan: UndoPlan }[] = [];
    // Together: the files share one workspace scan (undoChange.ts).
    const planned = await Promise.allSettled(changes.map(async (c) => ({ c, plan: await this.planOf(c) })));
    planned.forEach((p, i) => {
      if (p.status === 'fulfilled') plans.push(p.value);
      else failed.push(`${name(changes[i])}: ${p.reason instanceof Error ? p.reason.message : p.reason}`);
    });
    const asking = plans.filter((p) => p.plan.kind === 'conflict');
    let replace = false;
    if (asking.length) {
      const q = undoQuestion(asking.map(({ c, plan }) => ({ label: name(c), turn: c.turn, plan })));
      const choice = await vscode.window.showWarningMessage(q.message, { modal: true, detail: q.detail }, REPLACE);
      replace = choice === REPLACE;
    }
    let undone = 0;
    for (const { c, plan } of plans) {
      if (plan.kind === 'conflict' && !replace) continue;
      try {
        const bytes =
          plan.kind === 'merge' ? new TextEncoder().encode(plan.text) : plan.kind === 'none' ? undefined : plan.bytes;
        if (bytes === null) await this.edits.deleteFile(c.path);
        else if (bytes) await this.edits.restoreBytes(c.path, bytes); // an unsaved buffer stays unsaved
        this.tracker.setState(c.sessionId, c.turn, c.path, 'reverted');
        undone++;
      } catch (err) {
        failed.push(`${name(c)}: ${err instanceof Error ? err.message : err}`);
      }
    }
    const merged = plans.filter((p) => p.plan.kind === 'merge').length;
    return { undone, merged, kept: replace ? 0 : asking.length, failed };
  }

  /** How to undo `c`: what the agent left against the file now (its unsaved buffer, if any). */
  private async planOf(c: FileChange): Promise<UndoPlan> {
    const doc = findDocument(c.path);
    const onDisk = await readBytes(c.path);
    const current = doc?.isDirty ? new TextEncoder().encode(doc.getText()) : onDisk;
    // Nothing known changed the file since (no later turn, no saved edit): the disk is the agent's.
    const after = await this.tracker.agentAfter(c.sessionId, c.turn, c.path);
    return planUndo(c.before, after === undefined ? onDisk : after, current);
  }

  /** Undoes the files, then says how it went (and that Undo brings the agent's version back). */
  async revertWithMessage(changes: FileChange[]): Promise<void> {
    const r = await this.undo(changes);
    const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;
    if (r.failed.length) void vscode.window.showErrorMessage(`Tandem: could not revert ${r.failed.join('; ')}`);
    else if (r.kept)
      void vscode.window.showInformationMessage(`Tandem: left ${files(r.kept)} as they are; undid ${files(r.undone)}.`);
    else if (r.undone) {
      const inexact = changes.filter((c) => !c.exact).length;
      void vscode.window.setStatusBarMessage(
        `Tandem: reverted ${files(r.undone)}${r.merged ? ` (the changes made since kept in ${r.merged})` : ''}${inexact ? ` (${inexact} from the agent's diff, not a snapshot)` : ''} — Undo restores the agent's version`,
        5000,
      );
    }
  }
}

/** What an undo did: files undone (merged: of them, with later changes kept), left alone, failed. */
export interface UndoResult {
  readonly undone: number;
  readonly merged: number;
  readonly kept: number;
  readonly failed: string[];
}

const REPLACE = 'Undo and Lose Those Changes';

async function readBytes(path: string): Promise<Uint8Array | null> {
  try {
    return await vscode.workspace.fs.readFile(editorUri(path));
  } catch {
    return null;
  }
}

const roots = () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);

function stateIcon(c: FileChange): string {
  return c.state === 'kept'
    ? '$(check)'
    : c.state === 'reverted'
      ? '$(discard)'
      : beforeIfKnown(c) === null
        ? '$(diff-added)'
        : '$(diff-modified)';
}
