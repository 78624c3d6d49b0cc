// Whether processes and process groups are still alive, zombies counted as gone (POSIX; Linux
// reads /proc), and the taskkill command lines of a Windows tree kill. The process-tree module
// (processTree.ts) and the host watchdog (hostWatchdog.ts) build on these.
import { readdirSync, readFileSync } from 'node:fs';

/**
 * True when a live (non-zombie) process is in process group `pgid`. On Linux this reads /proc,
 * because zombies (left when PID 1 does not reap orphans, common in containers) still answer
 * kill(-pgid, 0). Elsewhere kill(-pgid, 0) is the check.
 */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    const st = procStat(Number(e));
    if (st && st.pgrp === pgid && st.state !== 'Z' && st.state !== 'X') return true;
  }
  return false;
}

/** True when `pid` is a live (non-zombie) process. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  const st = procStat(pid);
  return !st || (st.state !== 'Z' && st.state !== 'X');
}

function procStat(pid: number): { state: string; pgrp: number } | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { state: rest[0], pgrp: Number(rest[2]) };
  } catch {
    return undefined;
  }
}

/**
 * Windows has no process groups: a command's children are found through their parent, which
 * `taskkill /T` walks. Without /F it asks each process to close (console programs usually refuse);
 * with /F it terminates the whole tree. Exit code 0: done; 128: no such process.
 */
export function taskkillArgs(pid: number, force: boolean): string[] {
  return ['/pid', String(pid), '/T', ...(force ? ['/F'] : [])];
}
