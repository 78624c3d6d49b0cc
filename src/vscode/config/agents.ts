// The agent settings: tandem.agents, tandem.defaultAgent and tandem.maxMessageSizeMB, all
// machine-scoped in package.json, so VS Code never takes them from a workspace's settings: a
// cloned repo cannot choose what Tandem executes. Written to the user settings only.
import * as vscode from 'vscode';
import { demoAgent, parseAgents, type AgentConfig, DEMO_AGENT_NAME } from '../../client/agents/agentConfig';
import { inspect, read, SETTINGS, write } from './settings';

export interface TandemSettings {
  agents: AgentConfig[];
  defaultAgent: string;
  maxMessageBytes: number;
  warnings: string[];
}

/** The configured agents (and the Demo), the default agent and the message size limit. */
export function readSettings(extensionUri: vscode.Uri): TandemSettings {
  const { agents, warnings } = parseAgents(read('agents'));
  const demo = demoAgent(process.execPath, vscode.Uri.joinPath(extensionUri, 'dist', 'demo-agent.js').fsPath);
  if (!agents.some((a) => a.name === DEMO_AGENT_NAME)) agents.push(demo);
  const fallbackMb = SETTINGS.maxMessageSizeMB.default;
  const maxMb = read('maxMessageSizeMB');
  return {
    agents,
    defaultAgent: read('defaultAgent') || DEMO_AGENT_NAME,
    maxMessageBytes: Math.max(1, Number.isFinite(maxMb) ? maxMb : fallbackMb) * 1024 * 1024,
    warnings,
  };
}

/** tandem.agents as in the user settings (a copy), the list Tandem adds presets and installs to. */
export function userAgentEntries(): unknown[] {
  const v = inspect('agents').user;
  return Array.isArray(v) ? v.slice() : [];
}

export function setUserAgentEntries(entries: unknown[]): Promise<void> {
  return write('agents', entries, vscode.ConfigurationTarget.Global);
}

/** tandem.defaultAgent as in the user settings. */
export function userDefaultAgent(): unknown {
  return inspect('defaultAgent').user;
}

/** Sets (undefined: removes) tandem.defaultAgent in the user settings. */
export function setDefaultAgent(name: string | undefined): Promise<void> {
  return write('defaultAgent', name, vscode.ConfigurationTarget.Global);
}
