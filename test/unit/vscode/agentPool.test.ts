// Sessions of different agents run at the same time: the controller keeps one connection per
// agent (real scripted-agent processes, the `vscode` fake), shows one of them, and never stops a
// working agent to start or show another.
import { state as vs, fakeContext } from '../security/fakeVscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryLogger } from '../../../src/common/logger';
import { Controller } from '../../../src/vscode/agent/controller';
import { IdleAgents } from '../../../src/vscode/agent/idleAgents';
import { until } from '../../support/until';

const REPO = join(__dirname, '../../../..');
const AGENT = join(__dirname, '../../fixtures/agents/scripted-agent.js');

/** Two scripted agents, A and B: a prompt "slow" keeps a turn working until the test cancels it. */
function setup(maxAgents?: number, openAgents?: string[], sameIds = false) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-pool-')));
  const ws = join(root, 'ws');
  mkdirSync(ws);
  const agent = (name: string) => {
    const file = join(root, `${name}.json`);
    const script = {
      name,
      newSession: { sessionId: sameIds ? 'sess-\${n}' : `${name.toLowerCase()}-\${n}` },
      prompts: [
        { match: 'slow', steps: [{ stream: 'working…' }, { hang: true }] },
        { match: '', steps: [{ stream: `${name} answers` }] },
      ],
    };
    writeFileSync(file, JSON.stringify(script));
    return { name, command: process.execPath, args: [AGENT, file] };
  };
  vs.folders = [ws];
  vs.isTrusted = true;
  vs.shown = [];
  vs.config = {
    'tandem.agents': [agent('A'), agent('B')],
    'tandem.defaultAgent': 'A',
    ...(maxAgents ? { 'tandem.maxAgents': maxAgents } : {}),
  };
  const ctl = new Controller({
    context: fakeContext(REPO, join(root, 'storage')) as never,
    logger: new MemoryLogger(),
    traffic: () => undefined,
    openAgents: openAgents && (() => openAgents),
  });
  return { ctl, root };
}

/** Whether the agent's process runs: its script file (unique to the test) is on its command line. */
const runs = (root: string, name: string) =>
  execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).includes(join(root, `${name}.json`));

test("starting another agent keeps the first one's turn running; both sessions are listed with their agent", async () => {
  const { ctl, root } = setup();
  try {
    await ctl.start('A');
    assert.equal(ctl.agent.state, 'ready', ctl.agent.message);
    const a = ctl.current!;
    const turn = a.prompt('slow');
    await until(() => a.session!.state.meta.status === 'working', 5000, "A's turn runs");
    await ctl.start('B');
    assert.equal(ctl.agent.name, 'B', 'B is shown');
    assert.equal(ctl.agent.state, 'ready', ctl.agent.message);
    assert.equal(a.session!.state.meta.status, 'working', "A's turn was not stopped");
    assert.ok(runs(root, 'A') && runs(root, 'B'), 'both agent processes run');
    assert.deepEqual(
      ctl.sessionTabs().map((t) => [t.agentName, t.sessionId]),
      [
        ['A', 'a-1'],
        ['B', 'b-1'],
      ],
    );
    await ctl.current!.prompt('hello');
    assert.equal(ctl.current!.session!.sessionId, 'b-1');
    a.cancel('a-1');
    await turn;
    assert.equal(a.session!.state.meta.status, 'idle', "A's turn ended when cancelled, in the background");
    // A tab of A's session shows A again.
    ctl.switchTo('a-1');
    assert.equal(ctl.agent.name, 'A');
    assert.equal(ctl.current!.session!.sessionId, 'a-1');
  } finally {
    await ctl.stop();
    ctl.dispose();
  }
});

test("closing an agent's last session stops that agent; the other one goes on", async () => {
  const { ctl, root } = setup();
  try {
    await ctl.start('A');
    await ctl.start('B');
    await ctl.closeSession('a-1');
    assert.deepEqual(
      ctl.agents().map((a) => a.name),
      ['B'],
    );
    await until(() => !runs(root, 'A'), 5000, "A's process is gone");
    assert.equal(ctl.agent.name, 'B');
    assert.ok(runs(root, 'B'));
  } finally {
    await ctl.stop();
    ctl.dispose();
  }
});

