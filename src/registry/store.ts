// Where registry agents live on disk, under Tandem's global storage:
//   <root>/installed.json             what is installed (id, version, kind, folder, settings name)
//   <root>/index-cache.json           the last index fetched, with its URL and time (offline use)
//   <root>/icons/<id>.<theme>.svg     icons, recoloured for light and dark themes
//   <root>/agents/<id>/<version>/     one folder per install: `<version>`, or `<version>-<random>`
//                                     when that name is taken (never replaced: it may be running)
//   <root>/agents/<id>/.staging-*/    an install in progress; never run from, removed on failure
//   <root>/leases/*.json              which folders running agents use, in every window (leases.ts)
// A version folder the manifest does not name is left over (an update whose old version was
// still running, an interrupted install) and is removed by `removeStale` once no lease holds it.
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readFile, readdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { Leases, type LeaseHolder } from './leases';
import type { DistributionKind, InstalledAgent } from './types';

export class RegistryStore {
  private leaseFiles?: Leases;

  /** `holder`: whose leases this store takes (default: this process). */
  constructor(
    readonly root: string,
    private readonly holder?: LeaseHolder,
  ) {}

  /** Made on first use, like every path here: activation builds the store and touches nothing. */
  get leases(): Leases {
    return (this.leaseFiles ??= new Leases(join(this.root, 'leases'), this.holder));
  }

  get manifestFile(): string {
    return join(this.root, 'installed.json');
  }
  get cacheFile(): string {
    return join(this.root, 'index-cache.json');
  }
  get iconsDir(): string {
    return join(this.root, 'icons');
  }
  agentDir(id: string): string {
    return join(this.root, 'agents', id);
  }
  versionDir(id: string, version: string): string {
    // A version is a registry string: keep only characters safe in a folder name.
    return join(this.agentDir(id), version.replace(/[^0-9A-Za-z.+-]/g, '_'));
  }

  /** The version folder one of `paths` (an agent's command and args) lies in, if any. */
  versionFolderOf(paths: readonly string[]): string | undefined {
    const agents = join(this.root, 'agents');
    for (const p of paths) {
      if (!isAbsolute(p)) continue;
      const rel = relative(agents, resolve(p));
      const parts = rel.split(sep);
      if (isAbsolute(rel) || parts.length < 3 || parts[0] === '..' || parts[1].startsWith('.')) continue;
      return join(agents, parts[0], parts[1]);
    }
    return undefined;
  }

  /** A fresh, empty staging folder for an install of `id`. */
  async staging(id: string): Promise<string> {
    const dir = join(this.agentDir(id), `.staging-${randomBytes(6).toString('hex')}`);
    await mkdir(dir, { recursive: true });
    return dir;
  }

  async installed(): Promise<InstalledAgent[]> {
    try {
      const raw = JSON.parse(await readFile(this.manifestFile, 'utf8')) as { agents?: unknown };
      return Array.isArray(raw.agents) ? raw.agents.filter(isInstalledAgent) : [];
    } catch {
      return [];
    }
  }

  /** Adds or replaces the record of `agent.id`. */
  async record(agent: InstalledAgent): Promise<void> {
    const all = (await this.installed()).filter((a) => a.id !== agent.id);
    await this.writeManifest([...all, agent]);
  }

  async forget(id: string): Promise<void> {
    await this.writeManifest((await this.installed()).filter((a) => a.id !== id));
  }

  private async writeManifest(agents: InstalledAgent[]): Promise<void> {
    await mkdir(this.root, { recursive: true });
    // Write then rename: a crash mid-write never leaves a half manifest.
    const tmp = `${this.manifestFile}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(tmp, JSON.stringify({ version: 1, agents }, null, 2));
    await rename(tmp, this.manifestFile);
  }

  /**
   * Moves a finished staging folder to a version folder of its own: `<version>`, or
   * `<version>-<random>` when that exists (the same version may be running in another window, or
   * npm installed the version of the running one). Nothing is replaced or removed. The folder is
   * leased to the caller, so no window removes it before it is recorded: call `release` then.
   */
  async promote(staging: string, id: string, version: string): Promise<{ dir: string; release: () => void }> {
    const base = this.versionDir(id, version);
    for (let attempt = 0; attempt < 8; attempt++) {
      const dir = attempt === 0 ? base : `${base}-${randomBytes(4).toString('hex')}`;
      if (await exists(dir)) continue;
      const release = this.leases.take(dir);
      try {
        await rename(staging, dir);
        return { dir, release };
      } catch (err) {
        release();
        if (!(await exists(dir))) throw err; // a real failure, not a name another window just took
      }
    }
    throw new Error(`found no free folder name for ${id} ${version}`);
  }

  /**
   * Removes a folder unless a live lease holds it, then the agent's folder when that leaves it
   * empty; resolves with whether it is gone. The folder is renamed aside first and the leases read
   * again: an agent that started from it in between keeps it (it is renamed back).
   */
  async removeDir(id: string, dir: string, held?: ReadonlySet<string>): Promise<boolean> {
    if ((held ?? (await this.leases.held())).has(resolve(dir))) return false;
    const aside = join(dirname(dir), `.removing-${randomBytes(6).toString('hex')}`);
    try {
      await rename(dir, aside);
    } catch {
      return !(await exists(dir)); // already gone, or in use where renaming fails (Windows)
    }
    if (await this.leases.holds(dir)) {
      await rename(aside, dir);
      return false;
    }
    await rm(aside, { recursive: true, force: true });
    await rmdir(this.agentDir(id)).catch(() => undefined); // fails while other versions remain
    return true;
  }

  /**
   * Removes what no manifest entry names and no lease holds: staging folders and old versions.
   * `keep` names more folders still in use.
   */
  async removeStale(keep: readonly string[] = []): Promise<string[]> {
    const installed = await this.installed();
    const named = [...installed.map((a) => a.dir).filter((d): d is string => !!d), ...keep];
    const wanted = new Set(named.map((d) => resolve(d)));
    const held = await this.leases.held();
    const removed: string[] = [];
    let ids: string[] = [];
    try {
      ids = await readdir(join(this.root, 'agents'));
    } catch {
      return removed;
    }
    for (const id of ids) {
      let entries: string[] = [];
      try {
        entries = await readdir(this.agentDir(id));
      } catch {
        continue;
      }
      for (const e of entries) {
        const dir = join(this.agentDir(id), e);
        if (wanted.has(resolve(dir)) || held.has(resolve(dir))) continue;
        // Another window may be installing right now: leave its fresh staging folder alone.
        if (e.startsWith('.staging-') && (await ageMs(dir)) < STAGING_GRACE_MS) continue;
        if (await this.removeDir(id, dir, held)) removed.push(dir);
      }
      await rmdir(this.agentDir(id)).catch(() => undefined);
    }
    return removed;
  }
}

const STAGING_GRACE_MS = 60 * 60 * 1000;

async function ageMs(path: string): Promise<number> {
  try {
    return Date.now() - (await stat(path)).mtimeMs;
  } catch {
    return Infinity;
  }
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

const KINDS: readonly DistributionKind[] = ['npx', 'uvx', 'binary'];

function isInstalledAgent(v: unknown): v is InstalledAgent {
  const a = v as Partial<InstalledAgent> | null;
  return (
    !!a &&
    typeof a.id === 'string' &&
    typeof a.version === 'string' &&
    typeof a.agentName === 'string' &&
    KINDS.includes(a.kind as DistributionKind) &&
    (a.dir === undefined || typeof a.dir === 'string') &&
    (a.registryVersion === undefined || typeof a.registryVersion === 'string')
  );
}
