import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateSessionNotification } from '../../../../src/acp/validation';
import { SubagentSessions } from '../../../../src/client/connection/subagentSessions';
import { MemoryLogger } from '../../../../src/common/logger';
import type { ItemView } from '../../../../src/shared/sessionModel';
import { SessionStore } from '../../../../src/session/store';
import { transcriptsDir } from '../../../support/paths';

type Msg = { jsonrpc: '2.0'; id?: number; method?: string; params?: Record<string, unknown> };

const note = (sessionId: string, update: Record<string, unknown>): Msg => ({
  jsonrpc: '2.0',
  method: 'session/update',
  params: { sessionId, update },
});

const text = (i: ItemView) => ('blocks' in i ? i.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('') : '');

/** Translates each message and feeds the session/updates to `store`, checking they are valid ACP v1. */
function feed(subs: SubagentSessions, store: SessionStore, messages: readonly unknown[]): Msg[] {
  const out: Msg[] = [];
  for (const m of messages)
    for (const t of subs.translate(m) as Msg[]) {
      out.push(t);
      if (t.method !== 'session/update') continue;
      assert.ok(validateSessionNotification(t.params), `valid ACP v1: ${JSON.stringify(t)}`);
      assert.equal(t.params!.sessionId, store.sessionId, 'every update lands in the root session');
      store.dispatch({ type: 'update', update: t.params!.update as never, at: 1 });
    }
  return out;
}

test("codex-acp 2.6.0's child thread (recorded) shows as an Agent row holding its command, output and answer", () => {
  const lines = readFileSync(join(transcriptsDir, 'codex-acp-2.6.0-subagent.jsonl'), 'utf8').trim().split('\n');
  const incoming = lines
    .map((l) => JSON.parse(l) as { dir: string; msg: Msg })
    .filter((l) => l.dir === 'a->c' && l.msg.method === 'session/update')
    .map((l) => l.msg);
  const root = String(incoming[0].params!.sessionId);
  const child = `${root}:subagent:01a21642-75b8-7381-822b-f9ee97ee7af9`;
  const store = new SessionStore(root);
  store.dispatch({ type: 'promptStarted', at: 0, prompt: [{ type: 'text', text: 'Spawn a subagent' }] });
  feed(new SubagentSessions(new MemoryLogger()), store, incoming);
  const snap = store.snapshot();

  const row = snap.toolCalls[`subagent:${child}`];
  assert.ok(row, JSON.stringify(Object.keys(snap.toolCalls)));
  assert.equal(row.name, 'Agent');
  assert.equal(row.title, 'CHILD-TASK: print three lines');
  assert.equal(row.status, 'completed', 'idle with end_turn');
  assert.equal(row.parentId, undefined, 'a child of the root session is a row of the turn');

  const command = snap.toolCalls[`${child}/call_3`];
  assert.equal(command?.parentId, row.toolCallId, "the child's command is under its row");
  assert.equal(command.status, 'completed');
  const terminal = snap.terminals[command.agentTerminalId!];
  assert.equal(terminal?.output, 'child-2\nchild-3\n', 'its streamed output, in a terminal of its own id');
  assert.equal(terminal.exitCode, 0);

  const items = snap.turns[0].items;
  const answer = items.find((i) => i.kind === 'subagent' && text(i) === 'Child finished.');
  assert.ok(answer && answer.kind === 'subagent' && answer.parentId === row.toolCallId && answer.role === 'agent');
  assert.deepEqual(
    items.filter((i) => i.kind === 'agent').map(text),
    ['Root done.'],
    "only the root's answer is in the conversation",
  );
  assert.equal(snap.toolCalls.call_2?.title, 'wait');
  assert.equal(snap.toolCalls.call_2.parentId, undefined);
  assert.deepEqual(snap.meta.configOptions, [], "the child's model options do not become the session's");
});

