// One small Node process per extension host that kills the process trees Tandem started (agents,
// their terminal commands, npm installs) when the host dies without stopping them: SIGKILL, a
// crash, a force-quit. Each tree runs in its own process group so that stopping it stops its
// children too; the price is that nothing kills that group when its parent vanishes.
//
// The watchdog reads a pipe from the host: only the host holds its write end (Node opens pipes
// close-on-exec), so end-of-file means the host is gone. Then it sends SIGTERM to every tree it
// guards, SIGKILL after each tree's grace, and exits. The host also tells it when it starts
// stopping a tree: the watchdog sends the SIGKILL after the grace itself, so a tree that ignores
// SIGTERM dies even when the host exits (reload, window closed) before its own timer fires.
// It exits on its own once it guards nothing; the host starts a new one for the next tree.
// Windows: the same, with `taskkill /T` for SIGTERM and `taskkill /T /F` for SIGKILL.
// No vscode here (docs/ARCHITECTURE.md: src/acp is plain Node).
import { spawn, type ChildProcess } from 'node:child_process';
import { groupAlive, processAlive } from './processGroups';

/** How often the watchdog forgets the trees that ended by themselves. */
const POLL_MS = 1000;
/** How long it waits, guarding nothing, before it exits (the next command may come right away). */
const LINGER_MS = 1000;
/** In the watchdog's argv, so tests and people reading `ps` can tell what it is. */
export const WATCHDOG_MARK = 'tandem-watchdog';

// Plain JavaScript run with `node -e`: argv[1] is the mark, argv[2] the host's pid (for `ps`
// only), argv[3] the linger, argv[4] the platform (tests run the Windows path on Linux). Lines on stdin: `w <id> <grace>` guard a tree (its process group on
// POSIX, its root process on Windows); `s <id>` the host sent SIGTERM: SIGKILL after the grace
// unless it is gone; `u <id>` the tree is gone.
const WATCHDOG_SCRIPT = `
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const win = process.argv[4] === 'win32';
const linger = Number(process.argv[3]);
const trees = new Map();
let hostGone = false;
let idle;
// Linux: groups with a live member; zombies still answer kill(-pgid, 0).
const snapshot = () => {
  if (process.platform !== 'linux') return undefined;
  const live = new Set();
  try {
    for (const e of fs.readdirSync('/proc')) {
      if (!/^[0-9]+$/.test(e)) continue;
      try {
        const s = fs.readFileSync('/proc/' + e + '/stat', 'utf8');
        const r = s.slice(s.lastIndexOf(')') + 2).split(' ');
        if (r[0] !== 'Z' && r[0] !== 'X') live.add(Number(r[2]));
      } catch {}
    }
  } catch { return undefined; }
  return live;
};
const alive = (id, live) => {
  try { process.kill(win ? id : -id, 0); } catch { return false; }
  return win || !live || live.has(id);
};
const signal = (id, sig) => {
  if (win) execFile('taskkill', ['/pid', String(id), '/T'].concat(sig === 'SIGKILL' ? ['/F'] : []), { windowsHide: true }, () => {});
  else try { process.kill(-id, sig); } catch {}
};
const settle = () => {
  if (trees.size === 0 && !idle) idle = setTimeout(() => process.exit(0), hostGone ? 0 : linger);
};
const forget = (id) => {
  const t = trees.get(id);
  if (t && t.timer) clearTimeout(t.timer);
  trees.delete(id);
  settle();
};
const stopping = (id) => {
  const t = trees.get(id);
  if (!t || t.timer) return;
  t.timer = setTimeout(() => {
    if (alive(id, snapshot())) signal(id, 'SIGKILL');
    trees.delete(id);
    settle();
  }, t.grace);
};
const onLine = (line) => {
  const [op, a, b] = line.split(' ');
  const id = Number(a);
  if (!(id > 0)) return;
  if (op === 'w') {
    clearTimeout(idle);
    idle = undefined;
    if (!trees.has(id)) trees.set(id, { grace: Number(b) >= 0 ? Number(b) : 2000 });
  } else if (op === 's') stopping(id);
  else if (op === 'u') forget(id);
};
const onHostGone = () => {
  if (hostGone) return;
  hostGone = true;
  for (const id of trees.keys()) {
    signal(id, 'SIGTERM');
    stopping(id);
  }
  settle();
};
let buf = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  buf += d;
  for (let i; (i = buf.indexOf('\\n')) >= 0; buf = buf.slice(i + 1)) onLine(buf.slice(0, i));
});
process.stdin.on('end', onHostGone);
process.stdin.on('close', onHostGone);
process.stdin.on('error', onHostGone);
setInterval(() => {
  if (!trees.size) return;
  const live = snapshot();
  for (const id of [...trees.keys()]) if (!alive(id, live)) forget(id);
}, ${POLL_MS});
settle();
`;

