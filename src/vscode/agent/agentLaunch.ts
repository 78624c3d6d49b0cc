// What starting an agent needs before any process runs: a trusted workspace, the agent's entry in
// tandem.agents (or one Tandem made itself, the replay of a recording), its executable on PATH and
// its secrets. The answer is the configuration to launch, or the view of why it cannot start.
import * as vscode from 'vscode';
import type { AgentConfig } from '../../client/agents/agentConfig';
import { findExecutable, missingCommandHelp } from '../../client/agents/agentPresets';
import type { Logger } from '../../common/logger';
import type { AgentView } from '../../shared/protocol';
import { readSettings } from '../config';
import { withSecrets } from './agentSecrets';

export type Launch = { ok: true; agent: AgentConfig; maxLineBytes: number } | { ok: false; view: AgentView };

/** The agent to launch under `name` (default: tandem.defaultAgent), never one from workspace settings. */
export async function resolveLaunch(
  context: vscode.ExtensionContext,
  logger: Logger,
  agentName: string | undefined,
  adHoc: AgentConfig | undefined,
): Promise<Launch> {
  if (!vscode.workspace.isTrusted)
    return {
      ok: false,
      view: {
        state: 'untrusted',
        message:
          'Tandem does not start an agent in a restricted workspace: agents run commands and edit files. Trust this workspace to use Tandem.',
      },
    };
  const settings = readSettings(context.extensionUri);
  for (const w of settings.warnings) logger.warn(w);
  const name = adHoc?.name ?? agentName ?? settings.defaultAgent;
  const configured = adHoc ?? settings.agents.find((a) => a.name === name);
  if (!configured)
    return {
      ok: false,
      view: {
        state: 'error',
        name,
        message: `No agent named "${name}" in tandem.agents. Known agents: ${settings.agents.map((a) => a.name).join(', ')}. Run "Tandem: Select Agent" to pick one.`,
      },
    };
  if (!findExecutable(configured.command, { ...process.env, ...configured.env }, configured.cwd))
    return { ok: false, view: { state: 'error', name, message: missingCommandHelp(configured) } };
  const agent = await withSecrets(configured, context.secrets);
  if (!agent)
    return {
      ok: false,
      view: {
        state: 'error',
        name,
        message: `${name} needs ${configured.secretEnv!.join(', ')} to start. Restart the agent to enter it.`,
      },
    };
  return { ok: true, agent, maxLineBytes: settings.maxMessageBytes };
}

/** The name start() would launch: the given one, or tandem.defaultAgent. */
export function agentNameOf(context: vscode.ExtensionContext, agentName?: string, adHoc?: AgentConfig): string {
  return adHoc?.name ?? agentName ?? readSettings(context.extensionUri).defaultAgent;
}
