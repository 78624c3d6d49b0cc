// What the user does with review comments, and what happens to them after the agent's turns:
// add one on lines of a file the agent changed (it belongs to the session shown then), reply,
// delete a note, resolve, re-send an outdated one, and "Send Feedback": a session's pending
// comments as one prompt (feedbackPrompt.ts) quoting each one's lines as they read now, through
// the PromptSender — queued when the session's turn is still running. After each turn of a
// session its comments are looked for again (lineAnchor.ts): moved with their lines, or outdated.
import { basename } from 'node:path';
import type { SessionPlace } from '../../client/connection/sessionPlace';
import * as vscode from 'vscode';
import type { ChangeTracker } from '../../client/changes/changeTracker';
import { Disposable } from '../../common/disposable';
import type { Logger } from '../../common/logger';
import type { FeedbackComment, FeedbackComments } from '../../review/feedbackComments';
import { feedbackPrompt, type FeedbackItem } from '../../review/feedbackPrompt';
import { anchorAt, type LineAnchor, locate } from '../../review/lineAnchor';
import type { Controller } from '../agent/controller';
import { editorUri, findDocument, workspacePaths } from '../editor/workspacePorts';
import type { PromptSender } from '../prompts/promptSender';
import type { TurnEnds } from '../prompts/turnEnds';
import type { FeedbackThreads, NoteComment } from './feedbackThreads';

export interface FeedbackReviewDeps {
  store: FeedbackComments;
  threads: FeedbackThreads;
  tracker: Pick<ChangeTracker, 'canonical'>;
  ctl: Pick<Controller, 'current' | 'clientOf' | 'queues'>;
  sender: Pick<PromptSender, 'sendTo'>;
  turns: Pick<TurnEnds, 'onDidEnd'>;
  logger: Logger;
  /** A worktree session's folder: the prompt's paths are relative to it, not to the workspace. */
  placeOf?(sessionId: string): SessionPlace | undefined;
}

/** What "Send Feedback" did: sent as a new turn, queued behind the running one, or why not. */
export type SendOutcome = 'sent' | 'queued' | 'nothingPending' | 'sessionClosed';

export class FeedbackReview extends Disposable {
  private readonly store: FeedbackComments;
  /** The latest look at a session's comments after its turn (tests wait on it). */
  lastRecheck: Promise<void> = Promise.resolve();

  constructor(private readonly d: FeedbackReviewDeps) {
    super();
    this.store = d.store;
    this._register(
      d.turns.onDidEnd(({ sessionId }) => {
        this.lastRecheck = this.recheck(sessionId).catch((err) =>
          d.logger.error(
            `Checking the review comments after a turn failed: ${err instanceof Error ? err.message : err}`,
          ),
        );
      }),
    );
  }

