import * as vscode from 'vscode';
import { demoAgent, parseAgents, type AgentConfig, DEMO_AGENT_NAME } from '../client/agentConfig';

export interface TandemSettings {
  agents: AgentConfig[];
  defaultAgent: string;
  maxMessageBytes: number;
  warnings: string[];
}

/**
 * Reads Tandem's settings. `tandem.agents` is machine-scoped in package.json, so VS Code never
 * takes it from a workspace's settings: a cloned repo cannot choose what Tandem executes.
 */
export function readSettings(extensionUri: vscode.Uri): TandemSettings {
  const cfg = vscode.workspace.getConfiguration('tandem');
  const { agents, warnings } = parseAgents(cfg.get('agents'));
  const demo = demoAgent(process.execPath, vscode.Uri.joinPath(extensionUri, 'dist', 'demo-agent.js').fsPath);
  if (!agents.some((a) => a.name === DEMO_AGENT_NAME)) agents.push(demo);
  const maxMb = cfg.get<number>('maxMessageSizeMB', 64);
  return {
    agents,
    defaultAgent: cfg.get<string>('defaultAgent', '') || DEMO_AGENT_NAME,
    maxMessageBytes: Math.max(1, Number.isFinite(maxMb) ? maxMb : 64) * 1024 * 1024,
    warnings,
  };
}
