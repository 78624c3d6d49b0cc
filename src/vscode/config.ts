// Tandem's configuration: one typed getter per setting, built on the table in config/settings.ts
// (keys, defaults and scopes as package.json declares them; test/unit/vscode/config.test.ts).
// Everything in src/ reads and writes Tandem's settings through here; no other file calls
// vscode.workspace.getConfiguration for them. Getters read when called (a changed setting
// applies at once); nothing is read at module load. By concern: config/agents.ts (what Tandem
// runs), config/clientTools.ts (client tools, MCP servers), the rest below.
import * as vscode from 'vscode';
import { inspect, read, SETTINGS, write } from './config/settings';

export { SETTINGS, settingId, onDidChange, type SettingKey, type Watchable } from './config/settings';
export {
  readSettings,
  setDefaultAgent,
  setUserAgentEntries,
  userAgentEntries,
  userDefaultAgent,
  type TandemSettings,
} from './config/agents';
export {
  commandTools,
  extensionToolsExclude,
  readToolsConfig,
  readUserMcpServers,
  type CommandToolSetting,
} from './config/clientTools';

export type NotifySetting = 'off' | 'whenHidden' | 'always';

/** tandem.notifications: off, when the view is out of sight (the default, also for unknown values), always. */
export function notifications(): NotifySetting {
  const v = read('notifications');
  return v === 'off' || v === 'always' ? v : 'whenHidden';
}

/**
 * tandem.permissions.rules, the user and the workspace values apart (never merged): rules in
 * workspace settings can only tighten (src/client/permissions/rules.ts).
 */
export function permissionRules(): { user: unknown; workspace: unknown; workspaceFolder: unknown } {
  return inspect('permissions.rules');
}

/** Writes (undefined: removes) tandem.permissions.rules at `target` (Manage Permissions). */
export function setPermissionRules(value: unknown[] | undefined, target: vscode.ConfigurationTarget): Promise<void> {
  return write('permissions.rules', value, target);
}

/** tandem.maxAgents: how many agent processes may run at once (1–16; a bad value: the default). */
export function maxAgents(): number {
  const n = Number(read('maxAgents'));
  return Number.isInteger(n) && n >= 1 ? Math.min(n, 16) : SETTINGS.maxAgents.default;
}

/** tandem.idleAgentMinutes: an agent unused this long stops (0: never; a bad value: the default). */
export function idleAgentMinutes(): number {
  const n = Number(read('idleAgentMinutes'));
  return Number.isFinite(n) && n >= 0 ? n : SETTINGS.idleAgentMinutes.default;
}

/** tandem.followAgent: tool-call locations open in the editor. */
export function followAgent(): boolean {
  return Boolean(read('followAgent'));
}

/** Sets tandem.followAgent where it is set (workspace wins over user), in the user settings otherwise. */
export function setFollowAgent(on: boolean): Promise<void> {
  const target =
    inspect('followAgent').workspace !== undefined
      ? vscode.ConfigurationTarget.Workspace
      : vscode.ConfigurationTarget.Global;
  return write('followAgent', on, target);
}

/** tandem.followOutsideWorkspace: follow-along opens files outside the workspace folders too. */
export function followOutsideWorkspace(): boolean {
  return Boolean(read('followOutsideWorkspace'));
}

/** tandem.terminal.visible (machine): agent commands run in visible terminals. */
export function visibleTerminals(): boolean {
  return Boolean(read('terminal.visible'));
}

/** tandem.recordTraffic (machine: it writes files): each connection's traffic to a JSONL file. */
export function recordTraffic(): boolean {
  return Boolean(read('recordTraffic'));
}

/** tandem.registry.url (machine: it decides what Add Agent installs); empty means the official index. */
export function registryUrl(): string {
  const v = read('registry.url');
  return (typeof v === 'string' && v) || SETTINGS['registry.url'].default;
}

/** tandem.registry.checkForUpdates (machine): the daily check for new agent versions. */
export function registryCheckForUpdates(): boolean {
  return Boolean(read('registry.checkForUpdates'));
}

/** tandem.worktree.setupCommand (machine: it executes): a shell line run in each new worktree, e.g. `npm ci`. */
export function worktreeSetupCommand(): string {
  const v = read('worktree.setupCommand');
  return typeof v === 'string' ? v.trim() : '';
}

/** tandem.worktree.agents: the agents whose new sessions open in a git worktree of their own. */
export function worktreeAgents(): string[] {
  const v = read('worktree.agents');
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}