test("a parent's prompt to its child shows once under the child's row; the child's reply is not repeated", () => {
  const subs = new SubagentSessions(new MemoryLogger());
  const store = new SessionStore('root');
  store.dispatch({ type: 'promptStarted', at: 0, prompt: [{ type: 'text', text: 'go' }] });
  const message = { sessionUpdate: 'session_message', messageId: 'toolu_1', senderSessionId: 'root' };
  const out = feed(subs, store, [
    note('root', { sessionUpdate: 'subagent_update', sessionId: 'kid', title: 'Find alpha', description: 'Explore' }),
    note('root', { ...message, recipientSessionId: 'kid', content: [{ type: 'text', text: 'Find the alpha file' }] }),
    note('kid', { ...message, recipientSessionId: 'kid', content: [{ type: 'text', text: 'Find the alpha file' }] }),
    note('kid', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'alpha it is' } }),
    note('root', {
      sessionUpdate: 'session_message',
      messageId: 'toolu_1:reply',
      senderSessionId: 'kid',
      recipientSessionId: 'root',
      content: [{ type: 'text', text: 'alpha it is' }],
    }),
    note('kid', { sessionUpdate: 'usage_update', used: 5, size: 10 }),
    // A later message to the child (a SendMessage): in the child's view only.
    note('kid', {
      sessionUpdate: 'session_message',
      messageId: 'toolu_2',
      recipientSessionId: 'kid',
      content: [{ type: 'text', text: 'Now beta' }],
    }),
  ]);
  assert.equal(out.length, 4, 'the row, the prompt, the answer, the second prompt');
  const snap = store.snapshot();
  const row = snap.toolCalls['subagent:kid'];
  assert.equal(row.title, 'Find alpha');
  assert.deepEqual(row.rawInput, { description: 'Find alpha', subagent_type: 'Explore' });
  assert.deepEqual(
    snap.turns[0].items.filter((i) => i.kind === 'subagent').map((i) => [i.kind === 'subagent' && i.role, text(i)]),
    [
      ['user', 'Find the alpha file'],
      ['agent', 'alpha it is'],
      ['user', 'Now beta'],
    ],
  );
  assert.equal(snap.meta.usage, undefined, "the child's context use is not the session's");
});

test("a child's permission request is the root session's, about the child's call under its row", () => {
  const subs = new SubagentSessions(new MemoryLogger());
  subs.translate(note('root', { sessionUpdate: 'subagent_update', sessionId: 'kid' }));
  const request = {
    jsonrpc: '2.0',
    id: 7,
    method: 'session/request_permission',
    params: {
      sessionId: 'kid',
      toolCall: { toolCallId: 'call_9', title: 'rm -rf build', _meta: { claudeCode: { toolName: 'Bash' } } },
      options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }],
    },
  };
  const [out] = subs.translate(request) as Msg[];
  assert.equal(out.id, 7);
  assert.equal(out.params!.sessionId, 'root');
  assert.deepEqual(out.params!.toolCall, {
    toolCallId: 'kid/call_9',
    title: 'rm -rf build',
    _meta: { claudeCode: { toolName: 'Bash', parentToolUseId: 'subagent:kid' } },
  });
  assert.deepEqual(out.params!.options, request.params.options);
  const read = { jsonrpc: '2.0', id: 8, method: 'fs/read_text_file', params: { sessionId: 'kid', path: '/w/a' } };
  assert.deepEqual(subs.translate(read), [{ ...read, params: { sessionId: 'root', path: '/w/a' } }]);
});

