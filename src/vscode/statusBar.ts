import * as vscode from 'vscode';
import type { AgentView } from '../shared/protocol';

/** Shows the agent and what it is doing; a click opens the Tandem view. */
export class AgentStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('tandem.status', vscode.StatusBarAlignment.Right, 100);
  private last = '';

  constructor() {
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

  dispose(): void {
    this.item.dispose();
  }
}
