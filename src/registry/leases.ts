// Which version folders are in use, across windows. Each VS Code window has its own extension
// host, its own Tandem and its own running agent, and all of them share one registry folder: what
// one window calls left over may be what another window's agent runs from. So a window that runs
// an agent from a version folder (or is installing into one) holds a lease on it: a file in
// <root>/leases/ naming the folder and the extension host's pid, written before the agent is
// spawned and removed when it stops. Nothing removes a folder a live lease names. A lease whose
// process is gone (a window that crashed) no longer counts and is cleared by the next reader.
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';

/** The process a lease belongs to: an extension host, on this machine unless `host` says otherwise. */
export interface LeaseHolder {
  pid: number;
  host: string;
}

interface LeaseRecord extends LeaseHolder {
  dir: string;
  at: number;
}

export class Leases {
  constructor(
    readonly folder: string,
    private readonly self: LeaseHolder = { pid: process.pid, host: hostname() },
    private readonly alive: (pid: number) => boolean = pidAlive,
  ) {}

  /**
   * Takes a lease on `dir` for this process and returns its release. Synchronous: the lease is on
   * disk before the caller goes on to spawn anything from the folder. One file per lease, written
   * whole and then renamed into place, so a reader never sees half of one and no two writers meet.
   */
  take(dir: string): () => void {
    mkdirSync(this.folder, { recursive: true });
    const file = join(this.folder, `${this.self.pid}-${randomBytes(6).toString('hex')}.json`);
    const record: LeaseRecord = { dir: resolve(dir), ...this.self, at: Date.now() };
    writeFileSync(`${file}.tmp`, JSON.stringify(record), { flag: 'wx' });
    renameSync(`${file}.tmp`, file);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      rmSync(file, { force: true });
    };
  }

  /** The folders a live process holds a lease on now; leases of processes that are gone are removed. */
  async held(): Promise<Set<string>> {
    const dirs = new Set<string>();
    let names: string[];
    try {
      names = await readdir(this.folder);
    } catch {
      return dirs;
    }
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      const file = join(this.folder, name);
      let rec: Partial<LeaseRecord>;
      try {
        rec = JSON.parse(await readFile(file, 'utf8')) as Partial<LeaseRecord>;
      } catch {
        continue; // just released, or unreadable: it names nothing
      }
      if (typeof rec.dir !== 'string' || typeof rec.pid !== 'number') continue;
      // Another machine's processes cannot be checked from here (a shared home folder): it counts.
      if (rec.host !== this.self.host || rec.pid === this.self.pid || this.alive(rec.pid)) dirs.add(resolve(rec.dir));
      else await rm(file, { force: true });
    }
    return dirs;
  }

  async holds(dir: string): Promise<boolean> {
    return (await this.held()).has(resolve(dir));
  }
}

/** Whether a process with this pid exists (EPERM: it does, it belongs to someone else). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Where the running agent's command lives: the version folder it would need a lease on, or undefined. */
export type FolderOf = (paths: readonly string[]) => string | undefined;

/**
 * The lease of this window's running agent: held on the version folder its command (or, for npm
 * agents run by node, its script) lives in, from the moment it starts until it stops or another
 * agent starts. An agent from outside the registry folder needs none.
 */
export class AgentLease {
  private held?: { dir: string; release: () => void };

  /** `leases` is asked for when a lease is first taken: activation touches no file. */
  constructor(
    private readonly leases: () => Leases,
    private readonly folderOf: FolderOf,
    private readonly log?: (line: string) => void,
  ) {}

  get dir(): string | undefined {
    return this.held?.dir;
  }

  /** The agent now running (its command and args), or undefined when none runs. */
  follow(run: { command: string; args?: readonly string[] } | undefined): void {
    const dir = run ? this.folderOf([run.command, ...(run.args ?? [])]) : undefined;
    if (dir === this.held?.dir) return;
    this.held?.release();
    this.held = undefined;
    if (!dir) return;
    try {
      this.held = { dir, release: this.leases().take(dir) };
    } catch (err) {
      this.log?.(`could not record that ${dir} is in use: ${err instanceof Error ? err.message : err}`);
    }
  }

  dispose(): void {
    this.follow(undefined);
  }
}
