import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentClient } from '../../../src/client/connection/agentClient';
import { MemoryLogger } from '../../../src/common/logger';
import type { AgentScript } from '../../../src/demo/scriptTypes';
import type { AgentView } from '../../../src/shared/protocol';
import { processAlive } from '../../../src/acp/processGroups';
import { until } from '../../support/until';
import { withMockTimers } from '../../support/mockTimers';

const AGENT = join(__dirname, '../../fixtures/agents/scripted-agent.js');
const dir = mkdtempSync(join(tmpdir(), 'tandem-client-'));
let n = 0;

function client(script: AgentScript, command = process.execPath) {
  const file = join(dir, `script-${n++}.json`);
  writeFileSync(file, JSON.stringify(script));
  const logger = new MemoryLogger();
  const c = new AgentClient({
    agent: { name: 'Scripted', command, args: [AGENT, file] },
    cwd: dir,
    logger,
    clientInfo: { name: 'tandem-test', version: '0' },
  });
  const states: AgentView[] = [];
  c.onDidChangeAgent((a) => states.push(a));
  return { c, logger, states };
}

test('start, prompt, streamed reply, end_turn', async () => {
  const { c } = client({
    prompts: [
      {
        steps: [
          { stream: 'Hello from the agent', chunk: 5 },
          {
            update: { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'ls', kind: 'execute', status: 'completed' },
          },
        ],
      },
    ],
  });
  await c.start();
  assert.equal(c.agent.state, 'ready');
  await c.prompt('hi');
  const s = c.session!.snapshot();
  const agentItem = s.turns[0].items.find((i) => i.kind === 'agent');
  assert.ok(agentItem && 'blocks' in agentItem);
  assert.deepEqual(agentItem.blocks, [{ type: 'text', text: 'Hello from the agent' }]);
  assert.equal(s.turns[0].stopReason, 'end_turn');
  assert.equal(s.toolCalls.t1.status, 'completed');
  assert.equal(s.meta.status, 'idle');
  await c.shutdown();
});

test('agent killed mid-turn: session shows the error as soon as it dies, with stderr, and no process is left', async () => {
  const { c } = client({
    prompts: [
      {
        steps: [
          { stream: 'working' },
          { stderr: 'fatal: model exploded' },
          { sleep: 100 },
          { crash: { signal: 'SIGKILL' } },
        ],
      },
    ],
  });
  await c.start();
  const pid = (c as unknown as { proc: { pid: number } }).proc.pid;
  // The client's timers are mocked and never ticked: the turn ends on the agent's exit, not
  // after some timeout.
  await withMockTimers(async () => {
    let ended = false;
    void c.prompt('go').then(() => (ended = true));
    await until(() => ended, 5000, 'the turn to end with the crash, no timer having fired');
  });
  const s = c.session!.snapshot();
  assert.equal(s.meta.status, 'disconnected');
  assert.match(s.meta.error ?? '', /SIGKILL/);
  assert.match(s.meta.error ?? '', /model exploded/);
  assert.match(s.turns[0].error ?? '', /SIGKILL/);
  assert.equal(c.agent.state, 'exited');
  assert.equal(processAlive(pid), false);
  await c.shutdown();
});

test('agent exits during initialize: exited state with its last output', async () => {
  const { c } = client({ initialize: { steps: [{ stderr: 'cannot load config' }, { exit: 3 }] } });
  await c.start();
  assert.equal(c.agent.state, 'exited');
  assert.match(c.agent.message ?? '', /code 3/);
  assert.match(c.agent.message ?? '', /cannot load config/);
  assert.equal(c.session, undefined);
  await c.shutdown();
});

test('command not found: actionable error, no crash', async () => {
  const { c } = client({}, '/nonexistent/agent-binary');
  await c.start();
  assert.equal(c.agent.state, 'error');
  assert.match(c.agent.message ?? '', /not found|ENOENT/i);
  assert.match(c.agent.message ?? '', /nonexistent\/agent-binary/);
  await c.shutdown();
});

test('cancel ends the turn with stop reason cancelled', async () => {
  const { c } = client({ prompts: [{ steps: [{ stream: 'thinking…' }, { hang: true }] }] });
  await c.start();
  const done = c.prompt('long job');
  await until(() => c.session!.snapshot().turns[0]?.items.some((i) => i.kind === 'agent') ?? false);
  c.cancel();
  await done;
  assert.equal(c.session!.snapshot().turns[0].stopReason, 'cancelled');
  await c.shutdown();
});

test('a prompt answered with a JSON-RPC error lands in the turn; the session goes on', async () => {
  const { c } = client({
    prompts: [{ steps: [{ fail: { code: -32603, message: 'model overloaded' } }] }, { steps: [{ stream: 'ok now' }] }],
  });
  await c.start();
  await c.prompt('one');
  await c.prompt('two');
  const s = c.session!.snapshot();
  assert.match(s.turns[0].error ?? '', /model overloaded/);
  assert.equal(s.turns[1].stopReason, 'end_turn');
  await c.shutdown();
});

test('protocol version mismatch is a clear error', async () => {
  const { c } = client({ initialize: { protocolVersion: 2 } });
  await c.start();
  assert.equal(c.agent.state, 'error');
  assert.match(c.agent.message ?? '', /protocol version 2/);
  await c.shutdown();
});