test('a full pool stops the idle agent to make room, and refuses while every agent works, naming them', async () => {
  const { ctl, root } = setup(1);
  try {
    await ctl.start('A');
    await ctl.start('B');
    assert.deepEqual(
      ctl.agents().map((a) => a.name),
      ['B'],
      'idle A made room for B',
    );
    await until(() => !runs(root, 'A'), 5000, "A's process is gone");
    const b = ctl.current!;
    const turn = b.prompt('slow');
    await until(() => b.session!.state.meta.status === 'working', 5000, "B's turn runs");
    await ctl.start('A');
    assert.equal(ctl.agent.state, 'error');
    assert.match(ctl.agent.message ?? '', /tandem\.maxAgents is 1.*close a session of B to start A/);
    assert.equal(b.session!.state.meta.status, 'working', 'the working agent was not stopped');
    b.cancel('b-1');
    await turn;
  } finally {
    await ctl.stop();
    ctl.dispose();
  }
});

test('stop() ends every agent of the pool', async () => {
  const { ctl, root } = setup();
  await ctl.start('A');
  await ctl.start('B');
  assert.ok(runs(root, 'A') && runs(root, 'B'));
  await ctl.stop();
  assert.ok(!runs(root, 'A') && !runs(root, 'B'), 'no agent process outlives stop()');
  assert.equal(ctl.agents().length, 0);
  ctl.dispose();
});

test('after a reload, every agent that had sessions open comes back; the default one is shown', async () => {
  const { ctl, root } = setup(undefined, ['B', 'A', 'Gone']);
  try {
    await ctl.ensureStarted();
    assert.equal(ctl.agent.name, 'A', 'the default agent is shown');
    await until(() => ctl.agents().find((a) => a.name === 'B')?.view.state === 'ready', 10_000, 'B is back');
    assert.equal(ctl.agent.name, 'A', 'B came back out of sight');
    assert.ok(runs(root, 'B'));
    assert.deepEqual(
      ctl
        .agents()
        .map((a) => a.name)
        .sort(),
      ['A', 'B'],
      'an agent no longer configured is not started',
    );
  } finally {
    await ctl.stop();
    ctl.dispose();
  }
});

test('two agents that name their sessions alike: a tab shows and closes the session of its own agent', async () => {
  // ACP session ids are unique per agent only (a scripted agent says "sess-1" in every process).
  const { ctl } = setup(undefined, undefined, true);
  try {
    await ctl.start('A');
    await ctl.start('B');
    const tabs = ctl.sessionTabs();
    assert.deepEqual(
      tabs.map((t) => [t.agentName, t.sessionId]),
      [
        ['A', 'sess-1'],
        ['B', 'sess-1'],
      ],
    );
    ctl.switchTo('sess-1', 'A');
    assert.equal(ctl.agent.name, 'A');
    ctl.switchTo('sess-1', 'B');
    assert.equal(ctl.agent.name, 'B', "B's tab shows B's session, not A's");
    await ctl.closeSession('sess-1', 'B');
    assert.deepEqual(
      ctl.sessionTabs().map((t) => t.agentName),
      ['A'],
      "closing B's tab closed B's session",
    );
  } finally {
    await ctl.stop();
  }
});

test('an agent unused for tandem.idleAgentMinutes stops; the shown one, a working one and one with an unseen result stay', async () => {
  const { ctl, root } = setup();
  const unseen = new Set<string>();
  let now = Date.now();
  const attention = {
    sessions: () => ctl.sessionTabs().map((t) => ({ ...t, agentName: t.agentName!, unseen: unseen.has(t.agentName!) })),
  };
  const idle = new IdleAgents(
    ctl,
    attention,
    new MemoryLogger(),
    () => 1,
    () => now,
  );
  try {
    await ctl.start('A');
    await ctl.start('B');
    assert.deepEqual(await idle.check(), [], 'nothing is idle yet');
    // A finished a turn the user has not looked at: it waits to be seen, however long.
    unseen.add('A');
    now += 61_000;
    assert.deepEqual(await idle.check(), []);
    unseen.clear();
    // A works in the background for a while: working is being used.
    const a = ctl.agents().find((x) => x.name === 'A')!.client;
    const turn = a.prompt('slow');
    await until(() => a.session!.state.meta.status === 'working', 5000, "A's turn runs");
    now += 61_000;
    assert.deepEqual(await idle.check(), []);
    a.cancel('a-1');
    await turn;
    now += 30_000;
    assert.deepEqual(await idle.check(), [], 'half the idle time since A last worked');
    now += 31_000;
    assert.deepEqual(await idle.check(), ['A'], 'A, unused for a minute, stops; B is shown');
    assert.deepEqual(
      ctl.agents().map((x) => x.name),
      ['B'],
    );
    await until(() => !runs(root, 'A'), 5000, "A's process is gone");
    now += 10 * 60_000;
    assert.deepEqual(await idle.check(), [], 'the shown agent never stops');
  } finally {
    idle.dispose();
    await ctl.stop();
    ctl.dispose();
  }
});