/** What a process tree tells the watchdog (processTree.ts); a fake in unit tests. */
export interface Watchdog {
  /** The watchdog process while one runs. */
  readonly pid: number | undefined;
  /** Guard tree `id` (process group id; root pid on Windows) with this SIGTERM → SIGKILL grace. */
  watch(id: number, graceMs: number): void;
  /** SIGTERM was sent: SIGKILL after the grace unless the tree is gone by then. */
  stopping(id: number): void;
  /** The tree is gone: forget it (its id may be reused). */
  unwatch(id: number): void;
}

export interface HostWatchdogOptions {
  /**
   * The Node binary to run it with: VS Code's extension host runs on Electron, whose binary acts
   * as Node with ELECTRON_RUN_AS_NODE.
   */
  execPath?: string;
  lingerMs?: number;
  /** Whether a guarded tree still runs (default: its group, or its root process on Windows). */
  alive?: (id: number) => boolean;
  /** Whose way of killing a tree the watchdog uses (default: this platform's; tests run Windows' on Linux). */
  platform?: NodeJS.Platform;
}

export class HostWatchdog implements Watchdog {
  private child: ChildProcess | undefined;
  private startedAt = 0;
  /** Every tree guarded, with its grace: replayed to a new watchdog if this one exits. */
  private readonly trees = new Map<number, number>();
  private readonly alive: (id: number) => boolean;

  constructor(private readonly opts: HostWatchdogOptions = {}) {
    this.alive = opts.alive ?? ((opts.platform ?? process.platform) === 'win32' ? processAlive : groupAlive);
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  watch(id: number, graceMs: number): void {
    // Trees that ended by themselves (a background child outlived its command) are forgotten
    // lazily here, so a long session does not accumulate them.
    if (this.trees.size >= 64) this.prune();
    this.trees.set(id, graceMs);
    if (this.child) this.send(`w ${id} ${graceMs}`);
    else this.start();
  }

  stopping(id: number): void {
    if (this.trees.has(id)) this.send(`s ${id}`);
  }

  unwatch(id: number): void {
    if (this.trees.delete(id)) this.send(`u ${id}`);
  }

  private send(line: string): void {
    // A pipe write goes out at once when the pipe is empty: it reaches the watchdog even if the
    // host exits right after.
    this.child?.stdin?.write(`${line}\n`);
  }

  private prune(): void {
    for (const id of [...this.trees.keys()]) if (!this.alive(id)) this.trees.delete(id);
  }

  private start(): void {
    this.prune();
    if (!this.trees.size) return;
    const args = [
      '-e',
      WATCHDOG_SCRIPT,
      WATCHDOG_MARK,
      String(process.pid),
      String(this.opts.lingerMs ?? LINGER_MS),
      this.opts.platform ?? process.platform,
    ];
    const child = spawn(this.opts.execPath ?? process.execPath, args, {
      // Its own group: a signal meant for a tree's group or the host's never reaches it.
      detached: process.platform !== 'win32',
      stdio: ['pipe', 'ignore', 'ignore'],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      windowsHide: true,
    });
    this.child = child;
    this.startedAt = Date.now();
    child.on('error', () => {
      // No watchdog (the binary could not run): the trees still run, as before. Try again with
      // the next tree.
      if (this.child === child) this.child = undefined;
    });
    child.stdin?.on('error', () => {
      /* the watchdog is gone: its 'exit' handles it */
    });
    child.on('exit', (code) => {
      if (this.child !== child) return;
      this.child = undefined;
      // It went idle while a new tree was on its way, or someone killed it: guard what still
      // runs. A watchdog that fails at once is not restarted in a loop (the next tree retries).
      if (code === 0 || Date.now() - this.startedAt > 1000) this.start();
    });
    // Neither the watchdog nor its pipe keeps the host's event loop alive.
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    for (const [id, grace] of this.trees) this.send(`w ${id} ${grace}`);
  }
}

let shared: HostWatchdog | undefined;

/** The watchdog of this process (one for every tree it starts). */
export function hostWatchdog(): HostWatchdog {
  shared ??= new HostWatchdog();
  return shared;
}
