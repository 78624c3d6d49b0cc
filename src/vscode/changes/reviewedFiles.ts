// "Mark as Reviewed" in VS Code (marks: src/review/reviewedMarks.ts): from the changes list, the
// editor and diff editor title of a changed file, and the palette; kept in the workspace state
// so marks outlive a reload. After the agent's changes settle, a marked file whose bytes moved
// loses its mark; the user's own save outside a turn keeps it, also one that lands on disk
// just as a settle comes (the file is still dirty here then). The editor title's button follows
// the active file (context keys tandem.changedFile / tandem.changedFileReviewed).
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { ChangeTracker } from '../../client/changes/changeTracker';
import { Disposable, toDisposable } from '../../common/disposable';
import { Emitter } from '../../common/event';
import { ReviewedMarks, type ReviewedMark } from '../../review/reviewedMarks';
import { WORKSPACE_STATE } from '../storageKeys';
import { editorUri } from '../editor/workspacePorts';

/** Quiet time after the agent's last change before marked files are compared with their marks. */
const SETTLE_MS = 300;

export interface ReviewedFilesDeps {
  tracker: Pick<ChangeTracker, 'onDidChange' | 'allTurns' | 'canonical'>;
  state: vscode.Memento;
  /** The session the view shows (the editor's buttons act on its files). */
  shownSession(): string | undefined;
  /** Whether a turn of the session runs now (a save then may be the agent's). */
  working(sessionId: string): boolean;
}

export class ReviewedFiles extends Disposable {
  private marks: ReviewedMarks;
  private readonly changed = this._register(new Emitter<void>());
  /** A mark was set or cleared: lists and counts ask again. */
  readonly onDidChange = this.changed.event;
  private readonly settling = new Map<string, ReturnType<typeof setTimeout>>();
  private rechecking = Promise.resolve();
  private readonly settled = this._register(new Emitter<void>());

  constructor(private readonly d: ReviewedFilesDeps) {
    super();
    this.marks = new ReviewedMarks(d.state.get<ReviewedMark[]>(WORKSPACE_STATE.reviewedFiles, []));
    this._register(
      d.tracker.onDidChange(({ sessionId }) => {
        this.updateContext();
        clearTimeout(this.settling.get(sessionId));
        this.settling.set(
          sessionId,
          setTimeout(
            () => void this.inOrder(() => this.recheck(sessionId)).finally(() => this.settled.fire()),
            SETTLE_MS,
          ),
        );
      }),
    );
    this._register(vscode.workspace.onDidSaveTextDocument((doc) => this.userSaved(doc)));
    this._register(vscode.window.onDidChangeActiveTextEditor(() => this.updateContext()));
    this._register(this.onDidChange(() => this.updateContext()));
    this._register(toDisposable(() => this.settling.forEach((t) => clearTimeout(t))));
    this.updateContext();
  }

  /** Resolves once the agent's changes seen so far were compared with the marks. */
  async whenSettled(): Promise<void> {
    while (this.settling.size)
      await new Promise<void>((r) => {
        const once = this.settled.event(() => (once.dispose(), r()));
      });
    await this.rechecking;
  }

  /** Reads the marks again from the workspace state, as activation after a reload does. */
  reload(): void {
    this.marks = new ReviewedMarks(this.d.state.get<ReviewedMark[]>(WORKSPACE_STATE.reviewedFiles, []));
    this.changed.fire();
  }

  isReviewed(sessionId: string, path: string): boolean {
    return this.marks.isReviewed(sessionId, this.d.tracker.canonical(path));
  }

  /** How many files the agent changed in the session (and that were not undone) are not marked reviewed. */
  leftToReview(sessionId: string): number {
    const live = this.d.tracker
      .allTurns(sessionId)
      .flatMap((t) => t.files.filter((f) => f.state !== 'reverted').map((f) => f.path));
    return this.marks.leftToReview(sessionId, new Set(live));
  }

