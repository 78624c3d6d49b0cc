import { transcriptsDir } from '../../support/paths';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { toSnapshot } from '../../../src/session/snapshot';
import { createSessionState, reduce, reduceAll } from '../../../src/session/reducer';
import type { SessionAction } from '../../../src/session/actions';
import { applyPatches, coalescePatches } from '../../../src/shared/patches';
import { reduceChecked } from './reduceChecked';
import { TERMINAL_VIEW_MAX_CHARS } from '../../../src/shared/sessionModel';

const up = (update: SessionUpdate, at = 1): SessionAction => ({ type: 'update', update, at });
const text = (
  sessionUpdate: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk',
  t: string,
  messageId?: string,
) => up({ sessionUpdate, content: { type: 'text', text: t }, ...(messageId ? { messageId } : {}) } as SessionUpdate);

const run = reduceChecked;

test('streamed text merges into one message, patches are appends', () => {
  const { snap, patches } = run([
    { type: 'promptStarted', at: 1, prompt: [{ type: 'text', text: 'hi' }] },
    text('agent_message_chunk', 'Hel'),
    text('agent_message_chunk', 'lo'),
    text('agent_message_chunk', '!'),
  ]);
  assert.equal(snap.turns.length, 1);
  assert.deepEqual(
    snap.turns[0].items.map((i) => i.kind),
    ['user', 'agent'],
  );
  const agent = snap.turns[0].items[1];
  assert.ok('blocks' in agent);
  assert.deepEqual(agent.blocks, [{ type: 'text', text: 'Hello!' }]);
  assert.equal(patches.filter((p) => p.op === 'append').length, 2);
  assert.equal(snap.meta.status, 'working');
});

test('a user message while a prompt runs (a steered prompt) stays in that turn; when idle it starts one', () => {
  const { snap } = run([
    { type: 'promptStarted', at: 1, prompt: [{ type: 'text', text: 'hi' }] },
    text('agent_message_chunk', 'working'),
    text('user_message_chunk', 'also this', 'steer-1'),
    text('agent_message_chunk', 'ok'),
    { type: 'promptEnded', at: 2, stopReason: 'end_turn' },
    text('user_message_chunk', 'replayed later'),
  ]);
  assert.equal(snap.turns.length, 2);
  assert.deepEqual(
    snap.turns[0].items.map((i) => i.kind),
    ['user', 'agent', 'user', 'agent'],
  );
});

test('thought, then message, then thought: separate items; messageId splits messages', () => {
  const { snap } = run([
    text('agent_thought_chunk', 'think'),
    text('agent_message_chunk', 'a', 'm1'),
    text('agent_message_chunk', 'b', 'm1'),
    text('agent_message_chunk', 'c', 'm2'),
    text('agent_thought_chunk', 'more'),
  ]);
  assert.deepEqual(
    snap.turns[0].items.map((i) => i.kind),
    ['thought', 'agent', 'agent', 'thought'],
  );
});

test('tool_call on a known id is an update; content and locations replace', () => {
  const { snap } = run([
    up({ sessionUpdate: 'tool_call', toolCallId: 't0', title: 'Read', kind: 'read', status: 'pending', rawInput: {} }),
    up({
      sessionUpdate: 'tool_call',
      toolCallId: 't0',
      title: 'Read README.md',
      kind: 'read',
      status: 'pending',
      content: [{ type: 'content', content: { type: 'text', text: 'one' } }],
      locations: [{ path: '/a', line: 1 }],
    }),
    up(
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 't0',
        status: 'in_progress',
        content: [{ type: 'content', content: { type: 'text', text: 'two' } }],
        locations: [{ path: '/b' }],
      },
      5,
    ),
    up({ sessionUpdate: 'tool_call_update', toolCallId: 't0', status: 'completed' }, 9),
  ]);
  assert.equal(Object.keys(snap.toolCalls).length, 1);
  assert.equal(snap.turns[0].items.length, 1, 'one tree item for one id');
  const c = snap.toolCalls.t0;
  assert.equal(c.title, 'Read README.md');
  assert.deepEqual(c.content, [{ type: 'content', content: { type: 'text', text: 'two' } }]);
  assert.deepEqual(c.locations, [{ path: '/b' }]);
  assert.equal(c.status, 'completed');
  assert.equal(c.startedAt, 1);
  assert.equal(c.endedAt, 9);
});

