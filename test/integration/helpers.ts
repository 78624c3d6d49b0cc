// Shared by the integration tests that run inside the real VS Code.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TandemApi, TandemTestApi } from '../../src/api';
import { closeGitRepositories } from '../../src/vscode/commit/gitExtension';
import { until } from '../support/until';
export { until };

/**
 * Removes the git repositories a test made (the workspace's `.git`, worktree folders) after closing
 * them in VS Code's git extension, all at once, as Tandem does before it removes a worktree (see
 * closeGitRepositories): a `git check-ignore` the extension still runs in a folder whose `.git` is
 * gone dies with an uncaught EPIPE, which mocha pins on whichever test runs at that moment. Each entry is a
 * repository's top folder and what to delete: its `.git` unless the folder itself is named.
 */
export async function removeGitRepos(...repos: (string | { root: string; path: string })[]): Promise<void> {
  const all = repos.map((r) => (typeof r === 'string' ? { root: r, path: join(r, '.git') } : r));
  await closeGitRepositories(...all.map((r) => r.root));
  for (const r of all) rmSync(r.path, { recursive: true, force: true });
}

/** A worktree's folder, whole, for removeGitRepos. */
export const wholeFolder = (root: string) => ({ root, path: root });

export const TANDEM_ID = 'tandem-dev.tandem';

/** Tandem's extension API with its parts for tests (src/api.ts: `testing`, under ExtensionMode.Test). */
export type TestedTandem = Omit<TandemApi, 'testing'> & TandemTestApi;

/** Tandem, activated in this VS Code: its extension API with its test parts, and where it is installed. */
export async function activateTandem(): Promise<{ api: TestedTandem; extensionPath: string }> {
  const ext = vscode.extensions.getExtension<TandemApi>(TANDEM_ID)!;
  const exported = await ext.activate();
  if (!exported.testing) throw new Error('Tandem did not return its test parts: is the extension host in test mode?');
  return { api: { ...exported, ...exported.testing }, extensionPath: ext.extensionPath };
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
