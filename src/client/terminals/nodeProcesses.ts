// Real processes for the terminals feature (node:child_process): a command line runs in bash when
// present (agents write bash), else sh; each command is a guarded process tree (processTree.ts:
// its own process group, killed with the extension host even when the host is SIGKILLed) so
// killing it stops everything it started.
import { existsSync } from 'node:fs';
import { DEFAULT_KILL_GRACE_MS, spawnTree } from '../../acp/processTree';
import { toDisposable } from '../../common/disposable';
import { Emitter } from '../../common/event';
import type { ProcessPort, SpawnedProcess, SpawnOptions } from '../ports';

const isWindows = process.platform === 'win32';

/** The shell a command line runs in: bash when present (agents write bash), else sh. */
export function shellFor(): { file: string; args: (line: string) => string[] } {
  if (isWindows) return { file: process.env.ComSpec || 'cmd.exe', args: (l) => ['/d', '/s', '/c', l] };
  const bash = ['/bin/bash', '/usr/bin/bash'].find((p) => existsSync(p));
  return { file: bash ?? '/bin/sh', args: (l) => ['-c', l] };
}

/** How long after the exit the output pipes may take to drain (a background child may hold them). */
const DRAIN_AFTER_EXIT_MS = 250;

export interface NodeProcessOptions {
  /** SIGTERM → SIGKILL grace, which the watchdog keeps even when the host exits meanwhile. */
  killGraceMs?: number;
}

/** Real processes (node:child_process), each a guarded process tree. */
export function createNodeProcessPort(o: NodeProcessOptions = {}): ProcessPort {
  return { spawn: (opts) => spawnCommand(opts, o.killGraceMs ?? DEFAULT_KILL_GRACE_MS) };
}

/** Real processes with the default grace. */
export const nodeProcessPort: ProcessPort = createNodeProcessPort();

function spawnCommand(opts: SpawnOptions, graceMs: number): SpawnedProcess {
  let file = opts.command;
  let argv: string[] = [...(opts.args ?? [])];
  if (!opts.args) {
    const sh = shellFor();
    file = sh.file;
    argv = sh.args(opts.command);
  }
  const tree = spawnTree(file, argv, {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    graceMs,
  });
  const child = tree.child;
  const pid = child.pid;
  const data = new Emitter<Buffer>();
  const exit = new Emitter<{ code: number | null; signal: string | null }>();
  let exited: { code: number | null; signal: string | null } | undefined;
  let open = 2;
  let status: { code: number | null; signal: string | null } | undefined;
  const fire = () => {
    if (exited || !status) return;
    exited = status;
    exit.fire(status);
  };
  const onClose = () => {
    if (--open <= 0) fire();
  };
  for (const s of [child.stdout!, child.stderr!]) {
    s.on('data', (b: Buffer) => data.fire(b));
    s.on('close', onClose);
    s.on('error', () => {
      /* ignore */
    });
  }
  child.on('error', (err: NodeJS.ErrnoException) => {
    if (pid === undefined) {
      const msg = Buffer.from(`${err.code === 'ENOENT' ? `command not found: ${opts.command}` : err.message}\n`);
      setImmediate(() => {
        data.fire(msg);
        status = { code: 127, signal: null };
        open = 0;
        fire();
      });
    }
  });
  child.on('exit', (code, signal) => {
    status = { code, signal };
    if (open <= 0) fire();
    else setTimeout(fire, DRAIN_AFTER_EXIT_MS);
  });
  return {
    pid,
    onData: (l) => data.event(l),
    onExit: (l) => {
      if (exited) {
        const e = exited;
        queueMicrotask(() => l(e));
        return toDisposable(() => {});
      }
      return exit.event(l);
    },
    signalGroup: (signal) => tree.signal(signal),
    groupAlive: () => tree.alive(),
  };
}
