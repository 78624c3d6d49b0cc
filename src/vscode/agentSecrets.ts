// Secrets an agent needs in its environment (an API key): asked once with a password box,
// kept in VS Code's SecretStorage, never in settings or logs.
import * as vscode from 'vscode';
import type { AgentConfig } from '../client/agentConfig';

const key = (agent: string, name: string) => `tandem.agentSecret.${agent}.${name}`;

/** The agent with its `secretEnv` variables filled in; undefined when the user dismissed a prompt. */
export async function withSecrets(agent: AgentConfig, secrets: vscode.SecretStorage): Promise<AgentConfig | undefined> {
  if (!agent.secretEnv?.length) return agent;
  const env = { ...agent.env };
  for (const name of agent.secretEnv) {
    let value = await secrets.get(key(agent.name, name));
    if (!value) {
      value = await vscode.window.showInputBox({
        title: `${agent.name} needs ${name}`,
        prompt: `Tandem keeps it in VS Code's secret storage and passes it to ${agent.name} only.`,
        password: true, ignoreFocusOut: true,
      });
      if (!value) return undefined;
      await secrets.store(key(agent.name, name), value);
    }
    env[name] = value;
  }
  return { ...agent, env };
}

export async function forgetSecrets(agent: AgentConfig, secrets: vscode.SecretStorage): Promise<number> {
  let n = 0;
  for (const name of agent.secretEnv ?? []) {
    if (await secrets.get(key(agent.name, name))) { await secrets.delete(key(agent.name, name)); n++; }
  }
  return n;
}
