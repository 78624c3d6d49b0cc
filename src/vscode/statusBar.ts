// The agent's state outside the view: a status-bar item (a click opens the Tandem view) and the
// context keys `when` clauses read, both refreshed whenever the agent or the shown session changes.
import * as vscode from 'vscode';
import { Disposable } from '../common/disposable';
import type { AgentView } from '../shared/protocol';
import { ContextKeys } from './contextKeys';
import type { Controller } from './controller';

export class StatusIndicators extends Disposable {
  constructor(ctl: Controller) {
    super();
    const bar = this._register(new AgentStatusBar());
    const keys = new ContextKeys();
    const refresh = () => {
      const session = ctl.current?.session?.state;
      // Prompts and forms both wait for the user.
      const waiting = (session?.permissions.length ?? 0) + (session?.elicitations.length ?? 0);
      bar.update(ctl.agent, session?.meta.status === 'working', waiting > 0);
      keys.update(ctl.agent, session?.meta, waiting);
    };
    refresh();
    for (const event of [ctl.onDidChangeAgent, ctl.onDidChangeSession, ctl.onDidChangeSessions, ctl.onDidReplace])
      this._register(event(refresh));
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

  update(agent: AgentView, working: boolean, waitingForPermission = false): void {
    // Called on every session change: only touch the item when what it shows changes.
    const key = `${agent.state}|${working}|${waitingForPermission}|${agent.name}|${agent.info?.title}|${agent.message}`;
    if (key === this.last) return;
    this.last = key;
    const name = agent.info?.title ?? agent.name ?? 'Tandem';
    const [icon, state] =
      agent.state === 'ready'
        ? waitingForPermission
          ? ['$(shield)', 'waiting for permission']
          : working
            ? ['$(loading~spin)', 'working']
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
    this.item.text = `${icon} ${name}${waitingForPermission ? ' — waiting for you' : ''}`;
    this.item.tooltip = `Tandem: ${name} — ${state}${agent.message && agent.state !== 'ready' ? `\n${agent.message}` : ''}`;
    this.item.backgroundColor =
      agent.state === 'error' || agent.state === 'exited'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : waitingForPermission
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
  }
}
