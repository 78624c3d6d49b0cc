// The agent's state outside the view: a status-bar item (a click opens the Tandem view; it marks
// a turn that finished or failed while the view was out of sight) and the
// context keys `when` clauses read, both refreshed whenever the agent or the shown session changes.
import * as vscode from 'vscode';
import { Disposable } from '../../common/disposable';
import type { Event } from '../../common/event';
import type { AgentView } from '../../shared/protocol';
import type { Unseen } from '../view/attention';
import { ContextKeys } from './contextKeys';
import type { Controller } from './controller';

export class StatusIndicators extends Disposable {
  /** `attention`: turns that ended while the view was out of sight (marked until it is seen). */
  constructor(ctl: Controller, attention?: { readonly unseen: Unseen; readonly onDidChange: Event<Unseen> }) {
    super();
    const bar = this._register(new AgentStatusBar());
    const keys = new ContextKeys();
    const refresh = () => {
      const session = ctl.current?.session?.state;
      // Prompts and forms both wait for the user.
      const waiting = (session?.permissions.length ?? 0) + (session?.elicitations.length ?? 0);
      bar.update(ctl.agent, session?.meta.status === 'working', waiting > 0, attention?.unseen);
      keys.update(ctl.agent, session?.meta, waiting, session?.turns.length);
    };
    refresh();
    for (const event of [ctl.onDidChangeAgent, ctl.onDidChangeSession, ctl.onDidChangeSessions, ctl.onDidReplace])
      this._register(event(refresh));
    if (attention) this._register(attention.onDidChange(refresh));
  }
}

/** Shows the agent and what it is doing; a click opens the Tandem view. */
class AgentStatusBar extends Disposable {
  private readonly item = this._register(
    vscode.window.createStatusBarItem('tandem.status', vscode.StatusBarAlignment.Right, 100),
  );
  private last = '';

  constructor() {
    super();
    this.item.name = 'Tandem agent';
    this.item.command = 'tandem.sessionView.focus';
    this.update({ state: 'none' }, false);
    this.item.show();
  }

  update(agent: AgentView, working: boolean, waitingForPermission = false, unseen?: Unseen): void {
    // Called on every session change: only touch the item when what it shows changes.
    const key = `${agent.state}|${working}|${waitingForPermission}|${agent.name}|${agent.info?.title}|${agent.message}|${unseen?.ended}|${unseen?.failed}|${agent.account?.label}`;
    if (key === this.last) return;
    this.last = key;
    const name = agent.info?.title ?? agent.name ?? 'Tandem';
    const [icon, state] =
      agent.state === 'ready'
        ? waitingForPermission
          ? ['$(shield)', 'waiting for permission']
          : working
            ? ['$(loading~spin)', 'working']
            : unseen?.failed
              ? ['$(error)', 'a turn failed']
              : unseen?.ended
                ? ['$(check)', 'finished']
                : ['$(hubot)', 'idle']
        : (
            {
              none: ['$(hubot)', 'not started'],
              untrusted: ['$(shield)', 'restricted'],
              starting: ['$(loading~spin)', 'starting'],
              auth: ['$(account)', 'sign-in needed'],
              error: ['$(error)', 'error'],
              exited: ['$(debug-disconnect)', 'stopped'],
            } as const
          )[agent.state];
    const mark = waitingForPermission
      ? ' — waiting for you'
      : !working && (unseen?.ended || unseen?.failed)
        ? ` — ${state}`
        : '';
    this.item.text = `${icon} ${name}${agent.state === 'ready' ? mark : ''}`;
    const account =
      agent.account && `\n${agent.account.kind === 'none' ? 'Not signed in' : `Works as ${agent.account.label}`}`;
    this.item.tooltip = `Tandem: ${name} — ${state}${agent.message && agent.state !== 'ready' ? `\n${agent.message}` : ''}${account ?? ''}`;
    this.item.backgroundColor =
      agent.state === 'error' || agent.state === 'exited'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : waitingForPermission
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
  }
}
