// The review comments as VS Code comment threads (the Comments API): the "+" in the gutter of a
// file the shown session's agent changed — in the editor, in a diff editor's right side and in the
// multi-file diff, where that side is the file itself — and one thread per comment, showing the
// user's notes, whether the comment is pending, sent or outdated, and for an outdated one what
// the lines read now. The threads follow the store (feedbackComments.ts): drawn again whenever it
// changes, created for comments read back from storage after a reload.
import * as vscode from 'vscode';
import type { ChangeTracker } from '../../client/changes/changeTracker';
import { Disposable, toDisposable } from '../../common/disposable';
import type { FeedbackComment, FeedbackComments, FeedbackNote } from '../../review/feedbackComments';
import { fenceLanguage, quoteCode } from '../../review/feedbackPrompt';
import { anchorEnd } from '../../review/lineAnchor';
import { editorUri } from '../editor/workspacePorts';

export const FEEDBACK_CONTROLLER_ID = 'tandem.feedback';

/** A note of a comment, as its thread shows it (the delete action gets this object back). */
export class NoteComment implements vscode.Comment {
  readonly mode = vscode.CommentMode.Preview;
  readonly author = { name: 'You' };
  readonly contextValue = 'note';
  readonly body: string;
  readonly timestamp: Date;
  constructor(
    readonly commentId: string,
    readonly note: FeedbackNote,
  ) {
    this.body = note.body;
    this.timestamp = new Date(note.at);
  }
}

const LABEL: Record<FeedbackComment['status'], string> = {
  pending: 'Pending: Send Feedback sends it to the agent',
  sent: 'Sent to the agent',
  outdated: 'Outdated: the agent changed these lines',
};

export class FeedbackThreads extends Disposable implements vscode.CommentingRangeProvider {
  readonly controller: vscode.CommentController;
  private readonly threads = new Map<string, vscode.CommentThread>();
  private readonly drawn = new Map<string, string>();
  private readonly ids = new WeakMap<vscode.CommentThread, string>();
  private refreshTimer?: ReturnType<typeof setTimeout>;
  /** The thread the user typed a new comment in, while that comment is added to the store. */
  private adopting?: vscode.CommentThread;

  constructor(
    private readonly store: FeedbackComments,
    private readonly tracker: Pick<ChangeTracker, 'allTurns' | 'canonical' | 'onDidChange'>,
    private readonly shownSession: () => string | undefined,
  ) {
    super();
    this.controller = this._register(
      vscode.comments.createCommentController(FEEDBACK_CONTROLLER_ID, 'Tandem Feedback'),
    );
    this.controller.options = {
      prompt: 'Comment for the agent…',
      placeHolder: 'What should the agent change here? (Send Feedback sends all pending comments as one prompt)',
    };
    this.controller.commentingRangeProvider = this;
    this._register(store.onDidChange(() => this.draw()));
    this._register(tracker.onDidChange(() => this.offerAgain()));
    this._register(
      toDisposable(() => {
        clearTimeout(this.refreshTimer);
        for (const t of this.threads.values()) t.dispose();
      }),
    );
    this.draw();
  }

  /** Lines of files the shown session's agent changed can be commented on; other files cannot. */
  provideCommentingRanges(document: vscode.TextDocument): vscode.Range[] {
    if (document.uri.scheme !== 'file' || !this.changedByShownSession(document.uri)) return [];
    return [new vscode.Range(0, 0, Math.max(0, document.lineCount - 1), 0)];
  }

  changedByShownSession(uri: vscode.Uri): boolean {
    const sid = this.shownSession();
    if (!sid) return false;
    const path = this.tracker.canonical(uri.fsPath);
    return this.tracker.allTurns(sid).some((t) => t.files.some((f) => f.path === path));
  }

  /** The shown session or its changes moved on: VS Code asks for the commenting ranges again. */
  offerAgain(): void {
    this.refreshTimer ??= setTimeout(() => {
      this.refreshTimer = undefined;
      // Setting the provider again is what makes VS Code ask it again (no event in the API).
      this.controller.commentingRangeProvider = this;
    }, 50);
  }

