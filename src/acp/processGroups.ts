// Whether processes and process groups are still alive, zombies counted as gone (POSIX; Linux
// reads /proc), and signalling a whole group. Used to make sure an agent and the commands it
// started leave nothing behind.
import { execFile, type ChildProcess } from 'node:child_process';
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
 * Signals process group `pgid` (POSIX), or the process tree of `pgid` on Windows; `leader` is the
 * group's leader while it runs (signalled directly when the group is gone). False when nothing
 * was there to signal.
 */
export function signalProcessGroup(pgid: number, signal: NodeJS.Signals, leader: ChildProcess | undefined): boolean {
  if (process.platform === 'win32') {
    if (!leader) return false;
    if (signal === 'SIGKILL')
      execFile('taskkill', ['/pid', String(pgid), '/T', '/F'], () => {
        /* best effort */
      });
    else leader.kill(signal);
    return true;
  }
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    /* group gone */
  }
  if (leader) {
    try {
      leader.kill(signal);
      return true;
    } catch {
      /* gone */
    }
  }
  return false;
}
