// Fault injection at the agent: a real AgentClient and its features against the scripted agent
// misbehaving (crashes, hangs, garbage on the wire, protocol oddities). Each case asserts the
// message the user gets, then Fault.check(): view consistent, nothing unanswered, no orphan.
// (Transport-level variants of the same inputs: test/unit/acp/*.test.ts.)
import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { groupAlive, processAlive } from '../../../src/acp/processGroups';
import type { Step } from '../../../src/demo/scriptTypes';
import { settleMicrotasks, withMockTimers } from '../../support/mockTimers';
import { until } from '../../support/until';
import { agentText, Fault } from './harness';

const posix = process.platform !== 'win32';
const node = JSON.stringify(process.execPath);

/** A command that ignores SIGTERM and forks two children that ignore it too, then runs forever. */
const STUBBORN = [
  "process.on('SIGTERM', () => {});",
  "const { spawn } = require('child_process');",
  "for (let i = 0; i < 2; i++) spawn(process.execPath, ['-e', \"process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)\"], { stdio: 'ignore' });",
  "console.log('children started'); setInterval(() => {}, 1000);",
].join(' ');

const toolCall = (id: string, title: string, kind = 'execute', status = 'in_progress'): Step =>
  ({ update: { sessionUpdate: 'tool_call', toolCallId: id, title, kind, status } }) as Step;

test(
  'agent SIGKILLed mid-command: turn error names the signal, the running terminal group dies with the connection',
  { skip: !posix },
  async () => {
    const f = new Fault({
      prompts: [
        {
          steps: [
            toolCall('t1', 'Run the build'),
            {
              request: 'terminal/create',
              params: { sessionId: '${sessionId}', command: process.execPath, args: ['-e', STUBBORN] },
              as: 'term',
            },
            {
              update: {
                sessionUpdate: 'tool_call_update',
                toolCallId: 't1',
                content: [{ type: 'terminal', terminalId: '${term.terminalId}' }],
              },
            } as Step,
            // Long enough for the command's node to start and print on a loaded machine (two
            // cores shared with VS Code suites took over 300 ms), so its output exists to keep.
            { sleep: 1500 },
            { stderr: 'agent: out of memory' },
            { crash: { signal: 'SIGKILL' } },
          ],
        },
      ],
    });
    await f.client.start();
    const agentPid = f.agentPid;
    await f.client.prompt('build it');
    const snap = f.snapshot;
    // The message: the turn and the session banner say what happened, with the agent's last words.
    assert.match(snap.turns[0].error ?? '', /SIGKILL/);
    assert.match(snap.meta.error ?? '', /out of memory/);
    assert.equal(snap.meta.status, 'disconnected');
    assert.equal(f.client.agent.state, 'exited');
    assert.equal(processAlive(agentPid), false);
    // The command the dead agent started does not outlive it (no restart, no window close needed).
    assert.equal(f.terminalPids.length, 1);
    await until(() => !groupAlive(f.terminalPids[0]), 3000).catch(() => undefined);
    assert.equal(groupAlive(f.terminalPids[0]), false, 'the terminal group (stubborn children included) is gone');
    await until(() => Object.values(f.snapshot.terminals)[0]?.exited === true, 2000).catch(() => undefined);
    const term = Object.values(f.snapshot.terminals)[0];
    assert.equal(term.exited, true, 'the terminal shows as ended');
    assert.match(term.output, /children started/, 'its output stays visible');
    // The call the agent can no longer finish does not spin forever.
    assert.equal(f.snapshot.toolCalls.t1.interrupted, true, 'shown as interrupted, like a cancelled turn');
    assert.ok(f.snapshot.toolCalls.t1.endedAt !== undefined);
    await f.check({ connectionUp: false });
  },
);

