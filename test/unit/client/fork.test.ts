// Forking a session (session/fork, unstable in ACP v1): the capability check, the answer's check,
// and a fork through the real AgentClient against the scripted agent: the new session becomes the
// active one and starts from a copy of the earlier turns, unless the agent replayed them itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentCapabilities } from '@agentclientprotocol/sdk';
import { AgentClient } from '../../../src/client/connection/agentClient';
import { agentReplayed, FORK_METHOD, forkSupported, parseForkResult } from '../../../src/client/connection/fork';
import { MemoryLogger } from '../../../src/common/logger';
import type { AgentScript } from '../../../src/demo/scriptTypes';
import { until } from '../../support/until';

const AGENT = join(__dirname, '../../fixtures/agents/scripted-agent.js');
const dir = mkdtempSync(join(tmpdir(), 'tandem-fork-'));
let n = 0;

const caps = (sessionCapabilities: unknown) => ({ sessionCapabilities }) as AgentCapabilities;

test('fork counts as supported only where initialize has sessionCapabilities.fork as an object', () => {
  // What claude-agent-acp 0.101.0 answers.
  assert.equal(forkSupported(caps({ fork: {}, list: {}, resume: {} })), true);
  assert.equal(forkSupported(caps({ fork: { _meta: { x: 1 } } })), true);
  assert.equal(forkSupported(caps({ list: {}, resume: {} })), false);
  assert.equal(forkSupported(caps({ fork: null })), false, 'null means not advertised');
  assert.equal(forkSupported(caps({ fork: true })), false, 'not the schema’s capability object');
  assert.equal(forkSupported(caps(null)), false);
  assert.equal(forkSupported({} as AgentCapabilities), false);
  assert.equal(forkSupported(undefined), false);
  assert.equal(FORK_METHOD.method, 'session/fork');
});

test('the fork’s answer is checked like session/new’s', () => {
  const answer = {
    sessionId: 'f-1',
    modes: { currentModeId: 'default', availableModes: [{ id: 'default', name: 'Default' }] },
    configOptions: [],
  };
  assert.deepEqual(parseForkResult(answer), answer);
  assert.throws(() => parseForkResult({ modes: null }), /Invalid response to session\/fork: .*sessionId/);
  assert.throws(() => parseForkResult({ sessionId: 7 }), /Invalid response to session\/fork/);
  assert.throws(() => parseForkResult(null), /Invalid response to session\/fork/);
});

test('an agent’s replay is its history only when it sent messages, not just commands', () => {
  const note = (sessionUpdate: string) =>
    ({ sessionId: 'f', update: { sessionUpdate, content: { type: 'text', text: 'x' } } }) as never;
  assert.equal(agentReplayed([]), false);
  assert.equal(
    agentReplayed([{ sessionId: 'f', update: { sessionUpdate: 'available_commands_update', availableCommands: [] } }]),
    false,
  );
  assert.equal(agentReplayed([note('user_message_chunk')]), true);
  assert.equal(agentReplayed([note('agent_message_chunk')]), true);
});

function client(script: AgentScript) {
  const file = join(dir, `script-${n++}.json`);
  writeFileSync(file, JSON.stringify(script));
  const traffic: { dir: 'in' | 'out'; msg: { method?: string; params?: unknown } }[] = [];
  const c = new AgentClient({
    agent: { name: 'Scripted', command: process.execPath, args: [AGENT, file] },
    cwd: dir,
    logger: new MemoryLogger(),
    traffic: (d, msg) => traffic.push({ dir: d, msg: msg as never }),
    clientInfo: { name: 'tandem-test', version: '0' },
  });
  return { c, sent: (method: string) => traffic.filter((t) => t.dir === 'out' && t.msg.method === method) };
}

const forking = (fork: Record<string, unknown>): AgentScript => ({
  initialize: { agentCapabilities: { loadSession: true, sessionCapabilities: { fork: {} } } as AgentCapabilities },
  prompts: [
    { match: 'first', steps: [{ stream: 'one' }, { update: { sessionUpdate: 'session_info_update', title: 'Plan' } }] },
    { match: 'second', steps: [{ stream: 'two' }] },
    { match: 'hang', steps: [{ stream: 'working' }, { hang: true }] },
  ],
  handlers: { 'session/fork': fork },
});

const prompts = (c: AgentClient, id: string) =>
  c
    .getSession(id)!
    .snapshot()
    .turns.map((t) =>
      t.items[0]?.kind === 'user' && t.items[0].blocks[0]?.type === 'text' ? t.items[0].blocks[0].text : '?',
    );

