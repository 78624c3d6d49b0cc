// Install, update and uninstall registry agents, with VS Code left outside: the settings it writes
// (`tandem.agents` in user settings) and what is running reach it through small ports, so the
// whole flow runs in plain Node tests against a local index.
import type { AgentConfig } from '../client/agents/agentConfig';
import { buildCatalog, type Catalog, type CatalogRow } from './browse';
import { loadIndex } from './catalog';
import type { UrlPolicy } from './download';
import { carryOut, type InstallContext, type InstallOutcome } from './installer';
import type { PlatformKey } from './types';
import type { InstallPlan, Tools } from './plan';
import { probeInitialize, type ProbeResult } from './probe';
import { removeEntry, upsertEntry, uniqueAgentName } from './settingsEntries';
import type { RegistryStore } from './store';
import type { InstalledAgent } from './types';

export interface RegistryDeps {
  store: RegistryStore;
  indexUrl: () => string;
  policy: () => UrlPolicy;
  tools: () => Tools;
  platform: PlatformKey | undefined;
  /** The raw `tandem.agents` list of the user settings, and a way to write it back. */
  settings: { read(): unknown[]; write(entries: unknown[]): Promise<void> };
  /** Whether the agent with this settings name runs now (its files must stay until it stops). */
  isRunning: (agentName: string) => boolean;
  /** Checks a new version before an update switches to it (default: ACP initialize). */
  probe?: (agent: AgentConfig) => Promise<ProbeResult>;
  log?: (line: string) => void;
  now?: () => number;
}

export interface Update {
  id: string;
  name: string;
  from: string;
  to: string;
}

export interface OperationOptions {
  signal?: AbortSignal;
  progress?: InstallContext['progress'];
  /** The catalog the user chose from (saves fetching the index again). */
  catalog?: Catalog;
}

export class RegistryService {
  private readonly busy = new Set<string>();

  constructor(private readonly d: RegistryDeps) {}

  async catalog(o: { maxAgeMs?: number } = {}): Promise<Catalog> {
    const loaded = await loadIndex({
      url: this.d.indexUrl(),
      cacheFile: this.d.store.cacheFile,
      policy: this.d.policy(),
      maxAgeMs: o.maxAgeMs,
      now: this.d.now,
    });
    for (const w of loaded.warnings) this.d.log?.(w);
    if (loaded.offline)
      this.d.log?.(`could not fetch ${loaded.url} (${loaded.fetchErrorDetail}): using the saved copy`);
    return buildCatalog(loaded, await this.d.store.installed(), this.d.platform, this.d.tools());
  }

  installed(): Promise<InstalledAgent[]> {
    return this.d.store.installed();
  }

  /** Updates the index offers for installed agents (a cached index younger than `maxAgeMs` is enough). */
  async updates(maxAgeMs: number): Promise<Update[]> {
    const c = await this.catalog({ maxAgeMs });
    return c.rows
      .filter((r) => r.state === 'update' && r.installed)
      .map((r) => ({ id: r.id, name: r.name, from: r.installed!.version, to: r.version }));
  }

  /** Installs `id` and adds it to `tandem.agents`; resolves with its record. */
  async install(id: string, o: OperationOptions = {}): Promise<InstalledAgent> {
    return this.exclusive(id, async () => {
      const row = await this.row(id, o.catalog);
      if (row.installed) throw new Error(`${row.name} is already installed (version ${row.installed.version})`);
      if (!row.plan)
        throw new Error(`${row.name} cannot be installed here: ${row.unavailable?.message ?? 'no distribution'}`);
      const outcome = await carryOut(row, row.plan, this.context(o));
      const entries = this.d.settings.read();
      const name = uniqueAgentName(row.name, row.id, entries, await this.d.store.installed());
      const record: InstalledAgent = {
        id: row.id,
        version: outcome.version,
        ...registryVersion(row.version, outcome.version),
        kind: row.plan.kind,
        agentName: name,
        dir: outcome.dir,
        installedAt: (this.d.now ?? Date.now)(),
      };
      try {
        await this.d.settings.write(upsertEntry(entries, { name, ...outcome.run }));
        await this.d.store.record(record);
      } catch (err) {
        outcome.release();
        if (outcome.dir) await this.d.store.removeDir(row.id, outcome.dir);
        throw err;
      }
      outcome.release(); // recorded: no window takes it for left over now
      return record;
    });
  }

