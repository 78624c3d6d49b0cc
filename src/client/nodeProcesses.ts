// Real processes for the terminals feature (node:child_process): a command line runs in bash when
// present (agents write bash), else sh; each command gets its own process group so killing it
// stops everything it started.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { groupAlive, signalProcessGroup } from '../acp/processGroups';
import { toDisposable } from '../common/disposable';
import { Emitter } from '../common/event';
import type { ProcessPort, SpawnedProcess, SpawnOptions } from './ports';

const isWindows = process.platform === 'win32';

/** The shell a command line runs in: bash when present (agents write bash), else sh. */
export function shellFor(): { file: string; args: (line: string) => string[] } {
  if (isWindows) return { file: process.env.ComSpec || 'cmd.exe', args: (l) => ['/d', '/s', '/c', l] };
  const bash = ['/bin/bash', '/usr/bin/bash'].find((p) => existsSync(p));
  return { file: bash ?? '/bin/sh', args: (l) => ['-c', l] };
}

/** How long after the exit the output pipes may take to drain (a background child may hold them). */
const DRAIN_AFTER_EXIT_MS = 250;

/** Real processes (node:child_process), each in its own process group. */
export const nodeProcessPort: ProcessPort = {
  spawn(opts: SpawnOptions): SpawnedProcess {
    let file = opts.command;
    let argv: string[] = [...(opts.args ?? [])];
    if (!opts.args) {
      const sh = shellFor();
      file = sh.file;
      argv = sh.args(opts.command);
    }
    const child = spawn(file, argv, {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: !isWindows,
      windowsHide: true,
    });
    const pid = child.pid;
    const data = new Emitter<Buffer>();
    const exit = new Emitter<{ code: number | null; signal: string | null }>();
    let exited: { code: number | null; signal: string | null } | undefined;
    let open = 2;
    let leaderGone = false;
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
        leaderGone = true;
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
      leaderGone = true;
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
      signalGroup(signal) {
        return pid !== undefined && signalProcessGroup(pid, signal, leaderGone ? undefined : child);
      },
      groupAlive() {
        if (pid === undefined) return false;
        if (isWindows) return !leaderGone;
        return groupAlive(pid);
      },
    };
  },
};
