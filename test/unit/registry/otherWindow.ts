// Another VS Code window, as far as the registry can tell: a separate process (its own pid, as an
// extension host has) that holds a lease on a version folder through the real lease code, until
// it releases it (its agent stopped) or dies (the window crashed). It loads the transpiled
// src/registry/leases.js of the same out folder as this file.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

export interface OtherWindow {
  pid: number;
  /** Its agent stops: the lease file is removed. */
  release(): Promise<void>;
  /** The window crashes (SIGKILL): the lease file stays, its pid is gone. */
  crash(): Promise<void>;
}

export async function otherWindowRunning(leasesFolder: string, dir: string): Promise<OtherWindow> {
  const leases = join(__dirname, '../../../src/registry/leases.js');
  const script = `
    const { Leases } = require(${JSON.stringify(leases)});
    const release = new Leases(${JSON.stringify(leasesFolder)}).take(${JSON.stringify(dir)});
    process.stdout.write('held\\n');
    process.stdin.on('data', () => { release(); process.stdout.write('released\\n'); });
    process.stdin.on('end', () => process.exit(0));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const next = async (want: string) => {
    while (!lines.includes(want)) {
      const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
      lines.push(...chunk.toString('utf8').split('\n'));
    }
  };
  await next('held');
  return {
    pid: child.pid!,
    release: async () => {
      child.stdin.write('release\n');
      await next('released');
      child.stdin.end();
    },
    crash: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return; // it already closed
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}
