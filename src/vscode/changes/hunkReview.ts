// Per-hunk review in the editor of the agent's pending changes: the changed lines decorated,
// "Keep | Undo" above each hunk (CodeLens), "Keep All | Undo All" above the first, next / previous
// change. A file is under review while the ChangeTracker holds a pending entry for it in the
// shown session; its original is the `before` of the earliest such entry. The hunks are the
// FileReview model's (baseline = original + kept hunks ↔ the document now), so undoing one hunk
// leaves the others. When no hunk is left the entries become kept (or reverted, when the file is
// the original again): the session view and Review Changes show that state, and a keep / undo
// there ends the review here. An undo here is saved only when the document had no unsaved edits:
// the user's unsaved work is never saved for them.
import * as vscode from 'vscode';
import { decodeExact, FileReview } from '../../checkpoints/hunks';
import type { ChangeTracker, FileChange } from '../../client/changes/changeTracker';
import { Disposable } from '../../common/disposable';

interface Reviewed {
  readonly review: FileReview;
  readonly entries: FileChange[];
}

export class HunkReview extends Disposable implements vscode.CodeLensProvider {
  private readonly reviews = new Map<string, FileReview>();
  private readonly lensesChanged = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  private readonly added = this._register(
    vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      backgroundColor: new vscode.ThemeColor('diffEditor.insertedLineBackground'),
      overviewRulerColor: new vscode.ThemeColor('editorGutter.addedBackground'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    }),
  );
  /** Lines removed where nothing was added: a line above the place they were. */
  private readonly removed = this._register(
    vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      borderStyle: 'solid',
      borderWidth: '2px 0 0 0',
      borderColor: new vscode.ThemeColor('editorGutter.deletedBackground'),
      overviewRulerColor: new vscode.ThemeColor('editorGutter.deletedBackground'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    }),
  );

  constructor(
    private readonly tracker: ChangeTracker,
    private readonly currentSessionId: () => string | undefined,
    private readonly revert: (c: FileChange) => Promise<void>,
  ) {
    super();
    this._register(vscode.languages.registerCodeLensProvider({ scheme: 'file' }, this));
    const cmd = (id: string, run: (uri: vscode.Uri | undefined, i?: number) => unknown) =>
      this._register(
        vscode.commands.registerCommand(id, (uri?: unknown, i?: unknown) =>
          run(uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri, Number(i ?? 0)),
        ),
      );
    cmd('tandem.keepHunk', (uri, i) => uri && this.keep(uri, i ?? 0));
    cmd('tandem.undoHunk', (uri, i) => uri && this.undo(uri, i ?? 0));
    cmd('tandem.keepFileChanges', (uri) => uri && this.keepAll(uri));
    cmd('tandem.undoFileChanges', (uri) => uri && this.undoAll(uri));
    cmd('tandem.nextChange', () => this.move(1));
    cmd('tandem.previousChange', () => this.move(-1));
    this._register(tracker.onDidChange(() => this.refresh()));
    this._register(vscode.window.onDidChangeVisibleTextEditors(() => this.refresh()));
    this._register(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (this.reviews.has(e.document.uri.fsPath)) this.refresh();
      }),
    );
  }

  /** The pending entries of `path` in the shown session, oldest turn first. */
  private pending(path: string): FileChange[] {
    const sid = this.currentSessionId();
    if (!sid) return [];
    path = this.tracker.canonical(path); // the editor's form may be a symlinked folder's
    return this.tracker
      .allTurns(sid)
      .flatMap((t) => t.files)
      .filter((c) => c.path === path && c.state === 'pending')
      .sort((a, b) => a.turn - b.turn);
  }

  /** The file's review against the document's text now (undefined: nothing pending, or binary). */
  reviewOf(doc: vscode.TextDocument): Reviewed | undefined {
    const path = doc.uri.fsPath;
    const entries = doc.uri.scheme === 'file' ? this.pending(path) : [];
    const original = entries.length ? (entries[0].before ? decodeExact(entries[0].before) : '') : undefined;
    if (original === undefined) {
      this.reviews.delete(path);
      return undefined;
    }
    let review = this.reviews.get(path);
    if (!review || review.original !== original) this.reviews.set(path, (review = new FileReview(path, original, '')));
    review.update(doc.getText());
    return { review, entries };
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const r = this.reviewOf(doc);
    if (!r) return [];
    const lenses: vscode.CodeLens[] = [];
    r.review.hunks.forEach((h, i) => {
      const line = Math.min(h.newStart, Math.max(0, doc.lineCount - 1));
      const range = new vscode.Range(line, 0, line, 0);
      const args = [doc.uri, i];
      if (i === 0 && r.review.hunks.length > 1) {
        lenses.push(
          new vscode.CodeLens(range, { title: 'Keep All', command: 'tandem.keepFileChanges', arguments: [doc.uri] }),
        );
        lenses.push(
          new vscode.CodeLens(range, { title: 'Undo All', command: 'tandem.undoFileChanges', arguments: [doc.uri] }),
        );
      }
      lenses.push(new vscode.CodeLens(range, { title: 'Keep', command: 'tandem.keepHunk', arguments: args }));
      lenses.push(new vscode.CodeLens(range, { title: 'Undo', command: 'tandem.undoHunk', arguments: args }));
    });
    return lenses;
  }

  async keep(uri: vscode.Uri, i: number): Promise<void> {
    const r = await this.open(uri);
    if (!r) return;
    r.review.keep(i);
    this.settle(r);
  }

  async undo(uri: vscode.Uri, i: number): Promise<void> {
    const r = await this.open(uri);
    if (!r) return;
    const e = r.review.undo(i);
    const doc = await vscode.workspace.openTextDocument(uri);
    const wasDirty = doc.isDirty;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(e.startLine, 0, e.endLine, 0), e.text, {
      needsConfirmation: false,
      label: 'Tandem: undo agent change',
    });
    await vscode.workspace.applyEdit(edit);
    await this.save(doc, wasDirty);
    this.settle(r);
  }

  /**
   * The file on disk follows the editor (the checkpoints see the undo as the user's edit), unless
   * the document had unsaved edits before: saving would save those too, so it stays unsaved.
   */
  private async save(doc: vscode.TextDocument, wasDirty: boolean): Promise<void> {
    if (wasDirty) return;
    if (!(await doc.save())) void vscode.window.showWarningMessage(`Tandem: could not save ${doc.uri.fsPath}.`);
  }

  async keepAll(uri: vscode.Uri): Promise<void> {
    const r = await this.open(uri);
    if (!r) return;
    r.review.keepAll();
    this.settle(r);
  }

  async undoAll(uri: vscode.Uri): Promise<void> {
    const r = await this.open(uri);
    if (!r) return;
    // Nothing kept: each turn's change is undone, newest first (Review Changes' undo: a file
    // nobody changed since gets its original bytes back, a created one is deleted; a later
    // change is kept, or the user is asked).
    if (r.review.baseline === r.review.original) {
      for (const c of [...r.entries].reverse()) await this.revert(c);
      return;
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    const wasDirty = doc.isDirty;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(0, 0, doc.lineCount, 0), r.review.undoAll());
    await vscode.workspace.applyEdit(edit);
    await this.save(doc, wasDirty);
    this.settle(r);
  }

  private async open(uri: vscode.Uri): Promise<Reviewed | undefined> {
    const r = this.reviewOf(await vscode.workspace.openTextDocument(uri));
    if (!r) void vscode.window.showInformationMessage('Tandem: the agent has no pending changes in this file.');
    return r;
  }

  /** No hunk left: the entries take the file's state (the session view follows). */
  private settle(r: Reviewed): void {
    const state = r.review.state;
    if (state !== 'pending')
      for (const c of r.entries)
        this.tracker.setState(c.sessionId, c.turn, c.path, state === 'kept' ? 'kept' : 'reverted');
    this.refresh();
  }

  private move(dir: 1 | -1): void {
    const editor = vscode.window.activeTextEditor;
    const hunks = editor && this.reviewOf(editor.document)?.review.hunks;
    if (!editor || !hunks?.length) return;
    const at = editor.selection.active.line;
    const starts = hunks.map((h) => h.newStart);
    const next =
      dir > 0
        ? (starts.find((s) => s > at) ?? starts[0])
        : ([...starts].reverse().find((s) => s < at) ?? starts.at(-1)!);
    const pos = new vscode.Position(next, 0);
    editor.selection = new vscode.Selection(pos, pos);
    editor.revealRange(new vscode.Range(pos, pos), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  private refresh(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      const hunks = this.reviewOf(editor.document)?.review.hunks ?? [];
      editor.setDecorations(
        this.added,
        hunks
          .filter((h) => h.newLines.length)
          .map((h) => new vscode.Range(h.newStart, 0, h.newStart + h.newLines.length - 1, 0)),
      );
      editor.setDecorations(
        this.removed,
        hunks.filter((h) => !h.newLines.length).map((h) => new vscode.Range(h.newStart, 0, h.newStart, 0)),
      );
    }
    this.lensesChanged.fire();
  }
}