test('a fork opens as the active session with the earlier turns, and the source stays as it was', async () => {
  const { c, sent } = client(
    forking({
      result: { sessionId: 'fork-1', modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }] } },
    }),
  );
  try {
    await c.start();
    await c.prompt('first');
    await c.prompt('second');
    const source = c.session!.sessionId;
    const fork = await c.newSession(source);
    assert.equal(fork.sessionId, 'fork-1');
    assert.equal(c.session, fork, 'the fork is the active session');
    assert.deepEqual(sent('session/fork')[0].msg.params, { sessionId: source, cwd: dir, mcpServers: [] });
    assert.deepEqual(prompts(c, 'fork-1'), ['first', 'second']);
    const snap = fork.snapshot();
    assert.equal(snap.meta.status, 'idle');
    assert.equal(snap.meta.title, 'Plan (fork)', 'its tab is told apart from the source’s');
    assert.equal(snap.meta.currentModeId, 'ask', 'modes from the fork’s answer');
    assert.match(JSON.stringify(snap.turns[1].items), /two/, 'the replies are there too');
    assert.deepEqual(
      c.sessions().map((s) => [s.sessionId, s.turns]),
      [
        [source, 2],
        ['fork-1', 2],
      ],
    );
    // The tab strip marks the fork and names its source, whatever title the agent gives it.
    assert.deepEqual(
      c.sessions().map((s) => s.forkOf),
      [undefined, 'Plan'],
    );
  } finally {
    await c.shutdown();
  }
});

test('an agent that replays the conversation into the fork is shown its replay, not Tandem’s copy as well', async () => {
  const replay = (sessionUpdate: string, text: string) => ({
    update: { sessionUpdate, content: { type: 'text', text } },
    sessionId: 'fork-2',
  });
  const { c } = client(
    forking({
      steps: [replay('user_message_chunk', 'first'), replay('agent_message_chunk', 'one (replayed)')],
      result: { sessionId: 'fork-2' },
    }),
  );
  try {
    await c.start();
    await c.prompt('first');
    await c.newSession(c.session!.sessionId);
    assert.equal(c.session!.sessionId, 'fork-2');
    const turns = c.session!.snapshot().turns;
    assert.equal(turns.length, 1, JSON.stringify(turns));
    assert.match(JSON.stringify(turns[0].items), /one \(replayed\)/);
  } finally {
    await c.shutdown();
  }
});

test('no fork without the capability or during a turn, and nothing is sent then', async () => {
  const plain = client({ prompts: [{ steps: [{ stream: 'one' }] }] });
  try {
    await plain.c.start();
    await plain.c.prompt('first');
    await assert.rejects(plain.c.newSession(plain.c.session!.sessionId), /Scripted cannot fork sessions/);
    assert.equal(plain.sent('session/fork').length, 0);
    await assert.rejects(plain.c.newSession('nope'), /Session nope is not open/);
  } finally {
    await plain.c.shutdown();
  }
  const { c, sent } = client(forking({ result: { sessionId: 'fork-3' } }));
  try {
    await c.start();
    const source = c.session!;
    const turn = c.prompt('hang');
    await until(() => source.state.meta.status === 'working', 5000, 'the turn runs');
    await assert.rejects(c.newSession(source.sessionId), /still working in this session/);
    assert.equal(sent('session/fork').length, 0);
    assert.equal(c.session, source, 'still on the source');
    c.cancel();
    await turn;
  } finally {
    await c.shutdown();
  }
});

test('a fork answered with an open session’s id is refused, and that session stays as it was', async () => {
  const { c } = client(forking({ result: { sessionId: '${params.sessionId}' } }));
  try {
    await c.start();
    await c.prompt('first');
    const source = c.session!;
    await assert.rejects(
      c.newSession(source.sessionId),
      /answered session\/fork with session sess-1, which is open already/,
    );
    assert.equal(c.getSession('sess-1'), source);
    assert.equal(c.session, source);
    assert.deepEqual(prompts(c, 'sess-1'), ['first']);
  } finally {
    await c.shutdown();
  }
});

test('a fork the agent refuses leaves the sessions as they were', async () => {
  const { c } = client(forking({ error: { code: -32002, message: 'Resource not found: sess-1' } }));
  try {
    await c.start();
    await c.prompt('first');
    const source = c.session!;
    await assert.rejects(c.newSession(source.sessionId), /Resource not found/);
    assert.equal(c.session, source);
    assert.equal(c.sessions().length, 1);
  } finally {
    await c.shutdown();
  }
});