test("a child's own child nests under its row; updates patch the row and an error fails it", () => {
  const subs = new SubagentSessions(new MemoryLogger());
  const store = new SessionStore('root');
  store.dispatch({ type: 'promptStarted', at: 0, prompt: [{ type: 'text', text: 'go' }] });
  feed(subs, store, [
    note('root', { sessionUpdate: 'subagent_update', sessionId: 'kid', title: 'Plan', state: { state: 'running' } }),
    note('kid', { sessionUpdate: 'subagent_update', sessionId: 'grandkid', title: 'Dig' }),
    note('grandkid', { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'ls', kind: 'execute' }),
    note('grandkid', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'dug' } }),
    note('kid', {
      sessionUpdate: 'session_message',
      messageId: 'reply-1',
      senderSessionId: 'grandkid',
      recipientSessionId: 'kid',
      content: [{ type: 'text', text: 'dug' }],
    }),
    note('root', { sessionUpdate: 'subagent_update', sessionId: 'kid', title: null, description: 'Planner' }),
    note('root', {
      sessionUpdate: 'subagent_update',
      sessionId: 'kid',
      state: { state: 'idle', stopReason: 'error', error: { code: -32603, message: 'x'.repeat(5000) } },
      capabilities: { cancel: {} },
    }),
  ]);
  const snap = store.snapshot();
  assert.equal(snap.toolCalls['subagent:grandkid'].parentId, 'subagent:kid');
  assert.equal(snap.toolCalls['grandkid/c1'].parentId, 'subagent:grandkid');
  const kid = snap.toolCalls['subagent:kid'];
  assert.equal(kid.title, 'Planner', 'a null title is cleared: the description names it');
  assert.equal(kid.status, 'failed');
  // The error's text is not kept on the row (the child's own messages say what went wrong).
  assert.deepEqual(kid.meta?.tandem, {
    subagent: { sessionId: 'kid', cancel: true, state: { state: 'idle', stopReason: 'error' }, stoppable: false },
  });
  assert.equal(kid.interrupted, undefined, 'an error is a failure, not a stop');
  assert.equal(subs.child('grandkid')?.root, 'root');
  assert.deepEqual(
    snap.turns[0].items.filter((i) => i.kind === 'subagent').map((i) => i.kind === 'subagent' && [i.parentId, text(i)]),
    [['subagent:grandkid', 'dug']],
    "the grandchild's reply to its parent shows once, as its own message",
  );
});

test('messages of sessions no agent announced as children pass unchanged', () => {
  const subs = new SubagentSessions(new MemoryLogger());
  const update = note('s1', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } });
  const response = { jsonrpc: '2.0', id: 3, result: { sessionId: 'kid' } };
  for (const m of [update, response, 'garbage', null])
    assert.equal((subs.translate(m) as unknown[])[0], m, JSON.stringify(m));
  assert.deepEqual(subs.translate(note('s1', { sessionUpdate: 'subagent_update' })), [], 'no child id: dropped');
  subs.translate(note('s1', { sessionUpdate: 'subagent_update', sessionId: 'kid' }));
  subs.forget('s1');
  assert.equal(subs.child('kid'), undefined, 'a closed session forgets its children');
});

test('a child whose work was stopped shows as interrupted, not done', () => {
  const subs = new SubagentSessions(new MemoryLogger());
  const store = new SessionStore('root');
  store.dispatch({ type: 'promptStarted', at: 0, prompt: [{ type: 'text', text: 'go' }] });
  const state = (s: object) => note('root', { sessionUpdate: 'subagent_update', sessionId: 'kid', state: s });
  feed(subs, store, [state({ state: 'running' })]);
  assert.equal(store.snapshot().toolCalls['subagent:kid'].interrupted, undefined);
  feed(subs, store, [state({ state: 'idle', stopReason: 'cancelled' })]);
  const row = store.snapshot().toolCalls['subagent:kid'];
  assert.equal(row.status, 'completed');
  assert.equal(row.interrupted, true);
});

test('a message the translation cannot read goes on unchanged (validation judges it) and the failure is logged', () => {
  const logger = new MemoryLogger();
  const subs = new SubagentSessions(logger);
  const unreadable = {
    jsonrpc: '2.0',
    method: 'session/update',
    get params(): unknown {
      throw new Error('no params here');
    },
  };
  const out = subs.translate(unreadable);
  assert.equal(out.length, 1);
  assert.equal(out[0], unreadable);
  assert.deepEqual(
    logger.records.filter((r) => r.level === 'error').map((r) => r.message),
    ["Could not read a subagent's message: no params here"],
  );
});
