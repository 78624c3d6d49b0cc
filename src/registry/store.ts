// Where registry agents live on disk, under Tandem's global storage:
//   <root>/installed.json             what is installed (id, version, kind, folder, settings name)
//   <root>/index-cache.json           the last index fetched, with its URL and time (offline use)
//   <root>/icons/<id>.<theme>.svg     icons, recoloured for light and dark themes
//   <root>/agents/<id>/<version>/     one folder per installed version
//   <root>/agents/<id>/.staging-*/    an install in progress; never run from, removed on failure
// A version folder the manifest does not name is left over (an update whose old version was
// still running, an interrupted install) and is removed by `removeStale`.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DistributionKind, InstalledAgent } from './types';

export class RegistryStore {
  constructor(readonly root: string) {}

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

  /** Moves a finished staging folder to `dest` (replacing an older copy of the same version). */
  async promote(staging: string, dest: string): Promise<void> {
    await rm(dest, { recursive: true, force: true });
    await rename(staging, dest);
  }

  /** Removes a folder and, when that leaves the agent's folder empty, the agent's folder too. */
  async removeDir(id: string, dir: string): Promise<void> {
    await rm(dir, { recursive: true, force: true });
    await rmdir(this.agentDir(id)).catch(() => undefined); // fails while other versions remain
  }

  /**
   * Removes what no manifest entry names: staging folders and old versions. `keep` names folders
   * still in use (the version a running agent was started from).
   */
  async removeStale(keep: readonly string[] = []): Promise<string[]> {
    const installed = await this.installed();
    const wanted = new Set([...installed.map((a) => a.dir).filter((d): d is string => !!d), ...keep]);
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
        if (wanted.has(dir)) continue;
        // Another window may be installing right now: leave its fresh staging folder alone.
        if (e.startsWith('.staging-') && (await ageMs(dir)) < STAGING_GRACE_MS) continue;
        await rm(dir, { recursive: true, force: true });
        removed.push(dir);
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

const KINDS: readonly DistributionKind[] = ['npx', 'uvx', 'binary'];

function isInstalledAgent(v: unknown): v is InstalledAgent {
  const a = v as Partial<InstalledAgent> | null;
  return (
    !!a &&
    typeof a.id === 'string' &&
    typeof a.version === 'string' &&
    typeof a.agentName === 'string' &&
    KINDS.includes(a.kind as DistributionKind) &&
    (a.dir === undefined || typeof a.dir === 'string')
  );
}
