// A process and everything it starts, as one thing to stop: agents (agentProcess.ts), the
// agent's terminal commands (client/terminals/nodeProcesses.ts) and the registry's npm install all spawn
// through here. The tree runs in its own process group (POSIX) so a signal reaches every child;
// on Windows `taskkill /T` walks it by parent instead. The host watchdog (hostWatchdog.ts) guards
// it: if the host dies, the tree dies, and a SIGTERM sent here is followed by the watchdog's
// SIGKILL after the grace even when the host is gone by then.
// No vscode here (docs/ARCHITECTURE.md: src/acp is plain Node).
import { execFile, spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { hostWatchdog, type Watchdog } from './hostWatchdog';
import { groupAlive, taskkillArgs } from './processGroups';

export const DEFAULT_KILL_GRACE_MS = 2000;
const POLL_MS = 20;
/** How often a group whose leader has exited is checked until its last member is gone. */
const LEFTOVER_POLL_MS = 2000;

export interface TreeOptions {
  cwd?: string;
  /** The whole environment of the process (not merged). */
  env?: NodeJS.ProcessEnv;
  stdio?: StdioOptions;
  /** Run through the platform shell (npm.cmd on Windows needs it). */
  shell?: boolean;
  /** Time between SIGTERM and SIGKILL. Default 2000 ms. */
  graceMs?: number;
}

/** What the tree needs from the system: real by default, fakes in unit tests (any OS's path). */
export interface TreeDeps {
  platform: NodeJS.Platform;
  spawn: (command: string, args: string[], options: object) => ChildProcess;
  /** Signals a process group (POSIX): process.kill(-pgid, signal). Throws when it is gone. */
  killGroup: (pgid: number, signal: NodeJS.Signals) => void;
  groupAlive: (pgid: number) => boolean;
  /** Runs taskkill (Windows); resolves with its exit code. */
  taskkill: (args: string[]) => Promise<number | null>;
  /** null: no watchdog. */
  watchdog: Watchdog | null;
}

export const realTreeDeps = (): TreeDeps => ({
  platform: process.platform,
  spawn: (command, args, options) => spawn(command, args, options),
  killGroup: (pgid, signal) => process.kill(-pgid, signal),
  groupAlive,
  taskkill: (args) =>
    new Promise((resolve) => {
      const p = execFile('taskkill', args, { windowsHide: true }, () => resolve(p.exitCode));
    }),
  watchdog: hostWatchdog(),
});

export class ProcessTree {
  readonly child: ChildProcess;
  readonly pid: number | undefined;
  private readonly deps: TreeDeps;
  private readonly grace: number;
  private readonly windows: boolean;
  private leaderGone = false;
  /** taskkill runs not finished yet (Windows): the tree counts as alive until they are. */
  private taskkills = 0;
  private forgotten = false;
  private killing: Promise<boolean> | undefined;

  constructor(command: string, args: readonly string[], opts: TreeOptions = {}, deps: Partial<TreeDeps> = {}) {
    this.deps = { ...realTreeDeps(), ...deps };
    this.grace = opts.graceMs ?? DEFAULT_KILL_GRACE_MS;
    this.windows = this.deps.platform === 'win32';
    this.child = this.deps.spawn(command, [...args], {
      cwd: opts.cwd,
      env: opts.env,
      stdio: opts.stdio ?? 'pipe',
      shell: opts.shell,
      detached: !this.windows,
      windowsHide: true,
    });
    this.pid = this.child.pid;
    this.child.once('exit', () => {
      this.leaderGone = true;
      // alive() forgets the tree once nothing of it is left. Children may outlive the leader (a
      // command's `server &`): keep checking, rarely, so the watchdog never guards the group's id
      // after it is gone and perhaps reused.
      if (!this.alive()) return;
      const leftovers = setInterval(() => {
        if (!this.alive()) clearInterval(leftovers);
      }, LEFTOVER_POLL_MS);
      leftovers.unref();
    });
    this.child.on('error', () => {
      if (this.pid === undefined) this.leaderGone = true;
    });
    if (this.pid !== undefined) this.deps.watchdog?.watch(this.pid, this.grace);
  }

  /**
   * Signals the whole tree. SIGTERM also has the watchdog send SIGKILL after the grace should the
   * tree still run then. False when nothing was there to signal.
   */
  signal(signal: 'SIGTERM' | 'SIGKILL'): boolean {
    if (this.pid === undefined) return false;
    if (this.windows) {
      // Never the leader alone (ChildProcess.kill): its children would survive, unreachable.
      if (this.leaderGone) return false;
      this.taskkills++;
      void this.deps.taskkill(taskkillArgs(this.pid, signal === 'SIGKILL')).finally(() => this.taskkills--);
    } else {
      try {
        this.deps.killGroup(this.pid, signal);
      } catch {
        if (this.leaderGone) return false;
        // The group is gone but the leader not reaped yet, or it left the group.
        try {
          this.child.kill(signal);
        } catch {
          return false;
        }
      }
    }
    if (signal === 'SIGTERM') this.deps.watchdog?.stopping(this.pid);
    return true;
  }

  /**
   * True while any process of the tree may run: the leader until its exit was seen, then (POSIX)
   * any live member of its group, (Windows) until every taskkill sent finished.
   */
  alive(): boolean {
    if (this.pid === undefined) return false;
    if (!this.leaderGone) return true;
    const alive = this.windows ? this.taskkills > 0 : this.deps.groupAlive(this.pid);
    if (!alive) this.forget();
    return alive;
  }

  /**
   * SIGTERM, SIGKILL after the grace; resolves true when the tree is gone, false if something
   * survived SIGKILL. `onForce` is called before the SIGKILL.
   */
  kill(onForce?: () => void): Promise<boolean> {
    this.killing ??= this.doKill(onForce);
    return this.killing;
  }

  /** Stop guarding it (it is gone, or it should outlive the host after all). */
  forget(): void {
    if (this.forgotten || this.pid === undefined) return;
    this.forgotten = true;
    this.deps.watchdog?.unwatch(this.pid);
  }

  private async doKill(onForce?: () => void): Promise<boolean> {
    if (!this.alive()) return true;
    this.signal('SIGTERM');
    if (await this.waitGone(this.grace)) return true;
    onForce?.();
    this.signal('SIGKILL');
    return this.waitGone(Math.max(1000, this.grace));
  }

  private async waitGone(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (this.alive()) {
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    return true;
  }
}

/** Spawns `command` as a guarded process tree (see ProcessTree). */
export function spawnTree(
  command: string,
  args: readonly string[],
  opts?: TreeOptions,
  deps?: Partial<TreeDeps>,
): ProcessTree {
  return new ProcessTree(command, args, opts, deps);
}