  /** The user's first note in a new thread: the comment, owned by the session shown now. */
  async add(thread: vscode.CommentThread, body: string): Promise<FeedbackComment | undefined> {
    const sessionId = this.d.ctl.current?.session?.sessionId;
    if (!sessionId || !thread.range) {
      thread.dispose();
      void vscode.window.showWarningMessage('Tandem: open a session first; its comments go to its agent.');
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument(thread.uri);
    const { start, end } = thread.range;
    // A selection ending at the start of a line does not take that line.
    const last = end.line > start.line && end.character === 0 ? end.line - 1 : end.line;
    const anchor = anchorAt(documentLines(doc), start.line, last);
    const path = this.d.tracker.canonical(thread.uri.fsPath);
    return this.d.threads.adopt(thread, () => this.store.add({ sessionId, path, anchor, body }));
  }

  /** A comment on `range` of `uri`, as if typed in a new thread there (tests, commands). */
  addComment(uri: vscode.Uri, range: vscode.Range, body: string): Promise<FeedbackComment | undefined> {
    return this.add(this.d.threads.createThread(uri, range), body);
  }

  async reply(thread: vscode.CommentThread, body: string): Promise<void> {
    const id = this.d.threads.commentOf(thread);
    if (id === undefined) return void (await this.add(thread, body));
    const c = this.store.get(id);
    this.store.reply(id, body, c && c.status !== 'pending' ? (await this.current(c)).anchor : undefined);
  }

  deleteNote(note: NoteComment): void {
    this.store.deleteNote(note.commentId, note.note.id);
  }

  resolve(thread: vscode.CommentThread): void {
    const id = this.d.threads.commentOf(thread);
    if (id === undefined) thread.dispose();
    else this.store.remove(id);
  }

  /** "Re-send": the comment, quoting its lines as they are now, goes out with the session's pending ones. */
  async resend(thread: vscode.CommentThread): Promise<SendOutcome | undefined> {
    const id = this.d.threads.commentOf(thread);
    const c = id === undefined ? undefined : this.store.get(id);
    if (!c) return undefined;
    this.store.resend(c.id, (await this.current(c)).anchor);
    return this.send(c.sessionId);
  }

  /** The session's comment count not sent yet. */
  pending(sessionId: string): number {
    return this.store.pendingBySession().get(sessionId) ?? 0;
  }

  /** The session of a thread's comment. */
  sessionOf(thread: vscode.CommentThread): string | undefined {
    const id = this.d.threads.commentOf(thread);
    return id === undefined ? undefined : this.store.get(id)?.sessionId;
  }

  /**
   * Sends the session's pending comments as one prompt to its agent; queued when its turn is still
   * running (the queue sends it when the turn ends). They are marked sent, quoting what was sent.
   */
  async send(sessionId: string): Promise<SendOutcome> {
    const comments = this.store.pending(sessionId);
    if (!comments.length) return 'nothingPending';
    const client = this.d.ctl.clientOf(sessionId);
    const session = client?.getSession(sessionId);
    if (!client || !session) return 'sessionClosed';
    const now = await Promise.all(comments.map((c) => this.current(c)));
    const { display } = workspacePaths();
    const place = this.d.placeOf?.(sessionId);
    const roots = place
      ? [{ path: place.cwd, name: basename(place.cwd) }]
      : (vscode.workspace.workspaceFolders ?? []).map((f) => ({ path: f.uri.fsPath, name: f.name }));
    const text = feedbackPrompt(
      now.map((n, i): FeedbackItem => ({ ...n.item, path: display(comments[i].path) })),
      roots,
    );
    this.store.markSent(new Map(comments.map((c, i) => [c.id, now[i].anchor])));
    if (session.state.meta.status === 'working') {
      this.d.ctl.queues.add(sessionId, text, []);
      return 'queued';
    }
    try {
      await this.d.sender.sendTo(client, sessionId, { text });
    } catch (err) {
      this.store.markPending(comments.map((c) => c.id));
      throw err;
    }
    return 'sent';
  }

  /** After a turn of the session: each comment's lines looked for again (moved, or outdated). */
  async recheck(sessionId: string): Promise<void> {
    for (const c of this.store.ofSession(sessionId)) {
      if (c.status === 'outdated') continue;
      this.store.relocate(c.id, locate(c.anchor, await readLines(c.path)));
    }
  }

  /** A comment's lines as they read now, and its anchor there (kept when the lines are gone). */
  private async current(c: FeedbackComment): Promise<{ item: Omit<FeedbackItem, 'path'>; anchor: LineAnchor }> {
    const doc = await readLines(c.path);
    const where = locate(c.anchor, doc);
    const notes = c.notes.map((n) => n.body);
    if (!doc || where.kind === 'fileGone' || where.kind === 'deleted')
      return {
        item: { start: where.kind === 'deleted' ? where.start : c.anchor.start, lines: [], notes },
        anchor: c.anchor,
      };
    const count = where.kind === 'same' ? c.anchor.lines.length : where.lines.length;
    const anchor = anchorAt(doc, where.start, where.start + count - 1);
    return { item: { start: anchor.start, lines: anchor.lines, notes }, anchor };
  }
}

/**
 * The file's lines now: the editor's buffer when it has unsaved edits, else the disk (an agent that
 * writes files itself changes the disk before VS Code reloads a clean buffer); null when gone.
 */
async function readLines(path: string): Promise<string[] | null> {
  const open = findDocument(path);
  if (open?.isDirty) return documentLines(open);
  try {
    return splitLines(new TextDecoder().decode(await vscode.workspace.fs.readFile(editorUri(path))));
  } catch {
    return null;
  }
}

function documentLines(doc: vscode.TextDocument): string[] {
  return splitLines(doc.getText());
}

/** Lines as the editor counts them (a final line break leaves an empty last line). */
function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}
