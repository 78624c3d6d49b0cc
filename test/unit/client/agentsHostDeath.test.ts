// Several agents at once, and the extension host dies: a stand-in host runs three agents side by
// side (real AgentClients over the scripted agent, as the pool holds them), two of them with a
// long command running through Tandem's terminal and one in a session of its own folder (a
// worktree's place); the host is killed with SIGKILL. No process of any agent, nor any command
// they started, may be left.
import { test } from 'node:test';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { psGroup, startHost } from '../../support/hosts';
import { until } from '../../support/until';

const posix = process.platform !== 'win32';
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-agents-host-')));
const place = join(dir, 'worktree');
mkdirSync(place);
const src = (m: string) => JSON.stringify(join(__dirname, '../../../src', m));
const UNTIL = JSON.stringify(join(__dirname, '../../support/until.js'));
const SCRIPTED = JSON.stringify(join(__dirname, '../../fixtures/agents/scripted-agent.js'));
const SCRIPT = join(dir, 'long-command.json');
writeFileSync(
  SCRIPT,
  JSON.stringify({ prompts: [{ steps: [{ terminal: { command: `trap '' TERM; echo "ready $$"; sleep 1000` } }] }] }),
);
const LOGGER = `{ trace() {}, debug() {}, info() {}, warn() {}, error: (m) => console.error(String(m)) }`;

const HOST = `
const { AgentClient } = require(${src('client/connection/agentClient.js')});
const { TerminalsFeature } = require(${src('client/terminals/terminals.js')});
const { until } = require(${UNTIL});
const agent = (name, firstSession) => new AgentClient({
  agent: { name, command: process.execPath, args: [${SCRIPTED}, ${JSON.stringify(SCRIPT)}] },
  cwd: ${JSON.stringify(dir)},
  firstSession,
  logger: ${LOGGER},
  clientInfo: { name: 'tandem-host-death', version: '0' },
  features: [new TerminalsFeature({ killGraceMs: 2000, flushMs: 10 })],
});
const commandOf = async (c) => {
  void c.prompt('run the long command');
  let found;
  await until(() => {
    const terms = Object.values(c.session?.snapshot().terminals ?? {});
    found = terms.map((t) => /ready (\\d+)/.exec(t.output)).find(Boolean);
    return found !== undefined;
  }, 20000, 'the command to print ready');
  return Number(found[1]);
};
(async () => {
  const clients = [agent('A'), agent('B'), agent('C', { place: { cwd: ${JSON.stringify(place)}, label: 'tandem/x' } })];
  await Promise.all(clients.map((c) => c.start()));
  const commands = await Promise.all(clients.slice(0, 2).map(commandOf));
  console.log(JSON.stringify({ agents: clients.map((c) => c.proc.pid), commands }));
})();
setInterval(() => {}, 1000);
`;

test(
  'three agents side by side and the commands they run are all gone soon after the host is killed with SIGKILL',
  { skip: !posix, timeout: 40_000 },
  async () => {
    const { host, info } = await startHost<{ agents: number[]; commands: number[] }>(join(dir, 'host.js'), HOST);
    const groups = [...info.agents, ...info.commands];
    await until(() => groups.every((g) => psGroup(g).length >= 1), 5000, 'every agent and command running');
    host.kill('SIGKILL');
    try {
      await until(() => groups.every((g) => psGroup(g).length === 0), 8000, 'every agent and command gone');
    } finally {
      for (const g of groups) if (psGroup(g).length) process.kill(-g, 'SIGKILL');
    }
  },
);