test('tool_call_update for an unknown id creates a visible call with defaults', () => {
  const { snap } = run([up({ sessionUpdate: 'tool_call_update', toolCallId: 'x', status: 'in_progress' })]);
  assert.equal(snap.toolCalls.x.status, 'in_progress');
  assert.equal(snap.toolCalls.x.kind, 'other');
  assert.equal(snap.toolCalls.x.title, 'Tool call');
});

test('meta updates: plan, commands, mode, config, usage, title, notice, compaction', () => {
  const { snap } = run([
    {
      type: 'started',
      at: 0,
      modes: [
        { id: 'default', name: 'Default' },
        { id: 'plan', name: 'Plan' },
      ],
      currentModeId: 'default',
    },
    up({ sessionUpdate: 'plan', entries: [{ content: 'a', priority: 'high', status: 'pending' }] }),
    up({ sessionUpdate: 'plan', entries: [{ content: 'a', priority: 'high', status: 'completed' }] }),
    up({ sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'init', description: 'Init' }] }),
    up({ sessionUpdate: 'current_mode_update', currentModeId: 'plan' }),
    up({
      sessionUpdate: 'config_option_update',
      configOptions: [
        { id: 'model', name: 'Model', type: 'select', currentValue: 'x', options: [{ value: 'x', name: 'X' }] },
      ],
    }),
    up({ sessionUpdate: 'usage_update', used: 10, size: 100, cost: { amount: 0.5, currency: 'USD' } }),
    up({ sessionUpdate: 'session_info_update', title: 'Fix bug' }),
    up({ sessionUpdate: 'notice', severity: 'warning', title: 'Rate limited' }),
    up({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'in_progress' }),
    up({ sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: { type: 'text', text: 'sum' } }),
    up({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed' }),
  ]);
  assert.deepEqual(snap.meta.plan, [{ content: 'a', priority: 'high', status: 'completed' }]);
  assert.equal(snap.meta.commands[0].name, 'init');
  assert.equal(snap.meta.currentModeId, 'plan');
  assert.equal(snap.meta.modes.length, 2);
  assert.equal(snap.meta.configOptions[0].id, 'model');
  assert.deepEqual(snap.meta.usage, { used: 10, size: 100, cost: { amount: 0.5, currency: 'USD' } });
  assert.equal(snap.meta.title, 'Fix bug');
  assert.equal(snap.notices[0].title, 'Rate limited');
  const comp = snap.turns[0].items.find((i) => i.kind === 'compaction');
  assert.deepEqual(comp, { kind: 'compaction', compactionId: 'c1', status: 'completed', summary: 'sum' });
});

test('prompt lifecycle: ended, failed, disconnected', () => {
  const { snap } = run([
    { type: 'promptStarted', at: 1, prompt: [{ type: 'text', text: 'a' }] },
    { type: 'promptEnded', at: 2, stopReason: 'cancelled' },
    { type: 'promptStarted', at: 3, prompt: [{ type: 'text', text: 'b' }] },
    { type: 'promptFailed', at: 4, error: 'boom' },
    { type: 'promptStarted', at: 5, prompt: [{ type: 'text', text: 'c' }] },
    {
      type: 'update',
      at: 5,
      update: { sessionUpdate: 'tool_call', toolCallId: 'x', title: 'Run', status: 'in_progress' },
    },
    { type: 'disconnected', at: 6, error: 'Agent exited' },
  ]);
  // The agent left mid-call: interrupted (outcome unknown), the same as a cancelled turn's calls.
  assert.equal(snap.toolCalls.x.interrupted, true);
  assert.equal(snap.toolCalls.x.status, 'in_progress');
  assert.equal(snap.toolCalls.x.endedAt, 6);
  assert.equal(snap.turns.length, 3);
  assert.equal(snap.turns[0].stopReason, 'cancelled');
  assert.equal(snap.turns[1].error, 'boom');
  assert.equal(snap.turns[2].error, 'Agent exited');
  assert.equal(snap.meta.status, 'disconnected');
  assert.equal(snap.meta.error, 'Agent exited');
});

test('load replay: user chunks after agent output open new turns', () => {
  const { snap } = run([
    text('user_message_chunk', 'q1'),
    text('agent_message_chunk', 'a1'),
    text('user_message_chunk', 'q2'),
    text('user_message_chunk', ' more'),
    text('agent_message_chunk', 'a2'),
  ]);
  assert.equal(snap.turns.length, 2);
  const u2 = snap.turns[1].items[0];
  assert.ok('blocks' in u2 && u2.blocks[0].type === 'text' && u2.blocks[0].text === 'q2 more');
});

