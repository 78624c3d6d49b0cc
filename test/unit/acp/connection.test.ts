// AcpConnection behaviour: dispatch, ids, errors, cancellation, ordering, close.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResponseError } from 'vscode-jsonrpc';
import { AcpError } from '../../../src/acp/errors';
import { AGENT_METHODS, CLIENT_METHODS, PROTOCOL_METHODS } from '../../../src/acp/methods';
import { chunkUpdate, createHarness, settle, Json } from './helpers';

test('unknown request method → -32601, connection survives', async () => {
  const h = createHarness();
  h.conn.listen();
  h.send({ jsonrpc: '2.0', id: 3, method: '_vendor/do_thing', params: {} });
  h.send({ jsonrpc: '2.0', id: 4, method: 'terminal/create', params: { sessionId: 's1', command: 'ls' } }); // known, but no handler registered
  const r3 = await h.nextWritten((m) => m.id === 3);
  const r4 = await h.nextWritten((m) => m.id === 4);
  assert.equal((r3.error as Json).code, -32601);
  assert.match((r3.error as Json).message as string, /_vendor\/do_thing/);
  assert.equal((r4.error as Json).code, -32601);
  await h.assertAlive();
});

test('request id 0 from the agent is answered with id 0', async () => {
  const h = createHarness();
  h.conn.onRequest(CLIENT_METHODS.fs_read_text_file, () => ({ content: 'zero' }));
  h.conn.listen();
  h.send({ jsonrpc: '2.0', id: 0, method: 'fs/read_text_file', params: { sessionId: 's1', path: '/z' } });
  const r = await h.nextWritten((m) => m.id === 0);
  assert.deepEqual(r, { jsonrpc: '2.0', id: 0, result: { content: 'zero' } });
});

test('handler exceptions become JSON-RPC errors: -32603 with the message, or the AcpError code', async () => {
  const h = createHarness();
  h.conn.onRequest(CLIENT_METHODS.fs_read_text_file, (p) => {
    if (p.path === '/missing') throw new AcpError('Resource not found: /missing', -32002, { uri: 'file:///missing' });
    if (p.path === '/rpc') throw new ResponseError(-32800, 'cancelled');
    throw new Error('disk on fire');
  });
  h.conn.onRequest(CLIENT_METHODS.fs_write_text_file, async () => {
    await settle(1);
    throw 'a string';
  });
  h.conn.listen();
  h.send({ jsonrpc: '2.0', id: 1, method: 'fs/read_text_file', params: { sessionId: 's1', path: '/x' } });
  h.send({ jsonrpc: '2.0', id: 2, method: 'fs/read_text_file', params: { sessionId: 's1', path: '/missing' } });
  h.send({ jsonrpc: '2.0', id: 3, method: 'fs/read_text_file', params: { sessionId: 's1', path: '/rpc' } });
  h.send({ jsonrpc: '2.0', id: 4, method: 'fs/write_text_file', params: { sessionId: 's1', path: '/w', content: '' } });
  assert.deepEqual((await h.nextWritten((m) => m.id === 1)).error, { code: -32603, message: 'disk on fire' });
  assert.deepEqual((await h.nextWritten((m) => m.id === 2)).error, {
    code: -32002,
    message: 'Resource not found: /missing',
    data: { uri: 'file:///missing' },
  });
  assert.deepEqual((await h.nextWritten((m) => m.id === 3)).error, { code: -32800, message: 'cancelled' });
  assert.deepEqual((await h.nextWritten((m) => m.id === 4)).error, { code: -32603, message: 'a string' });
  assert.ok(h.errors().some((e) => /Handler for fs\/read_text_file failed: disk on fire/.test(e)));
});

test('notification handler exceptions are logged, never fatal; unknown notifications logged once', async () => {
  const h = createHarness();
  h.conn.onNotification(CLIENT_METHODS.session_update, () => {
    throw new Error('boom');
  });
  h.conn.listen();
  h.send(chunkUpdate('x'));
  h.send({ jsonrpc: '2.0', method: '_auth/status_update', params: { a: 1 } });
  h.send({ jsonrpc: '2.0', method: '_auth/status_update', params: { a: 2 } });
  await settle();
  assert.match(h.errors()[0], /Handler for session\/update failed: boom/);
  const infos = h.logger.messages('info').filter((m) => m.includes('_auth/status_update'));
  assert.equal(infos.length, 1);
  await h.assertAlive();
});

test('$/cancel_request cancels the running handler token', async () => {
  const h = createHarness();
  let sawCancel = false;
  const cancelled: unknown[] = [];
  h.conn.onNotification(PROTOCOL_METHODS.cancel_request, (p) => cancelled.push(p));
  h.conn.onRequest(
    CLIENT_METHODS.session_request_permission,
    (_p, token) =>
      new Promise((resolve) => {
        token.onCancellationRequested(() => {
          sawCancel = true;
          resolve({ outcome: { outcome: 'cancelled' } });
        });
      }),
  );
  h.conn.listen();
  h.send({
    jsonrpc: '2.0',
    id: 0,
    method: 'session/request_permission',
    params: { sessionId: 's1', toolCall: { toolCallId: 't1' }, options: [] },
  });
  await settle();
  h.send({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 0 } });
  const r = await h.nextWritten((m) => m.id === 0);
  assert.ok(sawCancel);
  assert.deepEqual(r.result, { outcome: { outcome: 'cancelled' } });
  assert.deepEqual(cancelled, [{ requestId: 0 }]);
});

