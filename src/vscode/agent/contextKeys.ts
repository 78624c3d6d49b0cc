import * as vscode from 'vscode';
import { forkable } from '../../shared/fork';
import type { AgentView } from '../../shared/protocol';

/** Context keys for `when` clauses, so the palette only offers what applies. */
export class ContextKeys {
  private last = '';

  /** `turns`: how many the shown session has (a session with none has nothing to fork). */
  update(agent: AgentView, session: { status: string } | undefined, pendingPermissions: number, turns = 0): void {
    const canFork = forkable(agent, session?.status, turns);
    const key = `${agent.state}|${session?.status}|${pendingPermissions}|${canFork}`;
    if (key === this.last) return;
    this.last = key;
    void vscode.commands.executeCommand('setContext', 'tandem.agentState', agent.state);
    void vscode.commands.executeCommand('setContext', 'tandem.agentRunning', agent.state === 'ready');
    void vscode.commands.executeCommand('setContext', 'tandem.hasSession', !!session);
    void vscode.commands.executeCommand('setContext', 'tandem.turnRunning', session?.status === 'working');
    void vscode.commands.executeCommand('setContext', 'tandem.waitingForPermission', pendingPermissions > 0);
    void vscode.commands.executeCommand('setContext', 'tandem.canFork', canFork);
  }
}
