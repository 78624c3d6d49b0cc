// Telling the user when the agent needs them: a turn that ended or failed while the Tandem view
// was hidden or the window not focused gets a notification ("Show Session" switches to it and
// opens the view), a count on the view's badge and a mark in the status bar, both cleared when
// the view is seen. Permission prompts (permissions.ts, in the words of permissionMessage()) and
// forms (elicitation.ts) have their own notifications; all follow the one setting
// `tandem.notifications` through notifyNow().
import * as vscode from 'vscode';
import { Disposable } from '../../common/disposable';
import { Emitter, type Event } from '../../common/event';
import type { PendingPermission } from '../../client/permissions/broker';
import type { Controller } from '../agent/controller';
import type { TurnEnd, TurnEnds } from '../prompts/turnEnds';
import { notifications } from '../config';

/** Whether to show a notification now: never when off, always when always, else only when the view is not in sight. */
export function notifyNow(view: { readonly isVisible: boolean }): boolean {
  // `tandem.notifications`, read each time (a changed setting applies at once).
  const setting = notifications();
  if (setting !== 'whenHidden') return setting === 'always';
  return !(view.isVisible && vscode.window.state.focused);
}

/**
 * A permission prompt's notification text: what the agent asks, and what its "always" button
 * remembers, as the view says under its buttons (a click here remembers just as much).
 */
export function permissionMessage(p: PendingPermission): string {
  const t = p.view.toolCall;
  // Plain text: notifications render neither Markdown nor code spans (a title's backticks would
  // show). A command line and the scope keep theirs: dropping them would change what they say.
  const what =
    p.facts.command !== undefined
      ? `run: ${p.facts.command}`
      : `${(t.title ?? p.facts.title) || p.view.toolCallId}`.replace(/`/g, '');
  const where =
    p.facts.command === undefined && p.facts.paths.length
      ? ` (${p.facts.paths.map((x) => vscode.workspace.asRelativePath(x)).join(', ')})`
      : '';
  const always = p.view.alwaysScope ? `. “Always” remembers ${p.view.alwaysScope}` : '';
  return `${p.agentName} asks permission to ${what}${where}${always}`;
}

export interface AttentionView {
  readonly isVisible: boolean;
  readonly onDidChangeVisibility: Event<boolean>;
  setBadge(count: number, tooltip: string, source: string): void;
  show(): void;
}

/** What the status bar shows after turns ended unseen. */
export interface Unseen {
  ended: number;
  failed: number;
}

export class TurnAttention extends Disposable {
  private unseenTurns: Unseen = { ended: 0, failed: 0 };
  private readonly changed = this._register(new Emitter<Unseen>());
  /** Turns ended or failed unseen, or the user looked: the status bar refreshes. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly ctl: Controller,
    turns: TurnEnds,
    private readonly view: AttentionView,
  ) {
    super();
    this._register(turns.onDidEnd((e) => this.ended(e)));
    const seen = () => {
      if (view.isVisible && vscode.window.state.focused) this.set({ ended: 0, failed: 0 });
    };
    this._register(view.onDidChangeVisibility(seen));
    this._register(vscode.window.onDidChangeWindowState(seen));
  }

  get unseen(): Unseen {
    return this.unseenTurns;
  }

  private ended(e: TurnEnd): void {
    // A cancel is the user's own doing: nothing to tell.
    if (e.outcome === 'cancelled') return;
    const attended = this.view.isVisible && vscode.window.state.focused;
    if (!attended)
      this.set({
        ended: this.unseenTurns.ended + (e.outcome === 'ended' ? 1 : 0),
        failed: this.unseenTurns.failed + (e.outcome === 'failed' ? 1 : 0),
      });
    if (!notifyNow(this.view)) return;
    // The agent whose turn ended: with agents side by side it need not be the one shown.
    const agent = e.client.agent.info?.title ?? e.client.agent.name ?? 'The agent';
    const where = ` (${sessionLabel(this.ctl, e)})`;
    const show = 'Show Session';
    const shown =
      e.outcome === 'failed'
        ? vscode.window.showErrorMessage(`${agent}: the turn failed${where}: ${e.error ?? 'unknown error'}`, show)
        : vscode.window.showInformationMessage(`${agent} finished${where}.`, show);
    void shown.then((pick) => {
      if (pick !== show) return;
      if (this.ctl.clientOf(e.sessionId) === e.client) this.ctl.switchTo(e.sessionId);
      this.view.show();
    });
  }

  private set(u: Unseen): void {
    if (u.ended === this.unseenTurns.ended && u.failed === this.unseenTurns.failed) return;
    this.unseenTurns = u;
    const n = u.ended + u.failed;
    const parts = [u.ended && `${u.ended} finished`, u.failed && `${u.failed} failed`].filter(Boolean);
    this.view.setBadge(n, `${parts.join(', ')} while you were away`, 'turns');
    this.changed.fire(u);
  }
}

/** Characters of the last prompt quoted to tell sessions with the same title apart. */
const PROMPT_QUOTE = 40;

/**
 * How a notification names a session: its title, and when another open session has the same title
 * (or there is none), the start of its last prompt, so the user knows which one it is.
 */
export function sessionLabel(ctl: Pick<Controller, 'agents'>, e: Pick<TurnEnd, 'client' | 'sessionId'>): string {
  const title = e.client.sessions().find((s) => s.sessionId === e.sessionId)?.title;
  const same = ctl
    .agents()
    .flatMap((a) => a.client.sessions().map((s) => ({ a, s })))
    .filter(({ a, s }) => s.title === title && !(a.client === e.client && s.sessionId === e.sessionId)).length;
  if (title && !same) return title;
  const turns = e.client.getSession(e.sessionId)?.state.turns;
  const prompt = turns
    ?.last()
    ?.items.toArray()
    .find((i) => i.kind === 'user');
  const text =
    prompt && prompt.kind === 'user' ? prompt.blocks.map((b) => (b.type === 'text' ? b.text : '')).join(' ') : '';
  const quote = text.replace(/\s+/g, ' ').trim();
  const cut = quote.length > PROMPT_QUOTE ? `${quote.slice(0, PROMPT_QUOTE - 1)}…` : quote;
  if (!cut) return title ?? 'untitled session';
  return `${title ?? 'untitled session'}: “${cut}”`;
}
