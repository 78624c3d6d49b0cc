// "Tandem: Select Agent": the configured agents (those installed from the ACP Registry say so),
// the presets and the Demo, each marked with whether its command is found on this machine; and a
// way to the registry, and to what the running agents can do (Show Agent Capabilities).
import * as vscode from 'vscode';
import { DEMO_AGENT_NAME, type AgentConfig } from '../../client/agents/agentConfig';
import { AGENT_PRESETS, findExecutable, type AgentPreset } from '../../client/agents/agentPresets';
import { readSettings, setDefaultAgent, setUserAgentEntries, userAgentEntries } from '../config';
import { registryDescription } from '../registry/installedAgents';
import { SHOW_CAPABILITIES_COMMAND } from './showCapabilities';

interface AgentItem extends vscode.QuickPickItem {
  agent?: AgentConfig;
  preset?: AgentPreset;
  configured: boolean;
  found: boolean;
  /** An item that runs a command instead of choosing an agent. */
  command?: string;
}

export async function pickAgent(extensionUri: vscode.Uri, current?: string): Promise<string | undefined> {
  const settings = readSettings(extensionUri);
  const items: AgentItem[] = [];
  for (const a of settings.agents) {
    const found = a.name === DEMO_AGENT_NAME || !!findExecutable(a.command);
    items.push({
      label: `${a.name === current ? '$(check) ' : ''}${a.name}`,
      description:
        a.name === DEMO_AGENT_NAME
          ? 'built in, no API key'
          : (registryDescription(a.name) ?? [a.command, ...(a.args ?? [])].join(' ')),
      detail: found ? undefined : '$(warning) not found on this machine',
      agent: a,
      configured: true,
      found,
    });
  }
  const presets = AGENT_PRESETS.filter((p) => !settings.agents.some((a) => a.name === p.name));
  if (presets.length) items.push({ label: 'Presets', kind: vscode.QuickPickItemKind.Separator } as AgentItem);
  for (const p of presets) {
    const path = findExecutable(p.command);
    items.push({
      label: p.name,
      description: p.description,
      detail: path ? `$(pass) found: ${path}` : `$(cloud-download) not installed — ${p.install}`,
      agent: p,
      preset: p,
      configured: false,
      found: !!path,
    });
  }
  items.push({ label: '', kind: vscode.QuickPickItemKind.Separator, configured: false, found: true });
  items.push({ label: '$(cloud-download) Add Agent from Registry…', configured: false, found: true });
  items.push({
    label: '$(info) Show Agent Capabilities…',
    description: 'what a running agent declared, and what it does on the wire',
    command: SHOW_CAPABILITIES_COMMAND,
    configured: false,
    found: true,
  });
  const choice = await vscode.window.showQuickPick(items, {
    title: 'Tandem: Select Agent',
    placeHolder: 'Which ACP agent should Tandem run?',
    matchOnDescription: true,
  });
  if (!choice) return undefined;
  if (!choice.agent) {
    await vscode.commands.executeCommand(choice.command ?? 'tandem.addAgentFromRegistry');
    return undefined;
  }
  if (!choice.found && choice.preset) {
    const copy = 'Copy Install Command';
    const anyway = 'Use It Anyway';
    const r = await vscode.window.showWarningMessage(
      `${choice.preset.name} is not installed on this machine. Install it with: ${choice.preset.install}`,
      { modal: true },
      copy,
      anyway,
    );
    if (r === copy) {
      await vscode.env.clipboard.writeText(choice.preset.install);
      return undefined;
    }
    if (r !== anyway) return undefined;
  }
  if (choice.preset && !choice.configured) {
    // Presets become ordinary user-level entries, editable in settings.json.
    const agents = userAgentEntries();
    const { name, command, args } = choice.preset;
    agents.push(args ? { name, command, args } : { name, command });
    await setUserAgentEntries(agents);
  }
  const name = choice.agent.name;
  await setDefaultAgent(name);
  return name;
}