test('reducer is pure: the old state is unchanged by later actions', () => {
  const s0 = reduceAll(createSessionState('s'), [text('agent_message_chunk', 'a')]).state;
  const before = JSON.stringify(toSnapshot(s0));
  reduce(s0, text('agent_message_chunk', 'b'));
  reduce(s0, up({ sessionUpdate: 'tool_call', toolCallId: 'q', title: 'x' }));
  assert.equal(JSON.stringify(toSnapshot(s0)), before);
});

test('coalesced patches give the same mirror', () => {
  const actions: SessionAction[] = [{ type: 'promptStarted', at: 0, prompt: [{ type: 'text', text: 'go' }] }];
  for (let i = 0; i < 50; i++) {
    actions.push(text('agent_message_chunk', `w${i} `));
    if (i % 5 === 0)
      actions.push(up({ sessionUpdate: 'tool_call', toolCallId: `t${i}`, title: `call ${i}`, kind: 'execute' }));
    if (i % 5 === 2)
      actions.push(up({ sessionUpdate: 'tool_call_update', toolCallId: `t${i - 2}`, status: 'completed' }));
  }
  const s0 = createSessionState('s');
  const r = reduceAll(s0, actions);
  const mirror = toSnapshot(s0);
  const merged = coalescePatches(r.patches);
  assert.ok(merged.length < r.patches.length);
  applyPatches(mirror, merged);
  assert.deepEqual(mirror, toSnapshot(r.state));
});

test('recorded transcripts reduce without loss (real agent traffic)', () => {
  const files = readdirSync(transcriptsDir)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => join(transcriptsDir, f));
  assert.ok(files.length >= 6);
  for (const f of files) {
    const actions: SessionAction[] = [];
    const ids = new Set<string>();
    for (const line of readFileSync(f, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const { msg, ms } = JSON.parse(line);
      if (msg.method === 'session/update') {
        actions.push(up(msg.params.update, ms));
        if (msg.params.update.toolCallId) ids.add(msg.params.update.toolCallId);
      }
    }
    const { snap } = run(actions);
    assert.deepEqual(new Set(Object.keys(snap.toolCalls)), ids, f);
    for (const c of Object.values(snap.toolCalls)) assert.ok(c.status, `${f}: ${c.toolCallId} has a status`);
  }
});

test('terminals: header upsert, bounded output, truncation flag, exit', () => {
  const big = 'x'.repeat(TERMINAL_VIEW_MAX_CHARS - 10);
  const { snap, patches } = run([
    { type: 'terminal', at: 1, terminal: { terminalId: 'term1', command: 'npm test', exited: false } },
    { type: 'terminalOutput', at: 2, terminalId: 'term1', data: 'hello\n' },
    { type: 'terminalOutput', at: 3, terminalId: 'term1', data: big },
    { type: 'terminalOutput', at: 4, terminalId: 'term1', data: 'tail😀end' },
    { type: 'terminalOutput', at: 4, terminalId: 'unknown', data: 'dropped' },
    { type: 'terminal', at: 5, terminal: { terminalId: 'term1', exited: true, exitCode: 0, signal: null } },
  ]);
  const t = snap.terminals.term1;
  assert.equal(t.output.length <= TERMINAL_VIEW_MAX_CHARS, true);
  assert.ok(t.output.endsWith('tail😀end'));
  assert.equal(t.truncated, true);
  assert.equal(t.exited, true);
  assert.equal(t.exitCode, 0);
  assert.equal(t.command, 'npm test');
  assert.equal(snap.terminals.unknown, undefined);
  assert.equal(patches.filter((p) => p.op === 'terminalOutput').length, 3);
});