test('new session replaces the old one; updates racing session/new are kept', async () => {
  const { c } = client({
    newSession: {
      after: [
        {
          update: {
            sessionUpdate: 'available_commands_update',
            availableCommands: [{ name: 'init', description: 'Init' }],
          },
        },
      ],
    },
  });
  await c.start();
  await until(() => (c.session?.snapshot().meta.commands.length ?? 0) > 0);
  const first = c.session!.sessionId;
  await c.newSession();
  assert.notEqual(c.session!.sessionId, first);
  await until(() => (c.session?.snapshot().meta.commands.length ?? 0) > 0);
  await c.shutdown();
});

test('several sessions at once: switch, close, and updates routed by session id', async () => {
  const { c } = client({ prompts: [{ steps: [{ stream: 'one' }] }, { steps: [{ stream: 'two' }] }] });
  await c.start();
  const a = c.session!.sessionId;
  await c.prompt('first');
  const b = (await c.newSession()).sessionId;
  assert.notEqual(a, b);
  assert.equal(c.session!.sessionId, b);
  await c.prompt('second');
  assert.deepEqual(
    c
      .sessions()
      .map((s) => s.sessionId)
      .sort(),
    [a, b].sort(),
  );
  c.switchTo(a);
  assert.equal(c.session!.sessionId, a);
  const textOf = (id: string) =>
    JSON.stringify(
      c
        .getSession(id)!
        .snapshot()
        .turns.map((t) => t.items),
    );
  assert.match(textOf(a), /one/);
  assert.match(textOf(b), /two/);
  await c.closeSession(a);
  assert.equal(c.session!.sessionId, b);
  assert.equal(c.sessions().length, 1);
  await c.shutdown();
});

test('auth required on session/new: sign-in state with the methods; authenticate is sent', async () => {
  const { c } = client({
    initialize: { authMethods: [{ id: 'login', name: 'Log in', description: 'Use the browser' }] },
    newSession: { error: { code: -32000, message: 'Authentication required' } },
    handlers: { authenticate: { result: {} } },
  });
  await c.start();
  assert.equal(c.agent.state, 'auth');
  assert.deepEqual(c.agent.authMethods, [
    { id: 'login', name: 'Log in', description: 'Use the browser', terminal: false },
  ]);
  assert.match(c.agent.message ?? '', /sign in/);
  // This scripted agent keeps refusing session/new: authenticate goes through, the sign-in state stays.
  await c.authenticate('login');
  assert.equal(c.agent.state, 'auth');
  await c.shutdown();
});

test('session/list, then session/load replays history into the view', async () => {
  const { c } = client({
    initialize: { agentCapabilities: { loadSession: true, sessionCapabilities: { list: {} } } },
    handlers: {
      'session/list': { result: { sessions: [{ sessionId: 'old-1', cwd: '/w', title: 'Earlier work' }] } },
      'session/load': {
        steps: [
          {
            update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'fix it' } },
            sessionId: 'old-1',
          },
          {
            update: {
              sessionUpdate: 'tool_call',
              toolCallId: 'r1',
              title: 'Read a.ts',
              kind: 'read',
              status: 'completed',
            },
            sessionId: 'old-1',
          },
          {
            update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'done' } },
            sessionId: 'old-1',
          },
        ],
        result: {},
      },
    },
  });
  await c.start();
  const list = await c.listSessions();
  assert.deepEqual(
    list.map((s) => s.title),
    ['Earlier work'],
  );
  const store = await c.loadSession('old-1');
  assert.equal(c.session, store);
  const snap = store.snapshot();
  assert.equal(snap.toolCalls.r1.title, 'Read a.ts');
  assert.deepEqual(
    snap.turns[0].items.map((i) => i.kind),
    ['user', 'tool', 'agent'],
  );
  await c.shutdown();
});

test('a title the agent gives only in session/list names the open session after its turn, and a reopened one at once', async () => {
  // opencode and Kilo: no session_info_update; session/list has the title once the first turn made one.
  const { c } = client({
    initialize: { agentCapabilities: { loadSession: true, sessionCapabilities: { list: {} } } },
    newSession: { sessionId: 'ses-new' },
    handlers: {
      'session/list': {
        result: {
          sessions: [
            { sessionId: 'ses-new', cwd: dir, title: 'Count the tests' },
            { sessionId: 'ses-old', cwd: dir, title: 'Earlier work' },
            { sessionId: 'not-open', cwd: dir, title: 'Someone else' },
          ],
        },
      },
      'session/load': { result: {} },
    },
  });
  try {
    await c.start();
    assert.equal(c.sessions()[0].title, undefined);
    await c.prompt('how many tests are there?');
    await until(() => c.sessions()[0].title === 'Count the tests', 5000, 'the listed title');
    await c.loadSession('ses-old');
    await until(
      () => c.getSession('ses-old')?.state.meta.title === 'Earlier work',
      5000,
      "the reopened session's title",
    );
    assert.deepEqual(
      c.sessions().map((s) => s.sessionId),
      ['ses-new', 'ses-old'],
      'a listed session that is not open is not opened',
    );
  } finally {
    await c.shutdown();
  }
});
