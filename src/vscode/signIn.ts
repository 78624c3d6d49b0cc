// Signing in to an agent: its authMethods in a QuickPick; an agent method goes through
// `authenticate`, a terminal method runs the agent's own login in a VS Code terminal and
// reconnects when that terminal closes.
import * as vscode from 'vscode';
import type { AgentClient } from '../client/agentClient';
import type { AgentConfig } from '../client/agentConfig';

/** Signs in with `methodId` when given (a keybinding, another extension), else asks which method. */
export async function signIn(client: AgentClient, agent: AgentConfig, restart: () => Promise<void>, methodId?: string): Promise<void> {
  const methods = client.authMethods;
  const chosen = methodId !== undefined ? methods.find((m) => m.id === methodId) : undefined;
  if (methodId !== undefined && !chosen) {
    void vscode.window.showWarningMessage(`${agent.name} has no sign-in method "${methodId}".`);
    return;
  }
  if (!methods.length) {
    void vscode.window.showWarningMessage(`${agent.name} offers no sign-in method. Sign in with its own tool, then run "Tandem: Restart Agent".`);
    return;
  }
  const pick = chosen ? { method: chosen } : methods.length === 1 ? { method: methods[0] } : await vscode.window.showQuickPick(
    methods.map((m) => ({ label: m.name, detail: m.description ?? undefined, method: m })),
    { title: `Sign in to ${agent.name}`, placeHolder: 'How do you want to sign in?' });
  if (!pick) return;
  const m = pick.method;
  if ('type' in m && m.type === 'terminal') {
    const term = vscode.window.createTerminal({
      name: `${agent.name}: ${m.name}`,
      shellPath: agent.command,
      shellArgs: [...(agent.args ?? []), ...(m.args ?? [])],
      env: { ...agent.env, ...m.env },
      cwd: agent.cwd,
      iconPath: new vscode.ThemeIcon('account'),
    });
    term.show();
    await new Promise<void>((resolve) => {
      const sub = vscode.window.onDidCloseTerminal((t) => { if (t === term) { sub.dispose(); resolve(); } });
    });
    await restart();
    return;
  }
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Signing in to ${agent.name}…` }, async () => {
    try {
      await client.authenticate(m.id);
    } catch (err) {
      void vscode.window.showErrorMessage(`Tandem: signing in to ${agent.name} failed: ${err instanceof Error ? err.message : err}`);
    }
  });
}
