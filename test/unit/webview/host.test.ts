// The webview's side of requests: each gets a fresh seq, resolves with the reply of that seq,
// rejects on an error reply or when no reply comes in time; replies nobody waits for are ignored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHost } from '../../../src/webview/host';

function fakeApi() {
  const sent: Record<string, unknown>[] = [];
  let saved: unknown;
  return {
    sent,
    api: {
      postMessage: (m: unknown) => sent.push(m as Record<string, unknown>),
      getState: () => saved,
      setState: (s: unknown) => {
        saved = s;
      },
    },
  };
}

test('a request resolves with the result of the reply that carries its seq', async () => {
  const { api, sent } = fakeApi();
  const host = createHost(api);
  const a = host.request('searchFiles', { query: 'ma' });
  const b = host.request('attachSelection', {});
  assert.deepEqual(sent, [
    { type: 'request', seq: 1, method: 'searchFiles', params: { query: 'ma' } },
    { type: 'request', seq: 2, method: 'attachSelection', params: {} },
  ]);
  host.settle({ type: 'reply', seq: 2, result: {} });
  host.settle({ type: 'reply', seq: 1, result: [{ path: '/ws/main.ts', label: 'main.ts', description: '' }] });
  assert.deepEqual(await a, [{ path: '/ws/main.ts', label: 'main.ts', description: '' }]);
  assert.deepEqual(await b, {});
  // A second reply for a settled seq, or one for a seq never sent, changes nothing.
  host.settle({ type: 'reply', seq: 1, error: 'late' });
  host.settle({ type: 'reply', seq: 99, result: 1 });
});

test('an error reply rejects the request with the message the host sent', async () => {
  const { api } = fakeApi();
  const host = createHost(api);
  const p = host.request('loadTurns', { sessionId: 's', turns: [0] });
  host.settle({ type: 'reply', seq: 1, error: 'the session is gone' });
  await assert.rejects(p, /the session is gone/);
});

test('a request with no reply rejects after the timeout; a reply after that is ignored', async () => {
  const { api } = fakeApi();
  const host = createHost(api, 20);
  const p = host.request('searchFiles', { query: '' });
  await assert.rejects(p, /did not answer searchFiles/);
  host.settle({ type: 'reply', seq: 1, result: [] });
});

test('intents go out as they are; the view state merges keys', () => {
  const { api, sent } = fakeApi();
  const host = createHost(api);
  host.post({ type: 'cancel' });
  assert.deepEqual(sent, [{ type: 'cancel' }]);
  host.state.merge({ a: 1 });
  host.state.merge({ b: 2 });
  assert.deepEqual(host.state.get(), { a: 1, b: 2 });
});
