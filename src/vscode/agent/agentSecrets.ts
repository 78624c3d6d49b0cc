// Secrets an agent needs in its environment (an API key): asked once with a password box,
// kept in VS Code's SecretStorage, never in settings or logs. Two sources: the agent's
// `secretEnv` setting (asked at start), and the variables of an env-var sign-in method the agent
// offers (codex-acp: "Use OPENAI_API_KEY"; asked when the user picks that method).
import * as vscode from 'vscode';
import type { AgentConfig } from '../../client/agents/agentConfig';
// The secret storage keys: an agent's variable, and the names of those entered to sign in to it.
import { agentSecretKey as key, agentSignInEnvKey as signInKey } from '../storageKeys';

async function signInNames(agent: string, secrets: vscode.SecretStorage): Promise<string[]> {
  try {
    const v: unknown = JSON.parse((await secrets.get(signInKey(agent))) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** The agent with its `secretEnv` variables filled in (asked when missing) and the variables it
 *  was signed in with (unless its settings set them); undefined when the user dismissed a prompt. */
export async function withSecrets(agent: AgentConfig, secrets: vscode.SecretStorage): Promise<AgentConfig | undefined> {
  const env = { ...agent.env };
  for (const name of agent.secretEnv ?? []) {
    let value = await secrets.get(key(agent.name, name));
    if (!value) {
      value = await vscode.window.showInputBox({
        title: `${agent.name} needs ${name}`,
        prompt: `Tandem keeps it in VS Code's secret storage and passes it to ${agent.name} only.`,
        password: true,
        ignoreFocusOut: true,
      });
      if (!value) return undefined;
      await secrets.store(key(agent.name, name), value);
    }
    env[name] = value;
  }
  for (const name of await signInNames(agent.name, secrets)) {
    const value = env[name] === undefined ? await secrets.get(key(agent.name, name)) : undefined;
    if (value) env[name] = value;
  }
  return { ...agent, env };
}

/** Asks for the variables an env-var sign-in method reads and keeps them for the agent's next
 *  starts; false when the user dismissed a prompt. */
export async function askSignInEnv(
  agent: AgentConfig,
  names: readonly string[],
  secrets: vscode.SecretStorage,
): Promise<boolean> {
  const known = await signInNames(agent.name, secrets);
  for (const name of names) {
    const value = await vscode.window.showInputBox({
      title: `Sign in to ${agent.name}: ${name}`,
      prompt: `${agent.name} reads ${name} from its environment. Tandem keeps it in VS Code's secret storage, passes it to ${agent.name} only, and restarts ${agent.name} with it.`,
      password: true,
      ignoreFocusOut: true,
    });
    if (!value) return false;
    await secrets.store(key(agent.name, name), value);
    if (!known.includes(name)) known.push(name);
    await secrets.store(signInKey(agent.name), JSON.stringify(known));
  }
  return true;
}

export async function forgetSecrets(agent: AgentConfig, secrets: vscode.SecretStorage): Promise<number> {
  let n = 0;
  for (const name of new Set([...(agent.secretEnv ?? []), ...(await signInNames(agent.name, secrets))])) {
    if (await secrets.get(key(agent.name, name))) {
      await secrets.delete(key(agent.name, name));
      n++;
    }
  }
  await secrets.delete(signInKey(agent.name));
  return n;
}
