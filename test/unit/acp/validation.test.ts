// Validation bad-input set plus the real-agent transcripts. Each bad input: clear log, no throw,
// connection still round-trips afterwards.
import { transcriptsDir } from '../../support/paths';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryLogger } from '../../../src/common/logger';
import { AcpError } from '../../../src/acp/errors';
import { AGENT_METHODS, CLIENT_METHODS } from '../../../src/acp/methods';
import { SubagentSessions } from '../../../src/client/connection/subagentSessions';
import {
  AcpValidator,
  AGENT_RESPONSES,
  AGENT_TO_CLIENT_NOTIFICATIONS,
  AGENT_TO_CLIENT_REQUESTS,
  SESSION_UPDATE_KINDS,
  describeErrors,
} from '../../../src/acp/validation';
import { chunkUpdate, createHarness, settle, Json } from './helpers';

test('invalid request params → -32602 naming the failing path; handler not called', async () => {
  const h = createHarness();
  let called = 0;
  h.conn.onRequest(CLIENT_METHODS.fs_write_text_file, () => {
    called++;
    return {};
  });
  h.conn.listen();
  h.send({ jsonrpc: '2.0', id: 7, method: 'fs/read_text_file', params: { sessionId: 's1', path: 42 } });
  const reply = await h.nextWritten((m) => m.id === 7);
  assert.deepEqual(reply.error, {
    code: -32602,
    message: 'Invalid params for fs/read_text_file: /path must be string',
  });
  h.send({ jsonrpc: '2.0', id: 8, method: 'fs/write_text_file', params: { sessionId: 's1', path: '/a' } });
  const reply2 = await h.nextWritten((m) => m.id === 8);
  assert.equal((reply2.error as Json).code, -32602);
  assert.match(
    (reply2.error as Json).message as string,
    /^Invalid params for fs\/write_text_file: \/ must have required property 'content'$/,
  );
  h.send({
    jsonrpc: '2.0',
    id: 9,
    method: 'session/request_permission',
    params: {
      sessionId: 's1',
      toolCall: { toolCallId: 't' },
      options: [{ optionId: 'a', name: 'A', kind: 'allow_sometimes' }],
    },
  });
  const reply3 = await h.nextWritten((m) => m.id === 9);
  assert.match(
    (reply3.error as Json).message as string,
    /^Invalid params for session\/request_permission: \/options\/0\/kind /,
  );
  assert.equal(called, 0);
  assert.equal(h.errors().length, 3);
  assert.match(h.errors()[0], /Rejected request fs\/read_text_file \(id 7\).*\/path must be string/);
  await h.assertAlive();
});

test('invalid session/update of a known kind is logged and dropped', async () => {
  const h = createHarness();
  const got: unknown[] = [];
  h.conn.onNotification(CLIENT_METHODS.session_update, (p) => got.push(p));
  h.conn.listen();
  h.send({
    jsonrpc: '2.0',
    method: 'session/update',
    params: { sessionId: 's1', update: { sessionUpdate: 'tool_call_update', status: 'done' } },
  });
  h.send({
    jsonrpc: '2.0',
    method: 'session/update',
    params: { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text' } } },
  });
  h.send({ jsonrpc: '2.0', method: 'session/update', params: { update: { sessionUpdate: 'plan', entries: [] } } });
  h.send(chunkUpdate('valid'));
  await settle();
  assert.equal(got.length, 1);
  const errs = h.errors();
  assert.equal(errs.length, 3, JSON.stringify(errs));
  assert.match(errs[0], /Dropped invalid session\/update \(tool_call_update\): \/update /);
  assert.match(errs[1], /Dropped invalid session\/update \(agent_message_chunk\): \/update\/content/);
  assert.match(errs[2], /Dropped invalid session\/update \(plan\): \/ must have required property 'sessionId'/);
  await h.assertAlive();
});

test('unknown sessionUpdate kind: warned once per kind, ignored', async () => {
  const h = createHarness();
  const got: unknown[] = [];
  h.conn.onNotification(CLIENT_METHODS.session_update, (p) => got.push(p));
  h.conn.listen();
  for (let i = 0; i < 3; i++)
    h.send({
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 's1', update: { sessionUpdate: 'state_update', whatever: i } },
    });
  h.send({
    jsonrpc: '2.0',
    method: 'session/update',
    params: { sessionId: 's1', update: { sessionUpdate: '_vendor_thing' } },
  });
  await settle();
  assert.equal(got.length, 0);
  const warns = h.logger.messages('warn');
  assert.equal(warns.length, 2);
  assert.match(warns[0], /unknown kind "state_update"/);
  assert.match(warns[1], /unknown kind "_vendor_thing"/);
  assert.deepEqual(h.errors(), []);
  await h.assertAlive();
});