  /** A new thread for code (tests and commands): VS Code makes the one the user opens with "+". */
  createThread(uri: vscode.Uri, range: vscode.Range): vscode.CommentThread {
    return this.controller.createCommentThread(uri, range, []);
  }

  /** The thread that shows comment `id`. */
  threadOf(id: string): vscode.CommentThread | undefined {
    return this.threads.get(id);
  }

  /** The comment a thread shows, once it is one (an empty thread the user just opened is not yet). */
  commentOf(thread: vscode.CommentThread): string | undefined {
    return this.ids.get(thread);
  }

  /** Runs `add`, which adds one comment to the store: `thread` (the one the user typed in) shows it. */
  adopt<T>(thread: vscode.CommentThread, add: () => T): T {
    this.adopting = thread;
    try {
      return add();
    } finally {
      this.adopting = undefined;
    }
  }

  /** Every comment's thread as the store says: new ones made, changed ones drawn, gone ones closed. */
  private draw(): void {
    const live = new Set<string>();
    for (const c of this.store.all()) {
      live.add(c.id);
      let thread = this.threads.get(c.id);
      if (!thread) {
        thread = this.adopting ?? this.controller.createCommentThread(editorUri(c.path), rangeOf(c), []);
        // A comment just made stays open; those read back after a reload start folded.
        thread.collapsibleState = this.adopting
          ? vscode.CommentThreadCollapsibleState.Expanded
          : vscode.CommentThreadCollapsibleState.Collapsed;
        this.adopting = undefined;
        this.threads.set(c.id, thread);
        this.ids.set(thread, c.id);
      }
      const look = JSON.stringify([c.status, c.anchor.start, c.anchor.lines.length, c.notes, c.now]);
      if (this.drawn.get(c.id) === look) continue;
      this.drawn.set(c.id, look);
      drawThread(thread, c);
    }
    for (const [id, thread] of this.threads)
      if (!live.has(id)) {
        this.threads.delete(id);
        this.drawn.delete(id);
        thread.dispose();
      }
  }
}

function drawThread(thread: vscode.CommentThread, c: FeedbackComment): void {
  thread.range = rangeOf(c);
  thread.label = LABEL[c.status];
  thread.contextValue = c.status;
  thread.canReply = true;
  thread.state = vscode.CommentThreadState.Unresolved;
  const notes: vscode.Comment[] = c.notes.map((n) => new NoteComment(c.id, n));
  if (c.status === 'outdated') {
    notes.push(nowComment(c));
    thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
  }
  thread.comments = notes;
}

/** Where a comment's thread stands: its lines, or what replaced them when it is outdated. */
function rangeOf(c: FeedbackComment): vscode.Range {
  const now = c.now;
  if (now?.kind === 'changed') return new vscode.Range(now.start, 0, now.start + now.lines.length - 1, 0);
  if (now?.kind === 'deleted') return new vscode.Range(now.start, 0, now.start, 0);
  return new vscode.Range(c.anchor.start, 0, anchorEnd(c.anchor), 0);
}

/** The last entry of an outdated thread: what the lines read now. */
function nowComment(c: FeedbackComment): vscode.Comment {
  const now = c.now;
  const body = new vscode.MarkdownString();
  if (now?.kind === 'changed')
    body.appendMarkdown('The lines read now:\n\n').appendMarkdown(quoteCode(now.lines, fenceLanguage(c.path)));
  else if (now?.kind === 'deleted') body.appendMarkdown('The agent deleted these lines.');
  else if (now?.kind === 'fileGone') body.appendMarkdown('The file is gone.');
  else body.appendMarkdown('These lines changed.');
  body.appendMarkdown('\n\n*Re-send* sends the comment again with the lines as they are now; *Resolve* closes it.');
  return {
    body,
    mode: vscode.CommentMode.Preview,
    author: { name: 'Tandem' },
    label: 'after the agent\u2019s turn',
    contextValue: 'now',
  };
}
