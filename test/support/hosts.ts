// Stand-ins for VS Code's extension host in unit tests: a small Node script that uses Tandem's
// real modules, started as its own process so a test can kill it (SIGKILL, as a crash would) or
// let it exit; and `ps`, to see which processes are left afterwards.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';

/**
 * Runs `script` (written to `file`) with node and resolves with the first line it prints, parsed
 * as JSON (what it started: pids, groups).
 */
export function startHost<T>(
  file: string,
  script: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ host: ChildProcess; info: T }> {
  writeFileSync(file, script);
  const host = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'inherit'], env });
  return new Promise((resolve, reject) => {
    let buf = '';
    host.stdout!.on('data', (d: Buffer) => {
      buf += String(d);
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve({ host, info: JSON.parse(buf.slice(0, nl)) as T });
    });
    host.once('exit', (code, signal) => reject(new Error(`host exited (${code ?? signal}) before it reported`)));
  });
}

/** Live (non-zombie) processes in process group `pgid`, as `ps` lists them. */
export function psGroup(pgid: number): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,pgid=,stat='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter(([pid, group, stat]) => pid && Number(group) === pgid && !stat.startsWith('Z'))
    .map(([pid]) => Number(pid));
}