test('agent hangs and ignores cancel: cancel still ends the turn (with a message); a new AgentClient works', async () => {
  const f = new Fault(
    { prompts: [{ steps: [{ stream: 'thinking…' }, { hang: 'ignore-cancel' }] }] },
    { cancelTimeoutMs: 300 },
  );
  await f.client.start();
  const pid = f.agentPid;
  const turn = f.client.prompt('long job');
  await until(() => agentText(f.snapshot).includes('thinking'));
  // The cancel's wait runs on mocked time: the turn ends when cancelTimeoutMs has passed, not before.
  await withMockTimers(async () => {
    let ended = false;
    void turn.then(() => (ended = true));
    f.client.cancel();
    await until(() => f.outgoing.some((m) => m.method === 'session/cancel'), 2000, 'the cancel to be sent');
    mock.timers.tick(299);
    await settleMicrotasks();
    assert.equal(ended, false, 'the agent gets the whole cancelTimeoutMs to answer');
    mock.timers.tick(1);
    await turn;
  });
  const snap = f.snapshot;
  assert.equal(snap.meta.status, 'idle');
  assert.match(snap.turns[0].error ?? '', /did not answer the cancel/);
  assert.ok(f.problems().some((m) => /did not answer the cancel/.test(m)));
  assert.equal(f.outgoing.filter((m) => m.method === 'session/cancel').length, 1);
  await f.check();
  assert.equal(processAlive(pid), false, 'the hung agent was killed on shutdown');

  // Restart: a fresh connection to a well-behaved agent.
  const g = new Fault({ prompts: [{ steps: [{ stream: 'back again' }] }] });
  await g.client.start();
  assert.equal(g.client.agent.state, 'ready');
  await g.client.prompt('hello');
  assert.equal(agentText(g.snapshot), 'back again');
  await g.check();
});

test('agent hangs but honours cancel: the turn ends cancelled at once', async () => {
  const f = new Fault({ prompts: [{ steps: [toolCall('t1', 'Think'), { hang: true }] }] });
  await f.client.start();
  const turn = f.client.prompt('go');
  await until(() => !!f.snapshot.toolCalls.t1);
  f.client.cancel();
  await turn;
  assert.equal(f.snapshot.turns[0].stopReason, 'cancelled');
  await f.check();
});

test('agent exits during initialize: exited state with its stderr; no session, no orphan', async () => {
  const f = new Fault({ initialize: { steps: [{ stderr: 'fatal: config unreadable' }, { exit: 7 }] } });
  await f.client.start();
  assert.equal(f.client.agent.state, 'exited');
  assert.match(f.client.agent.message ?? '', /code 7/);
  assert.match(f.client.agent.message ?? '', /config unreadable/);
  assert.equal(f.client.session, undefined);
  assert.ok(
    f.states.some((s) => s.state === 'starting'),
    'the view showed starting first',
  );
  await f.check({ connectionUp: false });
});

test('agent SIGKILLed during initialize: error state, no orphan', async () => {
  const f = new Fault({ initialize: { steps: [{ crash: { signal: 'SIGKILL' } }] } });
  await f.client.start();
  assert.ok(['exited', 'error'].includes(f.client.agent.state));
  assert.match(f.client.agent.message ?? '', /SIGKILL/);
  await f.check({ connectionUp: false });
});

test('malformed JSON, non-JSON-RPC lines and invalid UTF-8 mid-turn: logged, skipped, the turn goes on', async () => {
  const f = new Fault({
    prompts: [
      {
        steps: [
          { stream: 'before ' },
          { garbage: 'invalid-json' },
          { garbage: 'not-jsonrpc' },
          { garbage: 'binary' },
          {
            raw: '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"${sessionId}","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"caf\u00e9 "}}}}\n',
          },
          { stream: 'after' },
        ],
      },
    ],
  });
  await f.client.start();
  await f.client.prompt('go');
  const snap = f.snapshot;
  assert.equal(snap.turns[0].stopReason, 'end_turn');
  assert.equal(agentText(snap), 'before café after', 'valid messages around the garbage are all shown, in order');
  const problems = f.problems().join('\n');
  assert.match(problems, /not valid JSON|parse|JSON/i, problems);
  assert.equal(f.client.agent.state, 'ready');
  await f.check();
});

test('a 50 MB single line (under the 64 MiB default cap) is accepted and shown; memory stays bounded', async () => {
  const bytes = 50_000_000;
  const f = new Fault({
    prompts: [{ steps: [{ stream: 'start ' }, { garbage: 'huge-line', bytes }, { stream: ' end' }] }],
  });
  await f.client.start();
  global.gc?.();
  const before = process.memoryUsage();
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss - before.rss);
  }, 20);
  await f.client.prompt('big');
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss - before.rss);
  const text = agentText(f.snapshot);
  assert.ok(text.startsWith('start x'));
  assert.ok(text.endsWith('x end'));
  assert.ok(Math.abs(text.length - bytes) < 1000, `shown ${text.length} characters`);
  assert.equal(f.snapshot.turns[0].stopReason, 'end_turn');
  // The line is held once as bytes and once as a string (and once parsed): a few times its size, not dozens.
  assert.ok(peak < 8 * bytes, `rss grew ${(peak / 1e6).toFixed(0)} MB for a ${bytes / 1e6} MB line`);
  await f.check();
});