  /**
   * Installs the index's newer version beside the old one (in a folder of its own, even when npm
   * installs the same version), checks that it starts (ACP initialize), then switches the settings
   * entry to it and removes the old version (unless it is running, in this window or, by its
   * lease, in another: it goes with the next `removeStale` after it stops). A new version that
   * fails is removed and the old one stays configured.
   */
  async update(id: string, o: OperationOptions = {}): Promise<{ from: InstalledAgent; to: InstalledAgent }> {
    return this.exclusive(id, async () => {
      const row = await this.row(id, o.catalog);
      const from = row.installed;
      if (!from) throw new Error(`${row.name} is not installed`);
      const plan = row.plan;
      if (row.state !== 'update' || !plan) throw new Error(`${row.name} ${from.version} is up to date`);
      const outcome = await carryOut(row, plan, this.context(o));
      try {
        return await this.switchTo({ ...row, plan }, from, outcome, o);
      } finally {
        outcome.release();
      }
    });
  }

  /** Checks that the new version starts, then points the settings and the record at it. */
  private async switchTo(
    row: CatalogRow & { plan: InstallPlan },
    from: InstalledAgent,
    outcome: InstallOutcome,
    o: OperationOptions,
  ): Promise<{ from: InstalledAgent; to: InstalledAgent }> {
    const next = upsertEntry(this.d.settings.read(), { name: from.agentName, ...outcome.run });
    const config = (next.find((e) => (e as AgentConfig).name === from.agentName) as AgentConfig) ?? {
      name: from.agentName,
      ...outcome.run,
    };
    o.progress?.(`Checking that ${row.name} ${outcome.version} starts…`);
    const probe = await (this.d.probe ?? ((a) => probeInitialize(a, { cwd: this.d.store.root })))(config);
    if (!probe.ok) {
      outcome.release();
      if (outcome.dir && outcome.dir !== from.dir) await this.d.store.removeDir(row.id, outcome.dir);
      // The caller says that `from` stays (every failed update keeps it).
      throw new Error(`${row.name} ${outcome.version} did not start: ${probe.message}`);
    }
    const to: InstalledAgent = {
      ...from,
      version: outcome.version,
      registryVersion: undefined,
      ...registryVersion(row.version, outcome.version),
      kind: row.plan.kind,
      dir: outcome.dir,
      installedAt: (this.d.now ?? Date.now)(),
    };
    await this.d.settings.write(next);
    await this.d.store.record(to);
    // Lease-aware: kept while another window runs it, removed by a removeStale after it stops.
    if (from.dir && from.dir !== to.dir && !this.d.isRunning(from.agentName))
      await this.d.store.removeDir(row.id, from.dir);
    return { from, to };
  }

  /** Removes the record and the `tandem.agents` entry, and the files unless a window still runs them. */
  async uninstall(id: string): Promise<InstalledAgent> {
    return this.exclusive(id, async () => {
      const rec = (await this.d.store.installed()).find((a) => a.id === id);
      if (!rec) throw new Error(`"${id}" is not installed from the registry`);
      await this.d.settings.write(removeEntry(this.d.settings.read(), rec.agentName));
      await this.d.store.forget(id);
      if (rec.dir) await this.d.store.removeDir(id, rec.dir);
      await this.d.store.removeStale();
      return rec;
    });
  }

  private async row(id: string, catalog?: Catalog): Promise<CatalogRow> {
    const c = catalog ?? (await this.catalog());
    const row = c.rows.find((r) => r.id === id);
    if (!row || !row.listed) throw new Error(`the registry has no agent "${id}"`);
    return row;
  }

  private context(o: OperationOptions): InstallContext {
    return {
      store: this.d.store,
      tools: this.d.tools(),
      policy: this.d.policy(),
      signal: o.signal,
      progress: o.progress,
      log: this.d.log,
    };
  }

  private async exclusive<T>(id: string, run: () => Promise<T>): Promise<T> {
    if (this.busy.has(id)) throw new Error(`"${id}" is already being installed or changed`);
    this.busy.add(id);
    try {
      return await run();
    } finally {
      this.busy.delete(id);
    }
  }
}

/** The index's version for the record, when npm installed another. */
function registryVersion(indexVersion: string, installed: string): { registryVersion?: string } {
  return indexVersion === installed ? {} : { registryVersion: indexVersion };
}
