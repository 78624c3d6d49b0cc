// Signing in to an agent: its authMethods in a QuickPick; an agent method goes through
// `authenticate`, a terminal method runs the agent's own login in a VS Code terminal and
// reconnects when that terminal closes. An env-var method (codex-acp's "Use OPENAI_API_KEY":
// `type: "env_var"`, `vars`, not in ACP's v1 schema yet) reads a variable from the agent's
// environment: when it is not set, Tandem asks for it, keeps it as a secret and restarts the
// agent with it before `authenticate`.
import * as vscode from 'vscode';
import type { AuthMethod } from '@agentclientprotocol/sdk';
import { errorDetail } from '../../acp/errors';
import { askSignInEnv } from './agentSecrets';
import type { Controller } from './controller';

/** The variables an env-var sign-in method reads, or undefined for other methods. */
export function signInEnvVars(m: AuthMethod): string[] | undefined {
  const e = m as { type?: unknown; vars?: unknown };
  if (e.type !== 'env_var' || !Array.isArray(e.vars)) return undefined;
  return e.vars
    .map((v) => (v as { name?: unknown } | null)?.name)
    .filter((n): n is string => typeof n === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(n));
}

/**
 * Signs in to the running agent with `methodId` when given (a keybinding, another extension),
 * else asks which method. A method that needs a new process (a terminal login, a variable just
 * entered) restarts the agent through `ctl`.
 */
export async function signIn(
  ctl: Pick<Controller, 'current' | 'config' | 'restart'>,
  secrets: vscode.SecretStorage,
  methodId?: string,
): Promise<void> {
  let client = ctl.current;
  const agent = ctl.config;
  if (!client || !agent) return;
  const methods = client.authMethods;
  const chosen = methodId !== undefined ? methods.find((m) => m.id === methodId) : undefined;
  if (methodId !== undefined && !chosen) {
    void vscode.window.showWarningMessage(`${agent.name} has no sign-in method "${methodId}".`);
    return;
  }
  if (!methods.length) {
    void vscode.window.showWarningMessage(
      `${agent.name} offers no sign-in method. Sign in with its own tool, then run "Tandem: Restart Agent".`,
    );
    return;
  }
  const pick = chosen
    ? { method: chosen }
    : methods.length === 1
      ? { method: methods[0] }
      : await vscode.window.showQuickPick(
          methods.map((m) => ({ label: m.name, detail: m.description ?? undefined, method: m })),
          { title: `Sign in to ${agent.name}`, placeHolder: 'How do you want to sign in?' },
        );
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
      const sub = vscode.window.onDidCloseTerminal((t) => {
        if (t === term) {
          sub.dispose();
          resolve();
        }
      });
    });
    await ctl.restart();
    return;
  }
  const missing = (signInEnvVars(m) ?? []).filter((v) => !agent.env?.[v] && !process.env[v]);
  if (missing.length) {
    if (!(await askSignInEnv(agent, missing, secrets))) return;
    await ctl.restart();
    const next = ctl.current;
    // Started with the variable and needs nothing more, or did not start (its view says why).
    if (next?.agent.state !== 'auth') return;
    client = next;
  }
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Signing in to ${agent.name}…` },
    async () => {
      try {
        await client.authenticate(m.id);
      } catch (err) {
        void vscode.window.showErrorMessage(`Tandem: signing in to ${agent.name} failed: ${errorDetail(err)}`);
      }
    },
  );
}
