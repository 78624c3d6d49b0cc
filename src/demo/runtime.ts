// The `runtime` variable: how a script can run Node in a client terminal on this machine.
// `node` is `node` when it is on PATH, else this process's executable (in VS Code the Electron
// binary of the extension host, which acts as Node with ELECTRON_RUN_AS_NODE=1: `nodeEnv`).
import { statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface RuntimeVars {
  node: string;
  nodeEnv: Array<{ name: string; value: string }>;
  platform: NodeJS.Platform;
  timeScale: number;
  /** This agent process's id: session ids that differ from one run of a script to the next. */
  pid: number;
}

export function runtimeVars(timeScale: number, env: NodeJS.ProcessEnv = process.env): RuntimeVars {
  return {
    node: onPath('node', env) ? 'node' : process.execPath,
    nodeEnv: [{ name: 'ELECTRON_RUN_AS_NODE', value: '1' }],
    platform: process.platform,
    timeScale,
    pid: process.pid,
  };
}

function onPath(name: string, env: NodeJS.ProcessEnv): boolean {
  const win = process.platform === 'win32';
  const exts = win ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of (env.PATH ?? env.Path ?? '').split(delimiter).filter(Boolean)) {
    for (const ext of exts) {
      try {
        if (statSync(join(dir, name + ext)).isFile()) return true;
      } catch {
        /* next */
      }
    }
  }
  return false;
}