test('permissions queue in order; resolution is recorded on the tool call', () => {
  const req = (id: string, toolCallId: string) => ({
    requestId: id,
    toolCallId,
    at: 1,
    toolCall: { toolCallId, title: `run ${id}` },
    options: [
      { optionId: 'allow', name: 'Allow', kind: 'allow_once' as const },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' as const },
    ],
  });
  const { snap } = run([
    up({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Bash', kind: 'execute' }),
    { type: 'permissionRequested', at: 1, request: req('p1', 'c1') },
    { type: 'permissionRequested', at: 2, request: req('p2', 'c-no-prior-call') },
    {
      type: 'permissionResolved',
      at: 3,
      requestId: 'p1',
      decision: {
        outcome: 'selected',
        optionId: 'allow',
        optionName: 'Allow',
        optionKind: 'allow_once',
        by: 'rule',
        rule: 'reads in workspace',
        at: 3,
      },
    },
    {
      type: 'permissionResolved',
      at: 3,
      requestId: 'nope',
      decision: { outcome: 'cancelled', by: 'cancelled', at: 3 },
    },
  ]);
  assert.deepEqual(
    snap.permissions.map((p) => p.requestId),
    ['p2'],
  );
  assert.equal(snap.toolCalls.c1.permission?.by, 'rule');
  assert.equal(snap.toolCalls.c1.permission?.rule, 'reads in workspace');
});

test('an answered agent request with no tool call of its own becomes its row: allowed runs, denied fails, cancelled leaves none', () => {
  const req = (id: string, toolCallId: string) => ({
    requestId: id,
    toolCallId,
    at: 1,
    toolCall: {
      toolCallId,
      title: `OpenFile (tandem MCP Server) ${id}`,
      kind: 'other' as const,
      status: 'pending' as const,
      content: [],
    },
    options: [
      { optionId: 'allow', name: 'Allow', kind: 'allow_once' as const },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' as const },
    ],
  });
  const allow = {
    outcome: 'selected' as const,
    optionId: 'allow',
    optionName: 'Allow',
    optionKind: 'allow_once' as const,
    by: 'user' as const,
    at: 3,
  };
  const deny = {
    outcome: 'selected' as const,
    optionId: 'no',
    optionName: 'Reject',
    optionKind: 'reject_once' as const,
    by: 'user' as const,
    at: 3,
  };
  const { snap, patches } = run([
    { type: 'promptStarted', at: 0, prompt: [{ type: 'text', text: 'go' }] },
    { type: 'permissionRequested', at: 1, request: req('p1', 'g1') },
    { type: 'permissionRequested', at: 1, request: req('p2', 'g2') },
    { type: 'permissionRequested', at: 1, request: req('p3', 'g3') },
    { type: 'permissionRequested', at: 1, request: { ...req('p4', 'tandem-fs-1'), origin: 'client' } },
    { type: 'permissionResolved', at: 3, requestId: 'p1', decision: allow },
    { type: 'permissionResolved', at: 3, requestId: 'p2', decision: deny },
    { type: 'permissionResolved', at: 3, requestId: 'p3', decision: { outcome: 'cancelled', by: 'cancelled', at: 3 } },
    { type: 'permissionResolved', at: 3, requestId: 'p4', decision: allow },
    // The agent reports the result on the same id: the same row, not a second one.
    up({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'g1',
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: 'Opened.' } }],
    }),
  ]);
  assert.equal(snap.toolCalls.g1.status, 'completed');
  assert.equal(snap.toolCalls.g1.title, 'OpenFile (tandem MCP Server) p1');
  assert.equal(snap.toolCalls.g1.permission?.optionKind, 'allow_once');
  assert.equal(snap.toolCalls.g2.status, 'failed');
  assert.equal(snap.toolCalls.g2.permission?.optionKind, 'reject_once');
  assert.equal(snap.toolCalls.g3, undefined);
  assert.equal(snap.toolCalls['tandem-fs-1'], undefined, "Tandem's own question is not a tool call");
  const tools = snap.turns[0].items.filter((i) => i.kind === 'tool').map((i) => i.toolCallId);
  assert.deepEqual(tools, ['g1', 'g2']);
  const firstTool = patches.findIndex((p) => p.op === 'tool' && p.call.toolCallId === 'g1');
  const item = patches.findIndex((p) => p.op === 'item' && p.item.kind === 'tool' && p.item.toolCallId === 'g1');
  assert.ok(item >= 0 && item < firstTool, 'the row is added before its call is sent');
  assert.equal(
    patches.filter((p) => p.op === 'tool' && p.call.toolCallId === 'g1' && p.call.status === 'in_progress').length,
    1,
    'one tool patch per resolution',
  );
});