test('a line over the default 64 MiB cap is skipped with a clear log line; the turn and the connection go on', async () => {
  const f = new Fault({
    prompts: [
      { steps: [{ stream: 'start ' }, { garbage: 'huge-line', bytes: 64 * 1024 * 1024 + 100_000 }, { stream: 'end' }] },
    ],
  });
  await f.client.start();
  await f.client.prompt('big');
  assert.equal(agentText(f.snapshot), 'start end');
  assert.equal(f.snapshot.turns[0].stopReason, 'end_turn');
  assert.ok(
    f.problems().some((m) => /exceeds the limit of 67108864 bytes/.test(m)),
    f.problems().join('\n'),
  );
  await f.check();
});

test('a JSON-RPC batch is answered -32600 and logged; responses to unknown ids are logged and ignored', async () => {
  const upd = (text: string) =>
    `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"\${sessionId}","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"${text}"}}}}`;
  const f = new Fault({
    prompts: [
      {
        steps: [
          { raw: `[${upd('batched ')},${upd('twice ')}]\n` },
          { raw: '{"jsonrpc":"2.0","id":9999,"result":{"stopReason":"end_turn"}}\n' },
          { raw: '{"jsonrpc":"2.0","id":"nobody","error":{"code":-32603,"message":"late"}}\n' },
          { raw: '{"jsonrpc":"2.0","id":0,"result":{}}\n' },
          { stream: 'still here' },
        ],
      },
    ],
  });
  await f.client.start();
  await f.client.prompt('go');
  const snap = f.snapshot;
  assert.equal(snap.turns[0].stopReason, 'end_turn', 'a response to an unknown id did not end the turn');
  assert.equal(agentText(snap), 'still here', 'the batch is not half-applied');
  const batchReply = f.outgoing.find((m) => m.error?.code === -32600);
  assert.ok(batchReply, 'the batch was answered');
  assert.equal(batchReply.id, null);
  const log = f.logger.messages().join('\n');
  assert.match(log, /batch/i);
  assert.match(log, /unknown.*9999|9999.*unknown/i);
  await f.check();
});

test('duplicate tool-call ids and duplicate updates: one call, updated in place, final state wins', async () => {
  const f = new Fault({
    prompts: [
      {
        steps: [
          {
            update: {
              sessionUpdate: 'tool_call',
              toolCallId: 'dup',
              title: 'Read',
              kind: 'read',
              status: 'pending',
              rawInput: {},
            },
          } as Step,
          {
            update: {
              sessionUpdate: 'tool_call',
              toolCallId: 'dup',
              title: 'Read README.md',
              kind: 'read',
              status: 'in_progress',
              rawInput: { path: 'README.md' },
            },
          } as Step,
          {
            update: {
              sessionUpdate: 'tool_call_update',
              toolCallId: 'dup',
              status: 'completed',
              content: [{ type: 'content', content: { type: 'text', text: 'a' } }],
            },
          } as Step,
          {
            update: {
              sessionUpdate: 'tool_call_update',
              toolCallId: 'dup',
              status: 'completed',
              content: [{ type: 'content', content: { type: 'text', text: 'a' } }],
            },
          } as Step,
          {
            update: { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: 'once' } },
          } as Step,
        ],
      },
    ],
  });
  await f.client.start();
  await f.client.prompt('go');
  const snap = f.snapshot;
  const tools = snap.turns[0].items.filter((i) => i.kind === 'tool');
  assert.equal(tools.length, 1, 'one row for the call');
  assert.equal(snap.toolCalls.dup.title, 'Read README.md');
  assert.equal(snap.toolCalls.dup.status, 'completed');
  assert.equal(snap.toolCalls.dup.content.length, 1, 'content replaced, not appended');
  await f.check();
});

