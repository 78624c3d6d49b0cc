import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnAgent } from '../../../src/acp/agentProcess';
import { groupAlive, processAlive } from '../../../src/acp/processGroups';
import { until } from '../../support/until';

const posix = process.platform !== 'win32';
const dir = mkdtempSync(join(tmpdir(), 'tandem-watchdog-'));
const agentProcessModule = join(__dirname, '../../../src/acp/agentProcess.js');

// An agent with a child in its group that ignores SIGTERM (as a CLI mid-write might): only
// SIGKILL stops it. The agent prints the child's pid once it runs.
const AGENT = `
const { spawn } = require('node:child_process');
const c = spawn(process.execPath, ['-e', 'process.on("SIGTERM", () => {}); console.log("up"); setInterval(() => {}, 1000)'], { stdio: ['ignore', 'pipe', 'ignore'] });
c.stdout.once('data', () => console.log(JSON.stringify({ child: c.pid })));
setInterval(() => {}, 1000);
`;

// A stand-in for VS Code's extension host: starts the agent through the real spawn path and
// reports the pids, then idles until it is killed.
const HOST = `
const { spawnAgent } = require(${JSON.stringify(agentProcessModule)});
const agent = spawnAgent({ command: process.execPath, args: ['-e', ${JSON.stringify(AGENT)}], killGraceMs: 300 });
agent.stdout.once('data', (d) => {
  const { child } = JSON.parse(String(d));
  console.log(JSON.stringify({ agent: agent.pid, child, watchdog: agent.watchdogPid }));
});
setInterval(() => {}, 1000);
`;

function startHost(): Promise<{
  host: ReturnType<typeof spawn>;
  pids: { agent: number; child: number; watchdog: number };
}> {
  const file = join(dir, 'host.js');
  writeFileSync(file, HOST);
  const host = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    host.stdout!.once('data', (d: Buffer) => resolve({ host, pids: JSON.parse(String(d)) }));
    host.once('exit', (code) => reject(new Error(`host exited with ${code}`)));
  });
}

test(
  "the agent's whole process group and the watchdog are gone soon after its host is killed with SIGKILL",
  { skip: !posix },
  async () => {
    const { host, pids } = await startHost();
    assert.ok(pids.watchdog, 'a watchdog runs next to the agent');
    assert.ok(groupAlive(pids.agent) && processAlive(pids.child) && processAlive(pids.watchdog));
    host.kill('SIGKILL');
    // Grace 300 ms before SIGKILL for the child that ignores SIGTERM; 3 s is a generous bound.
    await until(() => !groupAlive(pids.agent) && !processAlive(pids.child), 3000, "the agent's group to be gone");
    await until(() => !processAlive(pids.watchdog), 3000, 'the watchdog to exit');
  },
);

/** The watchdog guarding `p` (a previous test's watchdog may still be on its way out). */
async function watchdogOf(p: { watchdogPid: number | undefined }): Promise<number> {
  await until(() => !!p.watchdogPid && processAlive(p.watchdogPid), 3000, 'a watchdog to run');
  return p.watchdogPid!;
}

test('a clean stop leaves no watchdog behind', { skip: !posix }, async () => {
  const p = spawnAgent({ command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] });
  const watchdog = await watchdogOf(p);
  await p.kill();
  await until(() => !processAlive(watchdog), 3000, 'the watchdog to exit');
});

test('an agent that exits by itself takes its watchdog with it', { skip: !posix }, async () => {
  const p = spawnAgent({ command: process.execPath, args: ['-e', 'setTimeout(() => process.exit(0), 300)'] });
  const watchdog = await watchdogOf(p);
  await new Promise((r) => p.onDidExit(r));
  await until(() => !processAlive(watchdog), 3000, 'the watchdog to exit');
});

test('one watchdog guards every tree the host starts', { skip: !posix }, async () => {
  const a = spawnAgent({ command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] });
  const b = spawnAgent({ command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] });
  try {
    assert.equal(await watchdogOf(a), await watchdogOf(b));
  } finally {
    await Promise.all([a.kill(), b.kill()]);
  }
});

// The Windows path of the watchdog, run on Linux: a fake `taskkill` on PATH records its
// arguments (and kills the process on /F, as the real one would).
const TASKKILL_LOG = join(dir, 'taskkill.log');
const FAKE_BIN = join(dir, 'bin');
mkdirSync(FAKE_BIN);
writeFileSync(
  join(FAKE_BIN, 'taskkill'),
  `#!/bin/sh\necho "$*" >> ${JSON.stringify(TASKKILL_LOG)}\ncase "$*" in *"/F"*) kill -9 "$2" ;; esac\nexit 0\n`,
);
chmodSync(join(FAKE_BIN, 'taskkill'), 0o755);

const WINDOWS_HOST = `
const { spawn } = require('node:child_process');
const { HostWatchdog } = require(${JSON.stringify(join(__dirname, '../../../src/acp/hostWatchdog.js'))});
const w = new HostWatchdog({ platform: 'win32', lingerMs: 100 });
const root = spawn('sleep', ['1000'], { stdio: 'ignore' });
w.watch(root.pid, 300);
console.log(JSON.stringify({ root: root.pid, watchdog: w.pid }));
setInterval(() => {}, 1000);
`;

test(
  "on Windows the watchdog closes the host's trees with taskkill /T, then /T /F after the grace",
  { skip: process.platform !== 'linux' },
  async () => {
    const file = join(dir, 'windows-host.js');
    writeFileSync(file, WINDOWS_HOST);
    const host = spawn(process.execPath, [file], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, PATH: `${FAKE_BIN}:${process.env.PATH}` },
    });
    const pids = await new Promise<{ root: number; watchdog: number }>((resolve, reject) => {
      host.stdout!.once('data', (d: Buffer) => resolve(JSON.parse(String(d))));
      host.once('exit', (code) => reject(new Error(`host exited with ${code}`)));
    });
    try {
      host.kill('SIGKILL');
      await until(() => !processAlive(pids.watchdog), 5000, 'the watchdog to finish');
      assert.deepEqual(readFileSync(TASKKILL_LOG, 'utf8').trim().split('\n'), [
        `/pid ${pids.root} /T`,
        `/pid ${pids.root} /T /F`,
      ]);
      await until(() => !processAlive(pids.root), 3000, 'the tree to be gone');
    } finally {
      if (processAlive(pids.root)) process.kill(pids.root, 'SIGKILL');
    }
  },
);
