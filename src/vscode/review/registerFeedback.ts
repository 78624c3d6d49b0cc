// Review comments on the agent's changes that become the next prompt: the comment threads
// (feedbackThreads.ts), what the user does with them and what the agent's turns do to them
// (feedbackReview.ts), kept in workspaceState so they outlive a window reload, the commands of the
// threads' buttons and "Send Feedback", and "N comments pending" beside the session view's title
// (with a Send Feedback button) and under each session in the Sessions overview.
import type { SessionPlace } from '../../client/connection/sessionPlace';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ChangeTracker } from '../../client/changes/changeTracker';
import { Disposable, DisposableStore } from '../../common/disposable';
import { Emitter } from '../../common/event';
import type { Logger } from '../../common/logger';
import { FeedbackComments } from '../../review/feedbackComments';
import type { Controller } from '../agent/controller';
import type { Ctx } from '../ctx';
import type { PromptSender } from '../prompts/promptSender';
import type { TurnEnds } from '../prompts/turnEnds';
import { WORKSPACE_STATE } from '../storageKeys';
import type { PendingFeedback } from '../view/sessionsOverview';
import { FeedbackReview, type SendOutcome } from './feedbackReview';
import { FeedbackThreads, NoteComment } from './feedbackThreads';

export interface FeedbackDeps {
  ctl: Pick<Controller, 'current' | 'clientOf' | 'queues' | 'onDidReplace' | 'onDidChangeSessions'>;
  tracker: Pick<ChangeTracker, 'allTurns' | 'canonical' | 'onDidChange'>;
  turns: Pick<TurnEnds, 'onDidEnd'>;
  sender: Pick<PromptSender, 'sendTo'>;
  view: { setDescription(text: string | undefined): void; show(): void };
  overview: { showFeedback(feedback: PendingFeedback): void };
  /** A worktree session's folder: its comments' paths are told relative to it. */
  placeOf?(sessionId: string): SessionPlace | undefined;
}

/** The comments' store, threads and actions, built from what workspaceState keeps. */
export class Feedback extends Disposable implements PendingFeedback {
  store!: FeedbackComments;
  threads!: FeedbackThreads;
  review!: FeedbackReview;
  private parts = new DisposableStore();
  private readonly changed = this._register(new Emitter<void>());
  /** The comments changed (or were read back again). */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly state: vscode.Memento,
    private readonly d: FeedbackDeps,
    private readonly logger: Logger,
  ) {
    super();
    this.build();
    this._register({ dispose: () => this.parts.dispose() });
  }

  /** Reads the comments back from workspaceState, as activation does after a window reload. */
  reload(): void {
    this.parts.dispose();
    this.parts = new DisposableStore();
    this.build();
    this.changed.fire();
  }

  pending(sessionId: string): number {
    return this.review.pending(sessionId);
  }

  private build(): void {
    const key = WORKSPACE_STATE.feedbackComments;
    const { ctl, tracker, turns, sender } = this.d;
    this.store = new FeedbackComments(
      { get: () => this.state.get(key), set: (v) => this.state.update(key, v) },
      randomUUID,
    );
    this.parts.add(this.store);
    const shown = () => ctl.current?.session?.sessionId;
    this.threads = this.parts.add(new FeedbackThreads(this.store, tracker, shown));
    this.review = this.parts.add(
      new FeedbackReview({
        store: this.store,
        threads: this.threads,
        tracker,
        ctl,
        sender,
        turns,
        logger: this.logger,
        placeOf: this.d.placeOf,
      }),
    );
    this.parts.add(this.store.onDidChange(() => this.changed.fire()));
  }
}

export function registerFeedback(ctx: Ctx, d: FeedbackDeps): Feedback {
  const feedback = ctx.own(new Feedback(ctx.extension.workspaceState, d, ctx.logger));
  const shown = () => d.ctl.current?.session?.sessionId;
  const showCount = () => {
    const id = shown();
    const n = id ? feedback.pending(id) : 0;
    d.view.setDescription(n ? `${n} comment${n === 1 ? '' : 's'} pending` : undefined);
    void vscode.commands.executeCommand('setContext', 'tandem.feedbackPending', n > 0);
  };
  ctx.own(feedback.onDidChange(showCount));
  ctx.own(
    d.ctl.onDidReplace(() => {
      showCount();
      feedback.threads.offerAgain();
    }),
  );
  ctx.own(d.ctl.onDidChangeSessions(showCount));
  d.overview.showFeedback(feedback);
  showCount();

  const reply = (r: unknown) => r as vscode.CommentReply;
  const thread = (t: unknown) => (t instanceof Object && 'uri' in t ? (t as vscode.CommentThread) : undefined);
  const command = (id: string, run: (...args: unknown[]) => unknown) =>
    ctx.own(vscode.commands.registerCommand(id, run));
  command('tandem.feedback.add', (r) => feedback.review.add(reply(r).thread, reply(r).text));
  command('tandem.feedback.reply', (r) => feedback.review.reply(reply(r).thread, reply(r).text));
  command('tandem.feedback.delete', (c) => c instanceof NoteComment && feedback.review.deleteNote(c));
  command('tandem.feedback.resolve', (t) => thread(t) && feedback.review.resolve(thread(t)!));
  command('tandem.feedback.resend', async (t) => {
    const outcome = thread(t) && (await feedback.review.resend(thread(t)!));
    if (outcome) tell(outcome);
  });
  command('tandem.sendFeedback', async (arg) => {
    const fromThread = thread(arg) && feedback.review.sessionOf(thread(arg)!);
    const sessionId =
      typeof arg === 'string' ? arg : (fromThread ?? overviewRow(arg) ?? whoseFeedback(feedback, shown()));
    if (!sessionId) return tell('nothingPending');
    if (sessionId === shown()) d.view.show();
    const outcome = await feedback.review.send(sessionId).catch((err) => {
      void vscode.window.showErrorMessage(
        `Tandem: sending the feedback failed: ${err instanceof Error ? err.message : err}`,
      );
      return undefined;
    });
    if (outcome) tell(outcome);
    return outcome;
  });
  return feedback;
}

/** The session of the overview's "N comments pending" row (its inline action passes the row). */
function overviewRow(arg: unknown): string | undefined {
  const id = (arg as { session?: { sessionId?: unknown } } | undefined)?.session?.sessionId;
  return typeof id === 'string' ? id : undefined;
}

/** The session "Send Feedback" means without one named: the shown one, else the only one with comments. */
function whoseFeedback(feedback: Feedback, shown: string | undefined): string | undefined {
  if (shown && feedback.pending(shown)) return shown;
  const waiting = [...feedback.store.pendingBySession().keys()];
  return waiting.length === 1 ? waiting[0] : shown;
}

function tell(outcome: SendOutcome): void {
  if (outcome === 'queued')
    void vscode.window.showInformationMessage(
      'Tandem: the feedback is queued; it goes to the agent when its current turn ends.',
    );
  else if (outcome === 'nothingPending')
    void vscode.window.showInformationMessage(
      'Tandem: no comments pending. Add one with the + beside a line of a file the agent changed.',
    );
  else if (outcome === 'sessionClosed')
    void vscode.window.showWarningMessage(
      'Tandem: the session these comments belong to is not open. Open it (Tandem: Open Session…) and send again.',
    );
}