  /** Marks (or unmarks) `path` in `sessionId`, as it is now; only a file the agent changed there. */
  async set(sessionId: string, path: string, reviewed: boolean): Promise<boolean> {
    const p = this.d.tracker.canonical(path);
    if (!this.changedFiles(sessionId).has(p)) return false;
    if (reviewed) this.marks.mark(sessionId, p, await hashOf(p));
    else this.marks.unmark(sessionId, p);
    await this.save();
    return true;
  }

  /** The palette and the editor title: the active file, in the shown session. */
  async toggleActive(reviewed: boolean, uri?: vscode.Uri): Promise<void> {
    const sessionId = this.d.shownSession();
    const target = uri ?? vscode.window.activeTextEditor?.document.uri;
    if (!sessionId || target?.scheme !== 'file' || !(await this.set(sessionId, target.fsPath, reviewed)))
      void vscode.window.showInformationMessage('Tandem: the agent did not change this file in the shown session.');
  }

  private changedFiles(sessionId: string): Set<string> {
    return new Set(this.d.tracker.allTurns(sessionId).flatMap((t) => t.files.map((f) => f.path)));
  }

  private async recheck(sessionId: string): Promise<void> {
    this.settling.delete(sessionId);
    // A file with unsaved edits is the user's: its bytes on disk may already be their save, which
    // this extension host hears of a moment later (userSaved). Judged at a later settle instead.
    const editing = new Set(
      vscode.workspace.textDocuments
        .filter((d) => d.isDirty && d.uri.scheme === 'file')
        .map((d) => this.d.tracker.canonical(d.uri.fsPath)),
    );
    const marks = this.marks.of(sessionId).filter((m) => !editing.has(m.path));
    if (!marks.length) return;
    const now = new Map(await Promise.all(marks.map(async (m) => [m.path, await hashOf(m.path)] as const)));
    if (this.marks.afterAgentChange(sessionId, (p) => now.get(p)).length) await this.save();
  }

  private userSaved(doc: vscode.TextDocument): void {
    if (doc.uri.scheme !== 'file') return;
    const p = this.d.tracker.canonical(doc.uri.fsPath);
    const marked = this.d.tracker
      .allTurns()
      .map((t) => t.sessionId)
      .filter((s) => this.marks.isReviewed(s, p));
    // During a turn the save may be the agent's own write through the editor: the settle decides.
    if (!marked.length || marked.some((s) => this.d.working(s))) return;
    // The bytes as saved, read now; applied in order with the settles, so one that follows this
    // save (the agent's next turn, started right after it) compares with them, not the old mark.
    const saved = hashOf(p);
    void this.inOrder(async () => {
      this.marks.afterUserSave(p, await saved);
      await this.save();
    });
  }

  /** Runs `step` after the rechecks and saves before it; one that fails does not stop the later ones. */
  private inOrder(step: () => Promise<void>): Promise<void> {
    const run = this.rechecking.then(step);
    this.rechecking = run.catch(() => undefined);
    return run;
  }

  private async save(): Promise<void> {
    await this.d.state.update(WORKSPACE_STATE.reviewedFiles, this.marks.toJSON());
    this.changed.fire();
  }

  private updateContext(): void {
    const sessionId = this.d.shownSession();
    const doc = vscode.window.activeTextEditor?.document;
    const p = doc?.uri.scheme === 'file' ? this.d.tracker.canonical(doc.uri.fsPath) : undefined;
    const changed = !!sessionId && !!p && this.changedFiles(sessionId).has(p);
    void vscode.commands.executeCommand('setContext', 'tandem.changedFile', changed);
    void vscode.commands.executeCommand(
      'setContext',
      'tandem.changedFileReviewed',
      changed && this.marks.isReviewed(sessionId!, p!),
    );
  }
}

/** sha256 of the file's bytes; '' when it does not exist (a deleted file stays marked while deleted). */
async function hashOf(path: string): Promise<string> {
  try {
    return createHash('sha256')
      .update(await vscode.workspace.fs.readFile(editorUri(path)))
      .digest('hex');
  } catch {
    return '';
  }
}
