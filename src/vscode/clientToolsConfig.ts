// The client-tools spec's remaining settings: the disconnection strategy
// (tandem.clientTools.disconnection.*, src/tools/disconnection.ts) and the global client-tools
// instructions (tandem.clientTools.instructions, sent as the MCP server's instructions).
import type * as vscode from 'vscode';
import { DISCONNECTION_STRATEGIES } from '../tools/disconnection';
import { DEFAULT_TOOLS_CONFIG, type ToolsConfig } from '../tools/types';

/** tandem.clientTools.disconnection.* and .instructions (the rest of the client-tools spec). */
export function readDisconnectionAndInstructions(
  c: vscode.WorkspaceConfiguration,
): Pick<ToolsConfig, 'disconnection' | 'maxRetries' | 'instructions'> {
  const strategy = c.get<string>('disconnection.strategy', DEFAULT_TOOLS_CONFIG.disconnection);
  const retries = Number(c.get('disconnection.maxRetries', DEFAULT_TOOLS_CONFIG.maxRetries));
  const instructions = c.get<unknown>('instructions', '');
  return {
    disconnection: DISCONNECTION_STRATEGIES.find((s) => s === strategy) ?? DEFAULT_TOOLS_CONFIG.disconnection,
    maxRetries: Number.isFinite(retries)
      ? Math.min(10, Math.max(0, Math.floor(retries)))
      : DEFAULT_TOOLS_CONFIG.maxRetries,
    ...(typeof instructions === 'string' && instructions.trim() ? { instructions } : {}),
  };
}