test('ordering: the continuation after a response runs before the notification that followed it', async () => {
  const h = createHarness();
  const events: string[] = [];
  h.conn.onNotification(CLIENT_METHODS.session_update, (p) =>
    events.push(`update:${((p.update as unknown as Json).content as Json).text}`),
  );
  h.conn.listen();
  h.send(chunkUpdate('before'));
  const p = h.conn.sendRequest(AGENT_METHODS.session_new, { cwd: '/w', mcpServers: [] }).then((r) => {
    events.push(`resolved:${r.sessionId}`);
  });
  const req = await h.nextWritten((m) => m.method === 'session/new');
  // response + notifications + an agent request + notification, all in one chunk
  h.conn.onRequest(CLIENT_METHODS.fs_read_text_file, () => {
    events.push('request');
    return { content: '' };
  });
  h.sendRaw(
    [
      { jsonrpc: '2.0', id: req.id, result: { sessionId: 'S' } },
      chunkUpdate('after1'),
      chunkUpdate('after2'),
      { jsonrpc: '2.0', id: 50, method: 'fs/read_text_file', params: { sessionId: 'S', path: '/a' } },
      chunkUpdate('after3'),
    ]
      .map((m) => JSON.stringify(m))
      .join('\n') + '\n',
  );
  await p;
  await h.nextWritten((m) => m.id === 50);
  await settle();
  assert.deepEqual(events, [
    'update:before',
    'resolved:S',
    'update:after1',
    'update:after2',
    'request',
    'update:after3',
  ]);
});

test('close() fails every pending request with the reason at once and stops', async () => {
  const h = createHarness();
  h.conn.listen();
  const reasons: string[] = [];
  h.conn.onDidClose((r) => reasons.push(r));
  const a = h.conn.sendRequest(AGENT_METHODS.session_prompt, { sessionId: 's1', prompt: [] });
  const b = h.conn.sendRequest(AGENT_METHODS.initialize, { protocolVersion: 1 });
  await settle();
  h.conn.close('agent exited with code 3');
  await assert.rejects(a, (e: unknown) => e instanceof AcpError && e.message === 'agent exited with code 3');
  await assert.rejects(b, (e: unknown) => e instanceof AcpError && e.message === 'agent exited with code 3');
  assert.ok(h.conn.isClosed);
  assert.deepEqual(reasons, ['agent exited with code 3']);
  await assert.rejects(h.conn.sendRequest(AGENT_METHODS.logout, {}), /connection is closed/);
  h.conn.close('again');
  h.conn.dispose();
  assert.deepEqual(reasons, ['agent exited with code 3']);
  // late input after close is ignored without throwing
  h.send(chunkUpdate('late'));
  await settle();
});

test('the agent closing its output closes the connection and fails pending requests', async () => {
  const h = createHarness();
  h.conn.listen();
  const a = h.conn.sendRequest(AGENT_METHODS.session_prompt, { sessionId: 's1', prompt: [] });
  await settle();
  h.input.end();
  await assert.rejects(a, /closed its output/);
  assert.ok(h.conn.isClosed);
});

test('traffic hook sees every message in both directions', async () => {
  const seen: Array<[string, unknown]> = [];
  const h = createHarness({ traffic: (d, m) => seen.push([d, m]) });
  h.conn.onRequest(CLIENT_METHODS.fs_read_text_file, () => ({ content: 'c' }));
  h.conn.listen();
  h.send({ jsonrpc: '2.0', id: 5, method: 'fs/read_text_file', params: { sessionId: 's1', path: '/t' } });
  h.send({ jsonrpc: '2.0', id: 6, method: 'fs/read_text_file', params: { sessionId: 's1' } }); // invalid: still traced both ways
  await h.nextWritten((m) => m.id === 6);
  await h.nextWritten((m) => m.id === 5);
  assert.deepEqual(seen.map(([d, m]) => `${d}:${(m as Json).id}`).sort(), ['in:5', 'in:6', 'out:5', 'out:6']);
});

test('many concurrent requests in both directions keep their ids straight', async () => {
  const h = createHarness();
  h.conn.onRequest(CLIENT_METHODS.fs_read_text_file, async (p) => {
    await settle(1);
    return { content: p.path };
  });
  h.conn.listen();
  const ours = Array.from({ length: 20 }, (_, i) =>
    h.conn.sendRequest(AGENT_METHODS.session_new, { cwd: `/w${i}`, mcpServers: [] }),
  );
  for (let i = 0; i < 20; i++)
    h.send({ jsonrpc: '2.0', id: i, method: 'fs/read_text_file', params: { sessionId: 's', path: `/p${i}` } });
  await settle();
  const reqs = h.written.filter((m) => m.method === 'session/new');
  assert.equal(reqs.length, 20);
  for (const r of reqs.reverse())
    h.send({ jsonrpc: '2.0', id: r.id, result: { sessionId: `S-${(r.params as Json).cwd}` } });
  const res = await Promise.all(ours);
  assert.deepEqual(
    res.map((r) => r.sessionId),
    Array.from({ length: 20 }, (_, i) => `S-/w${i}`),
  );
  for (let i = 0; i < 20; i++)
    assert.deepEqual((await h.nextWritten((m) => m.id === i && !m.method)).result, { content: `/p${i}` });
  assert.deepEqual(h.errors(), []);
});
