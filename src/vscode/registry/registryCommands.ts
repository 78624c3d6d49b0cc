// The ACP Registry inside VS Code: "Add Agent from Registry…" (browse, install, update, use,
// uninstall), "Update Registry Agents", "Uninstall Registry Agent…", and a daily update notice.
// Installed agents go to Tandem's global storage and into `tandem.agents` of the USER settings
// (machine-scoped: a workspace never decides what runs). Nothing is installed or run in a
// restricted workspace. Right after an install the agent starts, and when it asks to sign in the
// existing sign-in flow takes over. While an agent from the registry folder runs, this window
// holds a lease on its version folder, so no window removes it (leases.ts).
import * as vscode from 'vscode';
import { findExecutable } from '../../client/agents/agentPresets';
import { toDisposable } from '../../common/disposable';
import type { Event } from '../../common/event';
import type { Logger } from '../../common/logger';
import { plainText, type Catalog } from '../../registry/browse';
import { urlPolicyFromEnv } from '../../registry/download';
import { AgentLease } from '../../registry/leases';
import { platformKey } from '../../registry/plan';
import { RegistryService, type Update } from '../../registry/service';
import { RegistryStore } from '../../registry/store';
import { pickRow } from './browser';
import { RegistryIcons } from './icons';
import { rememberInstalled } from './installedAgents';
import { RegistryActions } from './registryActions';
import { registryCheckForUpdates, registryUrl, setUserAgentEntries, userAgentEntries } from '../config';
import { GLOBAL_STATE } from '../storageKeys';

/** What the registry needs of the agent controller: the shown agent, start, and whether and which run. */
export interface AgentRunner {
  readonly agent: { name?: string; state: string };
  start(name?: string): Promise<void>;
  /** Whether the named agent runs now (the view may show another). */
  isRunning(name: string): boolean;
  /** Stops the named agent if it runs. */
  stopAgent(name: string): Promise<void>;
}

/** The controller as a whole window sees it: every agent that runs, to lease the folders they run from. */
export interface RunningAgent extends Omit<AgentRunner, 'isRunning'> {
  /** The agents in the pool, with the configuration each started with (its command says where its files are). */
  agents(): readonly { name: string; view: { state: string }; config: { command: string; args?: readonly string[] } }[];
  /** Any agent started, stopped or changed its state. */
  readonly onDidChangeAgents: Event<void>;
}

export interface RegistryDeps {
  context: vscode.ExtensionContext;
  logger: Logger;
  runner: AgentRunner;
  /** Tandem: Sign In, for an agent that needs it right after its install. */
  signIn: () => Promise<unknown>;
  showView: () => void;
}

/** For tests and other extensions: the catalog as the list shows it, and the update check. */
export interface RegistryApi {
  catalog(): Promise<Catalog>;
  /** Fetches the index now and notifies about new versions (the daily check uses a cached index). */
  checkForUpdates(): Promise<Update[]>;
}

const UPDATE_CHECK_EVERY_MS = 24 * 60 * 60 * 1000;

