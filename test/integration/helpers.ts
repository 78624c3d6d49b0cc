// Shared by the integration tests that run inside the real VS Code.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { until } from '../support/until';
export { until };

export const TANDEM_ID = 'tandem-dev.tandem';

/** Tandem, activated in this VS Code: its extension API and where it is installed. */
export async function activateTandem<Api>(): Promise<{ api: Api; extensionPath: string }> {
  const ext = vscode.extensions.getExtension<Api>(TANDEM_ID)!;
  return { api: await ext.activate(), extensionPath: ext.extensionPath };
}

/**
 * Configures `name` in tandem.agents (global) as the scripted test agent playing `script`;
 * returns the script's path (unique to the call: it marks that agent's processes too).
 */
export async function configureScriptedAgent(extensionPath: string, name: string, script: unknown): Promise<string> {
  const agentJs = join(extensionPath, 'out', 'test', 'fixtures', 'agents', 'scripted-agent.js');
  const file = join(mkdtempSync(join(tmpdir(), 'tandem-script-')), 'script.json');
  writeFileSync(file, JSON.stringify(script));
  await vscode.workspace
    .getConfiguration('tandem')
    .update('agents', [{ name, command: process.execPath, args: [agentJs, file] }], vscode.ConfigurationTarget.Global);
  return file;
}

/** Polls `pred` until it holds (exceptions count as "not yet"), or fails after `ms`. */

/**
 * Runs a command that shows a QuickPick or InputBox and accepts its first item. (Moving the
 * selection first races with the picker appearing: tests pick the first item only.)
 */
export async function runAccepting(command: string, ...args: unknown[]): Promise<unknown> {
  let done = false;
  const p = Promise.resolve(vscode.commands.executeCommand(command, ...args)).finally(() => {
    done = true;
  });
  const t0 = Date.now();
  while (!done && Date.now() - t0 < 20_000) {
    await new Promise((r) => setTimeout(r, 300));
    if (!done) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  }
  return p;
}
