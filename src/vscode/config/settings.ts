// Tandem's settings table, as rust-analyzer's editors/code/src/config.ts keeps its own: every key
// of package.json's contributes.configuration (without the `tandem.` prefix) with its default
// and scope, equal to package.json's (test/unit/vscode/config.test.ts checks both ways). The
// typed getters (../config.ts and its neighbours) read through `read`/`inspect` here, the one
// place that calls vscode.workspace.getConfiguration('tandem').
//
// Machine-scoped settings are read with `get()`, as before: VS Code then never takes them from
// workspace or folder settings (a cloned repo cannot choose what Tandem executes). Nothing here
// reads a setting at module load.
import * as vscode from 'vscode';
import { DEMO_AGENT_NAME } from '../../client/agents/agentConfig';
import { OFFICIAL_INDEX_URL } from '../../registry/catalog';
import { DEFAULT_EXCLUDE } from '../../tools/lmTools';
import { DEFAULT_TOOLS_CONFIG } from '../../tools/types';

export const SECTION = 'tandem';

export interface Setting<T> {
  /** What a setting left unset reads as: package.json's default. */
  readonly default: T;
  /** package.json's `scope` (undefined: window). 'machine': never read from a workspace. */
  readonly scope?: 'machine' | 'resource';
}

const setting = <T>(d: T, scope?: Setting<T>['scope']): Setting<T> => (scope ? { default: d, scope } : { default: d });

/** Every setting Tandem declares; the getters are built on it. */
export const SETTINGS = {
  agents: setting<unknown[]>([], 'machine'),
  defaultAgent: setting<string>(DEMO_AGENT_NAME, 'machine'),
  notifications: setting<string>('whenHidden'),
  'permissions.rules': setting<unknown[]>([], 'resource'),
  maxMessageSizeMB: setting<number>(64, 'machine'),
  maxAgents: setting<number>(4, 'machine'),
  idleAgentMinutes: setting<number>(30),
  'terminal.visible': setting<boolean>(false, 'machine'),
  followAgent: setting<boolean>(false),
  followOutsideWorkspace: setting<boolean>(false),
  'clientTools.collapse': setting<boolean>(DEFAULT_TOOLS_CONFIG.collapse),
  'clientTools.expandedGroups': setting<string[]>([]),
  'clientTools.timeoutSeconds': setting<number>(DEFAULT_TOOLS_CONFIG.timeoutMs / 1000),
  'clientTools.disconnectedMessage': setting<string>(DEFAULT_TOOLS_CONFIG.disconnectedMessage),
  'clientTools.disconnection.strategy': setting<string>(DEFAULT_TOOLS_CONFIG.disconnection),
  'clientTools.disconnection.maxRetries': setting<number>(DEFAULT_TOOLS_CONFIG.maxRetries),
  'clientTools.instructions': setting<string>('', 'machine'),
  'clientTools.extensionTools.exclude': setting<readonly string[]>(DEFAULT_EXCLUDE, 'machine'),
  'clientTools.commandTools': setting<unknown[]>([], 'machine'),
  mcpServers: setting<unknown[]>([], 'machine'),
  'registry.url': setting<string>(OFFICIAL_INDEX_URL, 'machine'),
  'registry.checkForUpdates': setting<boolean>(true, 'machine'),
  recordTraffic: setting<boolean>(false, 'machine'),
  'worktree.setupCommand': setting<string>('', 'machine'),
  'worktree.agents': setting<string[]>([]),
} as const satisfies Record<string, Setting<unknown>>;

export type SettingKey = keyof typeof SETTINGS;
/** The type a setting is declared with. settings.json may hold anything: getters check. */
export type Declared<K extends SettingKey> = (typeof SETTINGS)[K]['default'];

type Prefixes<K extends string> = K extends `${infer H}.${infer T}` ? H | `${H}.${Prefixes<T>}` : never;
/** A setting, or a group of them ('clientTools', 'clientTools.extensionTools'). */
export type Watchable = SettingKey | Prefixes<SettingKey>;

/** The full id, as the Settings editor and `workbench.action.openSettings` know it. */
export const settingId = (key: Watchable): string => `${SECTION}.${key}`;

const copy = <T>(v: T): T => (v !== null && typeof v === 'object' ? structuredClone(v) : v);

/**
 * The effective value (VS Code merges default, user, workspace and folder as each setting's
 * scope allows), or the table's default when unset. Typed as declared, not checked: getters
 * check the shape before using it.
 */
export function read<K extends SettingKey>(key: K, scope?: vscode.ConfigurationScope): Declared<K> {
  return vscode.workspace.getConfiguration(SECTION, scope).get<Declared<K>>(key, copy(SETTINGS[key].default));
}

/** The values apart, by where they are set (user, workspace, folder): `inspect()`. */
export interface SettingValues {
  user: unknown;
  workspace: unknown;
  workspaceFolder: unknown;
}

export function inspect(key: SettingKey, scope?: vscode.ConfigurationScope): SettingValues {
  const info = vscode.workspace.getConfiguration(SECTION, scope).inspect<unknown>(key);
  return { user: info?.globalValue, workspace: info?.workspaceValue, workspaceFolder: info?.workspaceFolderValue };
}

/** Writes (undefined removes) the value at `target`. */
export async function write<K extends SettingKey>(
  key: K,
  value: Declared<K> | undefined,
  target: vscode.ConfigurationTarget,
): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update(key, value, target);
}

/**
 * Calls `listener` when any of `keys` (settings or groups) changed; it gets `affects` to tell
 * which. The one subscription to onDidChangeConfiguration for Tandem's settings.
 */
export function onDidChange(
  keys: readonly Watchable[],
  listener: (affects: (key: Watchable) => boolean) => void,
): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    const affects = (k: Watchable) => e.affectsConfiguration(settingId(k));
    if (keys.some(affects)) listener(affects);
  });
}
