// A real agent outlives no extension host: a stand-in host process starts claude-code-acp through
// Tandem's real AgentClient (its own process group, with the watchdog), runs a turn so the agent
// has its `claude` children, and is killed with SIGKILL; the whole group must be gone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { groupAlive } from '../../src/acp/processGroups';
import { until } from '../support/until';
import { CLAUDE_CODE_ACP, workspace } from './agentHarness';
import { fakeAnthropic } from './fakeModels';

/** Live processes in group `pgid` (Linux /proc). */
function members(pgid: number): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        const s = readFileSync(`/proc/${e}/stat`, 'utf8');
        const rest = s.slice(s.lastIndexOf(')') + 2).split(' ');
        return Number(rest[2]) === pgid && rest[0] !== 'Z';
      } catch {
        return false;
      }
    })
    .map(Number);
}

test(
  'claude-code-acp 0.16.2: its process group is gone soon after the host that started it is killed with SIGKILL',
  {
    skip:
      (!existsSync(CLAUDE_CODE_ACP) && 'claude-code-acp not installed (run test/compat/run.mjs)') ||
      (process.platform !== 'linux' && 'reads /proc'),
    timeout: 120_000,
  },
  async () => {
    const { ws, home } = workspace();
    const model = await fakeAnthropic([{ text: 'Hello from the fake model.' }]);
    const env = {
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'dummy',
      HOME: home,
      IS_SANDBOX: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
    };
    const hostFile = join(ws, '..', 'host.js');
    writeFileSync(
      hostFile,
      `const { AgentClient } = require(${JSON.stringify(join(__dirname, '../../src/client/connection/agentClient.js'))});
const c = new AgentClient({
  agent: { name: 'Claude Code', command: process.execPath, args: [${JSON.stringify(CLAUDE_CODE_ACP)}], env: ${JSON.stringify(env)}, cwd: ${JSON.stringify(ws)} },
  cwd: ${JSON.stringify(ws)},
  logger: { trace() {}, debug() {}, info() {}, warn() {}, error: (m) => console.error(m) },
  clientInfo: { name: 'tandem-compat', version: '0' },
});
(async () => {
  await c.start();
  await c.prompt('Say hello');
  const proc = c.proc;
  console.log(JSON.stringify({ state: c.agent.state, agent: proc.pid, watchdog: proc.watchdogPid }));
})();
setInterval(() => {}, 1000);
`,
    );
    const host = spawn(process.execPath, [hostFile], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const pids = await new Promise<{ state: string; agent: number; watchdog: number }>((resolve, reject) => {
        host.stdout!.once('data', (d: Buffer) => resolve(JSON.parse(String(d))));
        host.once('exit', (code) => reject(new Error(`host exited with ${code}`)));
      });
      assert.equal(pids.state, 'ready');
      const before = members(pids.agent);
      assert.ok(before.length >= 1, 'the agent runs');
      host.kill('SIGKILL');
      await until(
        () => !groupAlive(pids.agent),
        10_000,
        `agent group ${pids.agent} (${before.length} processes) to be gone`,
      );
      await until(() => members(pids.watchdog).length === 0, 5000, 'the watchdog to exit');
      console.log(`claude-code-acp group of ${before.length} processes gone after the host's SIGKILL`);
    } finally {
      host.kill('SIGKILL');
      await model.close();
    }
  },
);
