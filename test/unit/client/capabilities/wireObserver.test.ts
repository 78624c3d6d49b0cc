// What an agent did on the wire, counted from the traffic hook: client methods, notifications,
// update kinds, `_meta` keys, and whether it asked before running each tool call; bounded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WIRE_LIMITS, WireObserver, type Tally } from '../../../../src/client/capabilities/wireObserver';
import { observe } from './transcripts';

const count = (list: Tally[], name: string) => list.find((t) => t.name === name)?.count ?? 0;
const update = (sessionId: string, u: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  method: 'session/update',
  params: { sessionId, update: u },
});
const permission = (id: number, sessionId: string, toolCallId: string, kind?: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'session/request_permission',
  params: { sessionId, toolCall: { toolCallId, ...(kind ? { kind } : {}) }, options: [] },
});

test('claude-code-acp: the fs and permission requests it made, its notifications and update kinds are counted', () => {
  const s = observe('claude-code-acp-0.16.2-edit').snapshot();
  assert.equal(count(s.agentRequests, 'fs/read_text_file'), 2);
  assert.equal(count(s.agentRequests, 'fs/write_text_file'), 2);
  assert.equal(count(s.agentRequests, 'session/request_permission'), 2);
  assert.equal(count(s.agentRequests, 'terminal/create'), 0);
  assert.equal(count(s.notifications, 'session/update'), 19);
  assert.equal(count(s.updates, 'tool_call'), 6);
  assert.equal(count(s.updates, 'tool_call_update'), 6);
  assert.deepEqual(
    s.tandemRequests.map((t) => t.name),
    ['initialize', 'session/new', 'session/prompt'],
  );
  assert.equal(count(s.toolContent, 'diff'), 3);
  assert.equal(count(s.sessionAnswers, 'models'), 1);
  assert.equal((s.initialize.params?.clientCapabilities as { terminal?: boolean }).terminal, true);
  assert.equal((s.initialize.result?.agentInfo as { name: string }).name, '@zed-industries/claude-code-acp');
});

test('claude-agent-acp: `_meta` keys are recorded as paths, with where each was seen', () => {
  const s = observe('claude-agent-acp-0.100.0-bash').snapshot();
  const meta = (path: string) => s.meta.find((m) => m.path === path);
  assert.deepEqual(meta('claudeCode.toolName'), {
    path: 'claudeCode.toolName',
    count: 5,
    where: ['tool_call', 'tool_call_update'],
  });
  assert.deepEqual(meta('steering.supported')?.where, ['initialize answer']);
  assert.deepEqual(meta('claudeCode.promptQueueing')?.where, ['initialize answer › agentCapabilities']);
  assert.deepEqual(meta('_claude/model')?.where, ['usage_update']);
  assert.deepEqual(meta('quota.token_count')?.where, ['session/prompt answer']);
  assert.equal(count(s.notifications, '_auth/status_update'), 1);
  assert.equal(s.agentRequests.length, 0, 'it runs its tools itself: no client method called');
});