test('updates for an unknown session and an unknown tool call: never shown in this session, nothing breaks', async () => {
  const f = new Fault({
    prompts: [
      {
        steps: [
          {
            update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'for someone else' } },
            sessionId: 'ghost-session',
          } as Step,
          { update: { sessionUpdate: 'tool_call_update', toolCallId: 'ghost-call', status: 'completed' } } as Step,
          {
            update: {
              sessionUpdate: 'tool_call_update',
              toolCallId: 'ghost-2',
              title: 'Edit a.ts',
              kind: 'edit',
              status: 'in_progress',
            },
          } as Step,
          { update: { sessionUpdate: 'tool_call_update', toolCallId: 'ghost-2', status: 'completed' } } as Step,
          { stream: 'mine' },
        ],
      },
    ],
  });
  await f.client.start();
  await f.client.prompt('go');
  const snap = f.snapshot;
  assert.equal(agentText(snap), 'mine');
  assert.ok(!JSON.stringify(snap).includes('for someone else'));
  assert.ok(
    f.logger.messages().some((m) => /ghost-session/.test(m)),
    'the stray update is logged',
  );
  for (const c of Object.values(snap.toolCalls)) assert.equal(c.status, 'completed');
  assert.equal(snap.turns[0].stopReason, 'end_turn');
  await f.check();
});

test('a permission request arriving after cancel is answered cancelled at once, never shown', async () => {
  const options = [
    { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
    { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
  ];
  const f = new Fault({
    prompts: [
      {
        steps: [toolCall('t1', 'rm -rf build'), { hang: true }],
        onCancel: [
          {
            request: 'session/request_permission',
            params: { sessionId: '${sessionId}', toolCall: { toolCallId: 't1', title: 'rm -rf build' }, options },
            as: 'late',
          },
          { update: { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'failed' } } as Step,
        ],
      },
    ],
  });
  await f.client.start();
  const turn = f.client.prompt('clean');
  await until(() => !!f.snapshot.toolCalls.t1);
  f.client.cancel();
  await turn;
  assert.equal(f.snapshot.turns[0].stopReason, 'cancelled');
  assert.deepEqual(f.responseTo('session/request_permission')?.result, { outcome: { outcome: 'cancelled' } });
  assert.deepEqual(f.shown, [], 'the user was not asked');
  assert.ok(
    f.logger.messages().some((m) => /after .*cancel/i.test(m)),
    'logged',
  );
  // The next turn asks normally.
  await f.check();
});

test(
  'cancel mid-command of a terminal that ignores SIGTERM and forks: released, SIGKILLed after the grace, nothing left',
  { skip: !posix },
  async () => {
    const f = new Fault({
      prompts: [
        {
          steps: [
            toolCall('t1', 'stubborn'),
            { terminal: { command: process.execPath, args: ['-e', STUBBORN] }, toolCallId: 't1', as: 'run' },
          ],
        },
      ],
    });
    await f.client.start();
    const turn = f.client.prompt('run it');
    await until(() => Object.values(f.snapshot.terminals).some((t) => t.output.includes('children started')));
    f.client.cancel();
    await turn;
    assert.equal(f.snapshot.turns[0].stopReason, 'cancelled');
    await until(() => f.terminalPids.every((p) => !groupAlive(p)), 5000);
    const term = Object.values(f.snapshot.terminals)[0];
    assert.equal(term.released, true);
    assert.match(term.output, /children started/, 'output kept');
    assert.ok(
      f.problems().some((m) => /still running \d+ ms after SIGTERM: SIGKILL/.test(m)),
      'SIGTERM was ignored: the group lived through the grace, until SIGKILL (logged)',
    );
    assert.ok(
      f.outgoing.some((m) => m.method === undefined && m.id !== undefined),
      'release answered',
    );
    await f.check();
  },
);

test(
  'the agent kills a stubborn terminal itself (terminal/kill): answered after the group is gone',
  { skip: !posix },
  async () => {
    const f = new Fault({
      prompts: [
        {
          steps: [
            toolCall('t1', 'stubborn'),
            {
              request: 'terminal/create',
              params: { sessionId: '${sessionId}', command: `${node} -e "${STUBBORN.replace(/"/g, '\\"')}"` },
              as: 'term',
            },
            { sleep: 300 },
            {
              request: 'terminal/kill',
              params: { sessionId: '${sessionId}', terminalId: '${term.terminalId}' },
              as: 'killed',
            },
            {
              request: 'terminal/wait_for_exit',
              params: { sessionId: '${sessionId}', terminalId: '${term.terminalId}' },
              as: 'exit',
            },
            { request: 'terminal/release', params: { sessionId: '${sessionId}', terminalId: '${term.terminalId}' } },
            { update: { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' } } as Step,
            { stream: 'signal ${exit.signal}' },
          ],
        },
      ],
    });
    await f.client.start();
    await f.client.prompt('go');
    assert.match(agentText(f.snapshot), /signal SIG(KILL|TERM)/);
    for (const p of f.terminalPids) assert.equal(groupAlive(p), false);
    await f.check();
  },
);