test('elicitations queue in order, resolve by id (unknown ids change nothing), and re-requesting an id replaces it', () => {
  const form = (id: string) => ({
    requestId: id,
    mode: 'form' as const,
    message: `form ${id}`,
    at: 1,
    requestedSchema: {
      type: 'object' as const,
      properties: { name: { type: 'string' as const, title: 'Name' } },
      required: ['name'],
    },
  });
  const url = {
    requestId: 'u1',
    mode: 'url' as const,
    message: 'Sign in',
    url: 'https://example.com/a',
    host: 'example.com',
    elicitationId: 'e1',
    at: 2,
  };
  const { snap, patches } = run([
    { type: 'elicitationRequested', at: 1, request: form('f1') },
    { type: 'elicitationRequested', at: 2, request: url },
    { type: 'elicitationRequested', at: 3, request: form('f2') },
    { type: 'elicitationResolved', at: 4, requestId: 'f1' },
    { type: 'elicitationResolved', at: 4, requestId: 'nope' },
    { type: 'elicitationRequested', at: 5, request: { ...form('f2'), message: 'again' } },
  ]);
  assert.deepEqual(
    snap.elicitations.map((e) => e.requestId),
    ['u1', 'f2'],
  );
  assert.equal(snap.elicitations[1].message, 'again');
  assert.equal(patches.filter((p) => p.op === 'elicitations').length, 5, 'an unknown id makes no patch');
  const empty = run([{ type: 'elicitationResolved', at: 1, requestId: 'x' }]);
  assert.deepEqual(empty.patches, []);
  assert.deepEqual(empty.snap.elicitations, []);
});

test('agent-side terminal output in _meta (claude-agent-acp) becomes a terminal on the call', () => {
  const { snap } = run([
    up({
      sessionUpdate: 'tool_call',
      toolCallId: 'b1',
      title: 'Bash',
      kind: 'execute',
      status: 'in_progress',
      rawInput: { command: 'npm test' },
      _meta: { claudeCode: { toolName: 'Bash' }, terminal_info: { terminal_id: 'T1' } },
    }),
    up({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'b1',
      _meta: { terminal_output: { terminal_id: 'T1', data: 'ok 1\n' } },
    }),
    up({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'b1',
      _meta: { terminal_output: { terminal_id: 'T1', data: 'ok 2\n' } },
    }),
    up({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'b1',
      status: 'completed',
      _meta: { terminal_exit: { terminal_id: 'T1', exit_code: 0, signal: null } },
    }),
  ]);
  const call = snap.toolCalls.b1;
  assert.equal(call.agentTerminalId, 'T1');
  assert.deepEqual(call.meta, { claudeCode: { toolName: 'Bash' } }, 'terminal keys are not kept in meta');
  assert.deepEqual(
    { ...snap.terminals.T1 },
    {
      terminalId: 'T1',
      command: 'npm test',
      output: 'ok 1\nok 2\n',
      outputEnd: 10,
      truncated: false,
      exited: true,
      exitCode: 0,
      signal: null,
    },
  );
});

test('terminal_output_delta chunks (the JetBrains form) are appended like terminal_output, and not kept in meta', () => {
  const { snap } = run([
    up({
      sessionUpdate: 'tool_call',
      toolCallId: 'd1',
      title: 'Bash',
      kind: 'execute',
      status: 'in_progress',
      rawInput: { command: 'make' },
      _meta: { terminal_info: { terminal_id: 'T2' } },
    }),
    ...['one\n', 'two\n', 'three\n'].map((data) =>
      up({
        sessionUpdate: 'tool_call_update',
        toolCallId: 'd1',
        _meta: { terminal_output_delta: { terminal_id: 'T2', data } },
      }),
    ),
  ]);
  assert.equal(snap.terminals.T2.output, 'one\ntwo\nthree\n');
  assert.equal(snap.toolCalls.d1.meta, undefined, "the delta is not left in the call's meta");
});

