// A tiny Node process that kills an agent's process group when the process that started the
// agent (VS Code's extension host) dies without stopping it: SIGKILL, a crash, a force-quit.
// The agent runs in its own group so that stopping it stops its CLI children too; the price is
// that nothing kills that group when its parent vanishes. The watchdog reads a pipe from the
// host: only the host holds its write end (Node opens pipes close-on-exec), so end-of-file on it
// means the host is gone. Then it sends SIGTERM to the group, SIGKILL after the grace, and exits.
// It also exits on its own once the group is gone, and the host kills it when the agent has
// stopped, so no watchdog outlives its agent. POSIX only (Windows has no process groups here).
// No vscode here (DESIGN.md: src/acp is plain Node).
import { spawn, type ChildProcess } from 'node:child_process';

/** How often the watchdog checks that the agent's group still exists. */
const GROUP_POLL_MS = 1000;

// Plain JavaScript run with `node -e`: argv[1] is the group id, argv[2] the grace in ms.
const WATCHDOG_SCRIPT = `
const pgid = Number(process.argv[1]);
const grace = Number(process.argv[2]);
const signal = (s) => { try { process.kill(-pgid, s); return true; } catch { return false; } };
let ending = false;
const hostGone = () => {
  if (ending) return;
  ending = true;
  if (!signal('SIGTERM')) process.exit(0);
  const poll = setInterval(() => { if (!signal(0)) process.exit(0); }, 50);
  setTimeout(() => { clearInterval(poll); signal('SIGKILL'); process.exit(0); }, grace);
};
process.on('SIGTERM', () => process.exit(0));
process.stdin.on('end', hostGone);
process.stdin.on('close', hostGone);
process.stdin.on('error', hostGone);
process.stdin.resume();
setInterval(() => { if (!ending && !signal(0)) process.exit(0); }, ${GROUP_POLL_MS});
`;

export interface HostWatchdog {
  readonly pid: number | undefined;
  /** The agent stopped cleanly: the watchdog is no longer needed. */
  dispose(): void;
}

/**
 * Starts a watchdog for process group `pgid`. `execPath` is the Node binary to run it with:
 * VS Code's extension host runs on Electron, whose binary acts as Node with ELECTRON_RUN_AS_NODE.
 */
export function startHostWatchdog(pgid: number, graceMs: number, execPath = process.execPath): HostWatchdog {
  const child: ChildProcess = spawn(execPath, ['-e', WATCHDOG_SCRIPT, String(pgid), String(graceMs)], {
    // Its own group: a signal meant for the agent's group or the host's never reaches it.
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
  child.on('error', () => {
    /* no watchdog: the agent still runs, as before */
  });
  child.stdin?.on('error', () => {
    /* the watchdog is gone */
  });
  // Neither the watchdog nor its pipe keeps the host's event loop alive.
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return {
    pid: child.pid,
    dispose: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
  };
}
