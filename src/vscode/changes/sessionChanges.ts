// The agent's changes as the session view shows them, per turn: each file with +/− lines and
// created / deleted, a click opens the native diff (before the turn ↔ now), "Review" opens all of
// them in VS Code's multi-file diff editor (vscode.changes), keep / undo per file or per turn. The
// model is the ChangeTracker that Review Changes and the editor's per-hunk actions use, so all
// three show the same state; the view is told to ask again whenever it changes. Entries' paths are
// canonical (a symlinked workspace folder's real path); the editor's form is used to show them.
import * as vscode from 'vscode';
import { summarizeChange } from '../../checkpoints/changeSummary';
import { beforeIfKnown } from '../../client/changes/changeEntries';
import type { ChangeTracker, FileChange } from '../../client/changes/changeTracker';
import { Disposable, toDisposable } from '../../common/disposable';
import { Emitter } from '../../common/event';
import type { ChangeAction, ChangedFile } from '../../shared/protocol';
import { snapshotUri, type ReviewChanges } from './reviewChanges';
import { editorUri, workspacePaths } from '../editor/workspacePorts';

export class SessionChanges extends Disposable {
  private readonly changed = this._register(new Emitter<void>());
  /** The changes or their states changed (batched): a view asks for its turns again. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly tracker: ChangeTracker,
    private readonly review: ReviewChanges,
    private readonly currentSessionId: () => string | undefined,
  ) {
    super();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const changed = () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        this.changed.fire();
      }, 50);
    };
    this._register(tracker.onDidChange(changed));
    // A saved edit of a changed file (a hunk undone in the editor) changes its +/− counts.
    this._register(
      vscode.workspace.onDidSaveTextDocument((d) => {
        const sid = currentSessionId();
        const path = tracker.canonical(d.uri.fsPath);
        if (sid && tracker.allTurns(sid).some((t) => t.files.some((c) => c.path === path))) changed();
      }),
    );
    this._register(toDisposable(() => clearTimeout(timer)));
  }

  private changes(turn: number): FileChange[] {
    const sid = this.currentSessionId();
    return sid ? this.tracker.changes(sid, turn) : [];
  }

  /** The files the agent changed in `turn` of the shown session, with their line counts now. */
  async list(turn: number): Promise<ChangedFile[]> {
    return Promise.all(
      this.changes(turn).map(async (c) => {
        const now = await readFile(c.path);
        return {
          path: c.path,
          label: vscode.workspace.asRelativePath(workspacePaths().display(c.path)),
          ...summarizeChange(beforeOrNow(c, now), now),
          state: c.state,
        };
      }),
    );
  }

  /** One file (`path`) or, without it, the whole turn. Only files the agent changed are touched. */
  async act(turn: number, action: ChangeAction, path?: string): Promise<void> {
    const all = this.changes(turn);
    const want = path === undefined ? undefined : this.tracker.canonical(path);
    const files = want === undefined ? all : all.filter((c) => c.path === want);
    if (!files.length) {
      void vscode.window.showWarningMessage('Tandem: that change is no longer in the session.');
      return;
    }
    switch (action) {
      case 'diff':
        await this.review.openDiff(files[0]);
        return;
      case 'review':
        await this.openAll(turn, files);
        return;
      case 'keep':
        for (const c of files) this.review.keep(c);
        return;
      case 'undo':
        await this.review.revertWithMessage(files.filter((c) => c.state !== 'reverted'));
    }
  }

  /** Every file of the turn in the multi-file diff editor (before the turn ↔ now). */
  async openAll(turn: number, files: readonly FileChange[]): Promise<void> {
    const resources = await Promise.all(
      files.map(async (c) => {
        const right = (await readFile(c.path)) ? editorUri(c.path) : snapshotUri({ ...c, turn: -1 });
        return [editorUri(c.path), snapshotUri(c), right] as const;
      }),
    );
    await vscode.commands.executeCommand('vscode.changes', `Tandem: changes of turn ${turn + 1}`, resources);
  }
}

async function readFile(path: string): Promise<Uint8Array | null> {
  try {
    return await vscode.workspace.fs.readFile(editorUri(path));
  } catch {
    return null;
  }
}

/**
 * What a change started from, for its line counts: null for a created file; the file as it is now
 * when the snapshot is gone past the memory cap (no lines counted rather than failing the list).
 */
function beforeOrNow(c: FileChange, now: Uint8Array | null): Uint8Array | null {
  const before = beforeIfKnown(c);
  return before === undefined ? now : before;
}