export function registryCommands(
  d: Omit<RegistryDeps, 'runner'> & { runner: RunningAgent },
): vscode.Disposable[] & { api: RegistryApi } {
  const running = new Set(['starting', 'auth', 'ready']);
  const root = vscode.Uri.joinPath(d.context.globalStorageUri, 'registry').fsPath;
  const store = new RegistryStore(root);
  const service = new RegistryService({
    store,
    // Machine-scoped in package.json: only user (or remote machine) settings can set it.
    indexUrl: registryUrl,
    policy: () => urlPolicyFromEnv(),
    tools: () => ({ node: findExecutable('node'), npm: findExecutable('npm'), uvx: findExecutable('uvx') }),
    platform: platformKey(),
    settings: {
      read: userAgentEntries,
      write: setUserAgentEntries,
    },
    isRunning: (name) => isRunning(name),
    log: (line) => d.logger.info(`[registry] ${line}`),
  });
  // Each running agent's version folder is leased from 'starting' (before its process is spawned)
  // until it stops; a folder one leaves may be left over (an update while it ran): tidy up then.
  const isRunning = (name: string) => d.runner.agents().some((a) => a.name === name && running.has(a.view.state));
  const leases = new Map<string, AgentLease>();
  const followAgents = (tidy: boolean) => {
    const dirs = () => new Set([...leases.values()].map((l) => l.dir).filter((x) => x !== undefined));
    const before = dirs();
    const live = new Map(d.runner.agents().flatMap((a) => (running.has(a.view.state) ? [[a.name, a.config]] : [])));
    for (const [name, l] of leases)
      if (!live.has(name)) {
        l.dispose();
        leases.delete(name);
      }
    for (const [name, config] of live) {
      let l = leases.get(name);
      if (!l) {
        l = new AgentLease(
          () => store.leases,
          (paths) => store.versionFolderOf(paths),
          (line) => d.logger.warn(`[registry] ${line}`),
        );
        leases.set(name, l);
      }
      l.follow(config);
    }
    const after = dirs();
    if (tidy && [...before].some((dir) => !after.has(dir))) void store.removeStale().catch(() => undefined);
  };
  // A stop fires its state change after the connection is gone: the uninstall's stop follows
  // itself (and removes the files itself).
  const runner: AgentRunner = {
    get agent() {
      return d.runner.agent;
    },
    start: (name) => d.runner.start(name),
    isRunning,
    stopAgent: async (name) => {
      await d.runner.stopAgent(name);
      followAgents(false);
    },
  };
  // Built on first use: activation only registers commands.
  let icons: RegistryIcons | undefined;
  const actions = new RegistryActions(service, { ...d, runner });
  const refreshNames = async () => rememberInstalled(await service.installed().catch(() => []));

  const browse = async () => {
    icons ??= new RegistryIcons(store.iconsDir, () => urlPolicyFromEnv());
    const picked = await pickRow(
      () => service.catalog(),
      icons,
      (err) => actions.showLoadError(err, () => vscode.commands.executeCommand('tandem.addAgentFromRegistry')),
    );
    if (picked) await actions.act(picked.row, picked.catalog);
  };

  const checkForUpdates = async (maxAgeMs = 0): Promise<Update[]> => {
    if (!(await service.installed()).length) return [];
    const updates = await service.updates(maxAgeMs);
    const notified = d.context.globalState.get<Record<string, string>>(GLOBAL_STATE.registryNotified, {});
    const fresh = updates.filter((u) => notified[u.id] !== u.to);
    if (fresh.length) {
      for (const u of fresh) notified[u.id] = u.to;
      await d.context.globalState.update(GLOBAL_STATE.registryNotified, notified);
      const what = plainText(fresh.map((u) => `${u.name} ${u.from} → ${u.to}`).join(', '), 500);
      void vscode.window
        .showInformationMessage(
          `Tandem: agent update${fresh.length > 1 ? 's' : ''} in the ACP Registry: ${what}.`,
          'Update',
          'Later',
        )
        .then((pick) => {
          if (pick === 'Update') void actions.updateAll(fresh.map((u) => u.id));
        });
    }
    return updates;
  };

  // After activation, off the activation path: drop left-over versions and check for updates
  // once a day (the cached index is used when it is younger than that: no fetch at every start).
  const timer = setTimeout(() => {
    void (async () => {
      await refreshNames();
      followAgents(false);
      await store.removeStale();
      if (registryCheckForUpdates()) await checkForUpdates(UPDATE_CHECK_EVERY_MS);
    })().catch((err) =>
      d.logger.warn(`[registry] background check failed: ${err instanceof Error ? err.message : err}`),
    );
  }, 3000);
  timer.unref?.();

  const disposables: vscode.Disposable[] = [
    toDisposable(() => clearTimeout(timer)),
    d.runner.onDidChangeAgents(() => followAgents(true)),
    toDisposable(() => {
      for (const l of leases.values()) l.dispose();
    }),
    vscode.commands.registerCommand('tandem.addAgentFromRegistry', async (id?: unknown) => {
      const name = typeof id === 'string' ? await actions.install(id) : await browse();
      await refreshNames();
      return name;
    }),
    vscode.commands.registerCommand('tandem.updateRegistryAgents', async (id?: unknown) => {
      let ids: string[];
      try {
        ids = typeof id === 'string' ? [id] : (await service.updates(0)).map((u) => u.id);
      } catch (err) {
        // No index and no saved copy: say so, not "up to date".
        actions.showLoadError(err, () => vscode.commands.executeCommand('tandem.updateRegistryAgents'));
        return [];
      }
      if (!ids.length)
        void vscode.window.showInformationMessage('Tandem: every agent from the ACP Registry is up to date.');
      const done = await actions.updateAll(ids);
      await refreshNames();
      return done;
    }),
    vscode.commands.registerCommand('tandem.uninstallRegistryAgent', async (id?: unknown) => {
      const target = typeof id === 'string' ? id : await pickInstalled(service);
      const removed = target ? await actions.uninstall(target) : undefined;
      await refreshNames();
      return removed;
    }),
  ];
  return Object.assign(disposables, {
    api: { catalog: () => service.catalog(), checkForUpdates: () => checkForUpdates() },
  });
}

async function pickInstalled(service: RegistryService): Promise<string | undefined> {
  const installed = await service.installed();
  if (!installed.length) {
    void vscode.window.showInformationMessage('Tandem: no agent from the ACP Registry is installed.');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    installed.map((a) => ({ label: a.agentName, description: `${a.id} ${a.version} · ${a.kind}`, id: a.id })),
    { title: 'Tandem: Uninstall Registry Agent', placeHolder: 'Removes its files and its tandem.agents entry' },
  );
  return pick?.id;
}
