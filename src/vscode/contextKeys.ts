import * as vscode from 'vscode';
import type { AgentView } from '../shared/protocol';

/** Context keys for `when` clauses, so the palette only offers what applies. */
export class ContextKeys {
  private last = '';

  update(agent: AgentView, session: { status: string } | undefined, pendingPermissions: number): void {
    const key = `${agent.state}|${session?.status}|${pendingPermissions}`;
    if (key === this.last) return;
    this.last = key;
    void vscode.commands.executeCommand('setContext', 'tandem.agentState', agent.state);
    void vscode.commands.executeCommand('setContext', 'tandem.agentRunning', agent.state === 'ready');
    void vscode.commands.executeCommand('setContext', 'tandem.hasSession', !!session);
    void vscode.commands.executeCommand('setContext', 'tandem.turnRunning', session?.status === 'working');
    void vscode.commands.executeCommand('setContext', 'tandem.waitingForPermission', pendingPermissions > 0);
  }
}