test('calls unfinished when a turn is cancelled or fails are marked interrupted; a late update wins', () => {
  const { snap } = run([
    { type: 'promptStarted', at: 1, prompt: [{ type: 'text', text: 'go' }] },
    up({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'ls', kind: 'execute', status: 'in_progress' }),
    up({ sessionUpdate: 'tool_call', toolCallId: 'b', title: 'cat', kind: 'read', status: 'completed' }),
    up({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'rm', kind: 'delete', status: 'pending' }),
    { type: 'promptEnded', at: 9, stopReason: 'cancelled' },
    up({ sessionUpdate: 'tool_call_update', toolCallId: 'c', status: 'failed' }, 10),
  ]);
  assert.equal(snap.toolCalls.a.interrupted, true);
  assert.equal(snap.toolCalls.a.status, 'in_progress');
  assert.equal(snap.toolCalls.a.endedAt, 9);
  assert.equal(snap.toolCalls.b.interrupted, undefined);
  assert.equal(snap.toolCalls.c.interrupted, undefined, 'the agent reported it after all');
  assert.equal(snap.toolCalls.c.status, 'failed');
  const ok = run([
    { type: 'promptStarted', at: 1, prompt: [{ type: 'text', text: 'go' }] },
    up({ sessionUpdate: 'tool_call', toolCallId: 'x', title: 'ls', status: 'in_progress' }),
    { type: 'promptEnded', at: 2, stopReason: 'end_turn' },
  ]).snap;
  assert.equal(ok.toolCalls.x.interrupted, undefined, 'end_turn leaves calls alone');
});

test("a subagent's calls record the Agent call that started them (claude-agent-acp parentToolUseId)", () => {
  const call = (toolCallId: string, parent?: string, sessionUpdate: 'tool_call' | 'tool_call_update' = 'tool_call') =>
    up({
      sessionUpdate,
      toolCallId,
      title: toolCallId,
      kind: 'read',
      status: 'pending',
      ...(parent ? { _meta: { claudeCode: { toolName: 'Read', parentToolUseId: parent } } } : {}),
    } as SessionUpdate);
  const { snap } = run([
    { type: 'promptStarted', at: 1, prompt: [{ type: 'text', text: 'go' }] },
    call('agent'),
    call('child', 'agent'),
    call('grandchild', 'child'),
    call('orphan', 'never-seen'),
    // A later update naming its own descendant as parent would make a cycle: ignored.
    call('agent', 'grandchild', 'tool_call_update'),
    // The first parent stays.
    call('child', 'orphan', 'tool_call_update'),
  ]);
  assert.equal(snap.toolCalls.agent.parentId, undefined);
  assert.equal(snap.toolCalls.child.parentId, 'agent');
  assert.equal(snap.toolCalls.grandchild.parentId, 'child');
  assert.equal(snap.toolCalls.orphan.parentId, undefined, 'an unknown parent is no parent');
  assert.equal(
    snap.turns[0].items.filter((i) => i.kind === 'tool').length,
    4,
    'every call is still an item of its turn',
  );
});

test("a background subagent's call that comes after its turn ended goes into that turn, under its Agent call", () => {
  const { snap } = run([
    { type: 'promptStarted', at: 1, prompt: [{ type: 'text', text: 'first' }] },
    up({ sessionUpdate: 'tool_call', toolCallId: 'agent', title: 'Agent', kind: 'think', status: 'completed' }),
    { type: 'promptEnded', at: 2, stopReason: 'end_turn' },
    { type: 'promptStarted', at: 3, prompt: [{ type: 'text', text: 'second' }] },
    up({
      sessionUpdate: 'tool_call',
      toolCallId: 'late',
      title: 'Read',
      kind: 'read',
      status: 'pending',
      _meta: { claudeCode: { toolName: 'Read', parentToolUseId: 'agent' } },
    } as SessionUpdate),
    up({ sessionUpdate: 'tool_call', toolCallId: 'own', title: 'Read', kind: 'read', status: 'pending' }),
  ]);
  assert.equal(snap.toolCalls.late.turn, 0);
  assert.deepEqual(
    snap.turns[0].items.filter((i) => i.kind === 'tool').map((i) => (i as { toolCallId: string }).toolCallId),
    ['agent', 'late'],
  );
  assert.deepEqual(
    snap.turns[1].items.filter((i) => i.kind === 'tool').map((i) => (i as { toolCallId: string }).toolCallId),
    ['own'],
  );
});