test('other notifications are validated: elicitation/complete, $/cancel_request', async () => {
  const h = createHarness();
  const got: unknown[] = [];
  h.conn.onNotification(CLIENT_METHODS.elicitation_complete, (p) => got.push(p));
  h.conn.listen();
  h.send({ jsonrpc: '2.0', method: 'elicitation/complete', params: {} });
  h.send({ jsonrpc: '2.0', method: 'elicitation/complete', params: { elicitationId: 'e1' } });
  h.send({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: {} } });
  await settle();
  assert.deepEqual(got, [{ elicitationId: 'e1' }]);
  const errs = h.errors();
  assert.equal(errs.length, 2, JSON.stringify(errs));
  assert.match(
    errs[0],
    /Dropped invalid elicitation\/complete notification: \/ must have required property 'elicitationId'/,
  );
  assert.match(errs[1], /Dropped invalid \$\/cancel_request notification: \/requestId/);
  await h.assertAlive();
});

test('invalid response is rejected clearly (method and path), connection survives', async () => {
  const h = createHarness();
  h.conn.listen();
  const p = h.conn.sendRequest(AGENT_METHODS.session_new, { cwd: '/w', mcpServers: [] });
  const req = await h.nextWritten((m) => m.method === 'session/new');
  h.send({ jsonrpc: '2.0', id: req.id, result: { sessionId: 17 } });
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof AcpError);
    assert.equal(e.message, 'Invalid response to session/new: /sessionId must be string');
    assert.equal(e.code, -32603);
    assert.deepEqual(e.data, {
      invalidResponse: true,
      method: 'session/new',
      path: '/sessionId',
      result: { sessionId: 17 },
    });
    return true;
  });
  assert.match(h.errors()[0], /Invalid response to session\/new: \/sessionId must be string/);
  // a response with neither result nor error
  const p2 = h.conn.sendRequest(AGENT_METHODS.session_prompt, { sessionId: 's1', prompt: [] });
  const req2 = await h.nextWritten((m) => m.method === 'session/prompt');
  h.send({ jsonrpc: '2.0', id: req2.id });
  await assert.rejects(p2, /Invalid response to session\/prompt: the response has neither a result nor an error/);
  await h.assertAlive();
});

test('a valid response resolves; an error response keeps its code (-32000 auth required)', async () => {
  const h = createHarness();
  h.conn.listen();
  const p = h.conn.sendRequest(AGENT_METHODS.session_new, { cwd: '/w', mcpServers: [] });
  const req = await h.nextWritten((m) => m.method === 'session/new');
  assert.equal(req.id, 0, 'our first request id is 0');
  h.send({ jsonrpc: '2.0', id: 0, result: { sessionId: 'abc', models: { whatever: true }, _meta: { x: 1 } } });
  assert.equal((await p).sessionId, 'abc');
  const p2 = h.conn.sendRequest(AGENT_METHODS.session_new, { cwd: '/w', mcpServers: [] });
  const req2 = await h.nextWritten((m) => m.method === 'session/new' && m.id !== 0);
  h.send({
    jsonrpc: '2.0',
    id: req2.id,
    error: { code: -32000, message: 'Authentication required', data: { methods: ['x'] } },
  });
  await assert.rejects(
    p2,
    (e: unknown) =>
      e instanceof AcpError &&
      e.code === -32000 &&
      e.message === 'Authentication required' &&
      (e.data as Json).methods !== undefined,
  );
  assert.deepEqual(h.errors(), []);
});