test('a call counts as asked first only when its permission request came before it ran', () => {
  const w = new WireObserver();
  // a: reported, asked, then run (claude-code-acp's order)
  w.observe('in', update('s1', { sessionUpdate: 'tool_call', toolCallId: 'a', kind: 'edit', status: 'pending' }));
  w.observe('in', permission(1, 's1', 'a'));
  w.observe('in', update('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'in_progress' }));
  w.observe('in', update('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'completed' }));
  // b: asked before it was ever reported (Gemini CLI), then completed
  w.observe('in', permission(2, 's1', 'b', 'execute'));
  w.observe('in', update('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'b', status: 'completed' }));
  // c: ran without asking, asked afterwards; the same id in another session is another call
  w.observe('in', update('s1', { sessionUpdate: 'tool_call', toolCallId: 'c', kind: 'read', status: 'in_progress' }));
  w.observe('in', permission(3, 's1', 'c'));
  w.observe('in', update('s2', { sessionUpdate: 'tool_call', toolCallId: 'a', kind: 'edit', status: 'completed' }));
  // d: asked and rejected (failed, never ran)
  w.observe('in', permission(4, 's1', 'd', 'delete'));
  w.observe('in', update('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'd', status: 'failed' }));
  const t = w.snapshot().toolCalls;
  assert.deepEqual(
    { seen: t.seen, ran: t.ran, askedFirst: t.askedFirst, without: t.ranWithoutAsking },
    { seen: 5, ran: 4, askedFirst: 2, without: 2 },
  );
  assert.equal(t.askedAfterRunning, 1);
  assert.equal(t.askedNotRun, 1);
  assert.deepEqual(
    [...t.byKind].sort((x, y) => x.kind.localeCompare(y.kind)),
    [
      { kind: 'edit', ran: 2, askedFirst: 1 },
      { kind: 'execute', ran: 1, askedFirst: 1 },
      { kind: 'read', ran: 1, askedFirst: 0 },
    ],
  );
});

test("error answers are counted for the method they answer, in both directions; initialize's error is kept", () => {
  const w = new WireObserver();
  w.observe('out', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1 } });
  w.observe('in', { jsonrpc: '2.0', id: 0, error: { code: -32603, message: 'cannot start' } });
  w.observe('in', { jsonrpc: '2.0', id: 0, method: 'terminal/create', params: { sessionId: 's', command: 'x' } });
  w.observe('out', { jsonrpc: '2.0', id: 0, error: { code: -32602, message: 'no' } });
  w.observe('in', { jsonrpc: '2.0', id: '0', method: '_x/unknown', params: {} });
  w.observe('out', { jsonrpc: '2.0', id: '0', error: { code: -32601, message: 'Method not found' } });
  const s = w.snapshot();
  assert.deepEqual(s.tandemRequests, [{ name: 'initialize', count: 1, errors: 1 }]);
  assert.deepEqual(
    s.agentRequests.map((t) => [t.name, t.count, t.errors]),
    [
      ['_x/unknown', 1, 1],
      ['terminal/create', 1, 1],
    ],
  );
  assert.equal(s.initialize.error, 'cannot start');
});

test('a flood of distinct names, `_meta` keys and tool calls stays within the caps; odd messages are ignored', () => {
  const w = new WireObserver();
  for (const odd of [null, 'text', 42, [], { id: 1 }, { method: 7 }, { method: 'session/update', params: 'x' }])
    w.observe('in', odd);
  for (let i = 0; i < 5000; i++) {
    w.observe('in', { jsonrpc: '2.0', method: `_flood/${i}`, params: { _meta: { [`k${i}`]: true } } });
    w.observe('in', { jsonrpc: '2.0', id: i, method: `_ask/${i}` });
    w.observe('in', update('s', { sessionUpdate: `kind${i}`, toolCallId: `t${i}` }));
    w.observe(
      'in',
      update('s', { sessionUpdate: 'tool_call', toolCallId: `t${i}`, status: 'completed', kind: `k${i}` }),
    );
  }
  const s = w.snapshot();
  assert.ok(s.notifications.length <= WIRE_LIMITS.names);
  assert.ok(s.agentRequests.length <= WIRE_LIMITS.names);
  assert.ok(s.updates.length <= WIRE_LIMITS.names);
  assert.equal(s.meta.length, WIRE_LIMITS.metaPaths);
  assert.equal(s.metaDropped, 5000 - WIRE_LIMITS.metaPaths);
  assert.ok(s.toolCalls.byKind.length <= 16);
  assert.equal(s.toolCalls.seen, 5000);
  assert.equal(s.toolCalls.ran, 5000, 'each call counted once, when it ran');
  const held = (w as unknown as { toolCalls: { calls: Map<string, unknown> } }).toolCalls.calls;
  assert.ok(held.size <= WIRE_LIMITS.calls, `${held.size} calls held`);
  const pending = (w as unknown as { pendingFromAgent: Map<string, string> }).pendingFromAgent;
  assert.ok(pending.size <= WIRE_LIMITS.pending, `${pending.size} pending ids held`);
});

test('a deeply nested or huge message is walked within a budget', () => {
  const w = new WireObserver();
  let deep: Record<string, unknown> = { _meta: { deepest: true } };
  for (let i = 0; i < 100; i++) deep = { child: deep };
  const wide = Array.from({ length: 10_000 }, (_, i) => ({ _meta: { [`wide${i}`]: 1 } }));
  w.observe('in', update('s', { sessionUpdate: 'plan', entries: wide, deep, _meta: { top: 1 } }));
  const paths = w.snapshot().meta.map((m) => m.path);
  assert.ok(paths.includes('top'));
  assert.ok(!paths.includes('deepest'), 'past the depth limit');
  assert.ok(paths.filter((p) => p.startsWith('wide')).length <= 50, 'at most 50 items of an array');
});

test('watchers hear of every observed message until disposed', () => {
  const w = new WireObserver();
  let heard = 0;
  const sub = w.watch(() => heard++);
  w.observe('in', update('s', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } }));
  w.observe('out', { jsonrpc: '2.0', id: 1, method: 'session/prompt', params: {} });
  sub.dispose();
  w.observe('in', update('s', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'y' } }));
  assert.equal(heard, 2);
});