test("a permission request's details reach the row it asks about; the agent's later update still wins", () => {
  const options = [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' as const }];
  const {
    snap,
    patches,
    state: stateAfter,
  } = run([
    { type: 'promptStarted', at: 0, prompt: [{ type: 'text', text: 'clean up' }] },
    // Qwen Code: the row says only "Shell"; the request names the command and where it runs.
    up({ sessionUpdate: 'tool_call', toolCallId: 'q1', title: 'Shell', kind: 'execute', status: 'in_progress' }),
    {
      type: 'permissionRequested',
      at: 1,
      request: {
        requestId: 'p1',
        toolCallId: 'q1',
        at: 1,
        options,
        toolCall: {
          toolCallId: 'q1',
          title: 'Shell: rm -rf build',
          status: 'pending',
          rawInput: { command: 'rm -rf build' },
          locations: [{ path: '/w/build' }],
        },
      },
    },
  ]);
  const row = snap.toolCalls.q1;
  assert.equal(row.title, 'Shell: rm -rf build');
  assert.deepEqual(row.rawInput, { command: 'rm -rf build' });
  assert.deepEqual(row.locations, [{ path: '/w/build' }]);
  assert.equal(row.kind, 'execute');
  assert.equal(row.status, 'in_progress', "the request's status does not move the row back");
  assert.ok(patches.some((p) => p.op === 'tool' && p.call.title === 'Shell: rm -rf build'));
  // The agent's own update after the request wins over what the request said.
  const after = run(
    [up({ sessionUpdate: 'tool_call_update', toolCallId: 'q1', title: 'Removed build', status: 'completed' })],
    stateAfter,
  ).snap.toolCalls.q1;
  assert.equal(after.title, 'Removed build');
  assert.deepEqual(after.rawInput, { command: 'rm -rf build' });
});

test("a request for a call with no row yet still makes its row once answered; Tandem's own question never retitles a row", () => {
  const options = [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' as const }];
  const { snap } = run([
    { type: 'promptStarted', at: 0, prompt: [{ type: 'text', text: 'go' }] },
    {
      type: 'permissionRequested',
      at: 1,
      request: {
        requestId: 'p1',
        toolCallId: 'g1',
        at: 1,
        options,
        toolCall: { toolCallId: 'g1', title: 'echo hi', kind: 'execute', rawInput: { command: 'echo hi' } },
      },
    },
    {
      type: 'permissionResolved',
      at: 2,
      requestId: 'p1',
      decision: { outcome: 'selected', optionId: 'allow', optionKind: 'allow_once', by: 'user', at: 2 },
    },
    up({ sessionUpdate: 'tool_call', toolCallId: 'r1', title: 'Read a.ts', kind: 'read' }),
    {
      type: 'permissionRequested',
      at: 3,
      request: {
        requestId: 'p2',
        toolCallId: 'r1',
        at: 3,
        options,
        origin: 'client',
        toolCall: { toolCallId: 'r1', title: 'Read a file outside the workspace' },
      },
    },
  ]);
  assert.equal(snap.toolCalls.g1.title, 'echo hi');
  assert.deepEqual(snap.toolCalls.g1.rawInput, { command: 'echo hi' });
  assert.equal(snap.toolCalls.g1.status, 'in_progress');
  assert.equal(snap.toolCalls.r1.title, 'Read a.ts');
});

test("the session's title is the agent's, from session_info_update or session/list, whichever came last", () => {
  const { snap, patches } = run([
    up({ sessionUpdate: 'session_info_update', title: 'Fix the login' }),
    { type: 'titleListed', at: 2, title: 'Fix the login form' },
    { type: 'titleListed', at: 3, title: 'Fix the login form' },
  ]);
  assert.equal(snap.meta.title, 'Fix the login form');
  assert.equal(
    patches.filter((p) => p.op === 'meta' && 'title' in p.meta).length,
    2,
    'the same listed title again changes nothing',
  );
  assert.equal(run([{ type: 'titleListed', at: 1, title: 'From the list' }]).snap.meta.title, 'From the list');
});

test('an empty text chunk adds no message row (Qwen Code sends one with its usage after each model call)', () => {
  const { snap, patches } = run([
    { type: 'promptStarted', at: 1, prompt: [{ type: 'text', text: 'hi' }] },
    up({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'ReadFile', kind: 'read', status: 'pending' }),
    text('agent_message_chunk', ''),
    text('agent_thought_chunk', ''),
    up({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' }),
    text('agent_message_chunk', 'Done.'),
    text('agent_message_chunk', ''),
  ]);
  assert.deepEqual(
    snap.turns[0].items.map((i) => ('blocks' in i ? [i.kind, i.blocks] : [i.kind])),
    [['user', [{ type: 'text', text: 'hi' }]], ['tool'], ['agent', [{ type: 'text', text: 'Done.' }]]],
  );
  assert.equal(patches.filter((p) => p.op === 'append').length, 0, 'nothing appended to "Done."');
});