test('a response to an unknown id is logged and ignored', async () => {
  const h = createHarness();
  h.conn.listen();
  h.send({ jsonrpc: '2.0', id: 99, result: {} });
  h.send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
  await settle();
  const errs = h.errors();
  assert.equal(errs.length, 2, JSON.stringify(errs));
  assert.match(errs[0], /response for unknown request id 99/);
  assert.match(errs[1], /response without a usable id: error -32700 Parse error/);
  await h.assertAlive();
});

test('a JSON-RPC batch (array) is reported, answered -32600 with id null, not fatal', async () => {
  const h = createHarness();
  h.conn.listen();
  h.sendRaw(JSON.stringify([chunkUpdate('a'), chunkUpdate('b')]) + '\n');
  const reply = await h.nextWritten((m) => m.id === null);
  assert.equal((reply.error as Json).code, -32600);
  assert.match(h.errors()[0], /JSON-RPC batch of 2 message\(s\).*ACP does not use batches/);
  await h.assertAlive();
});

test('a message that is neither request, response nor notification is logged', async () => {
  const h = createHarness();
  h.conn.listen();
  h.send({ jsonrpc: '2.0', hello: 'world' });
  await settle();
  assert.match(h.errors()[0], /neither a request, a response nor a notification/);
  await h.assertAlive();
});

test('describeErrors: path first, "/" for the root', () => {
  assert.equal(describeErrors([{ instancePath: '/a/0', message: 'must be string' }]), '/a/0 must be string');
  assert.equal(
    describeErrors([{ instancePath: '', message: "must have required property 'x'" }]),
    "/ must have required property 'x'",
  );
  assert.equal(describeErrors(undefined), 'invalid');
});

test('validator tables cover every ACP v1 method', () => {
  assert.deepEqual([...AGENT_TO_CLIENT_REQUESTS.keys()].sort(), [
    'elicitation/create',
    'fs/read_text_file',
    'fs/write_text_file',
    'session/request_permission',
    'terminal/create',
    'terminal/kill',
    'terminal/output',
    'terminal/release',
    'terminal/wait_for_exit',
  ]);
  assert.deepEqual([...AGENT_TO_CLIENT_NOTIFICATIONS.keys()].sort(), [
    '$/cancel_request',
    'elicitation/complete',
    'session/update',
  ]);
  assert.deepEqual(
    [...AGENT_RESPONSES.keys()].sort(),
    Object.values(AGENT_METHODS)
      .filter((t) => 'numberOfParams' in t && t.method !== 'session/cancel')
      .map((t) => t.method)
      .sort(),
  );
  assert.deepEqual([...SESSION_UPDATE_KINDS].sort(), [
    'agent_message_chunk',
    'agent_thought_chunk',
    'available_commands_update',
    'compaction_summary_chunk',
    'compaction_update',
    'config_option_update',
    'current_mode_update',
    'notice',
    'plan',
    'session_info_update',
    'tool_call',
    'tool_call_update',
    'usage_update',
    'user_message_chunk',
  ]);
});

// ---- real traffic -------------------------------------------------------------------------

test('every agent → client message of the recorded real-agent transcripts validates', () => {
  const dir = transcriptsDir;
  const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  assert.ok(files.length >= 6, `transcripts found in ${dir}: ${files.length}`);
  let checked = 0;
  for (const f of files) {
    const logger = new MemoryLogger();
    const replies: unknown[] = [];
    const v = new AcpValidator(logger, (m) => replies.push(m));
    // As the transport reads them: a subagent's child session in its root session's terms first.
    const subagents = new SubagentSessions(logger);
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const rec = JSON.parse(line) as { dir: string; msg: Json };
      if (rec.dir === 'c->a') {
        v.noteOutgoing(rec.msg as never);
        continue;
      }
      for (const msg of subagents.translate(rec.msg)) {
        const out = v.inspectIncoming(msg) as Json | undefined;
        assert.ok(out, `${f}: dropped ${line.slice(0, 200)}\n${JSON.stringify(logger.records)}`);
        assert.ok(
          !(out.error && (out.error as Json).data && ((out.error as Json).data as Json).invalidResponse),
          `${f}: ${JSON.stringify(out.error)}`,
        );
        checked++;
      }
    }
    assert.deepEqual(logger.messages('error'), [], f);
    assert.deepEqual(logger.messages('warn'), [], f);
    assert.deepEqual(replies, [], f);
  }
  assert.ok(checked > 100, `checked ${checked}`);
});
