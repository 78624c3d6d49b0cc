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
import { ChangedSymbols } from './changedSymbols';
import type { ReviewedFiles } from './reviewedFiles';
import { snapshotUri, type ReviewChanges } from './reviewChanges';
import { editorUri, workspacePaths } from '../editor/workspacePorts';

export class SessionChanges extends Disposable {
  private readonly changed = this._register(new Emitter<void>());
  private readonly symbols = this._register(new ChangedSymbols());
  /** The changes or their states changed (batched): a view asks for its turns again. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly tracker: ChangeTracker,
    private readonly review: ReviewChanges,
    private readonly currentSessionId: () => string | undefined,
    private readonly reviewed?: Pick<ReviewedFiles, 'isReviewed' | 'set' | 'onDidChange'>,
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
    if (reviewed) this._register(reviewed.onDidChange(changed));
    this._register(this.symbols.onDidLearn(changed));
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

  /**
   * The files the agent changed in `turn` of the shown session, with that turn's own line counts:
   * before the turn ↔ the file when a later turn of the agent next changed it (a later turn's
   * changes are not this turn's), else the file now (a hunk the user undid since counts no more).
   */
  async list(turn: number): Promise<ChangedFile[]> {
    return Promise.all(
      this.changes(turn).map(async (c) => {
        const { bytes: end, now } = await this.endOf(c);
        const before = beforeOrNow(c, end);
        // Symbols are the file's as it is now: named only when the turn's end is the file now.
        const symbols = now && c.state !== 'reverted' ? await this.symbols.describe(c.path, before, end) : undefined;
        return {
          path: c.path,
          label: vscode.workspace.asRelativePath(workspacePaths().display(c.path)),
          ...summarizeChange(before, end),
          state: c.state,
          ...(this.reviewed?.isReviewed(c.sessionId, c.path) ? { reviewed: true as const } : {}),
          ...(symbols ? { symbols } : {}),
        };
      }),
    );
  }

  /** The file as `c`'s turn left it for the next turn that changed it, else as it is now (`now`). */
  private async endOf(c: FileChange): Promise<{ bytes: Uint8Array | null; now: boolean }> {
    const next = this.tracker
      .allTurns(c.sessionId)
      .filter((t) => t.turn > c.turn)
      .flatMap((t) => t.files.filter((f) => f.path === c.path))
      .sort((x, y) => x.turn - y.turn)[0];
    const known = next && beforeIfKnown(next);
    return known === undefined ? { bytes: await readFile(c.path), now: true } : { bytes: known, now: false };
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
        return;
      case 'reviewed':
      case 'unreviewed':
        for (const c of files) await this.reviewed?.set(c.sessionId, c.path, action === 'reviewed');
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
    await vscode.commands.executeCommand(
      'vscode.changes',
      `Tandem: changes of turn ${turn + 1} and after (before it ↔ now)`,
      resources,
    );
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
