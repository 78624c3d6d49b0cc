// The webview → host intents and requests added for the session view: every one validated by
// parseFromWebview.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_ATTACHMENTS, parseFromWebview, requestSeq } from '../../../src/shared/parseFromWebview';
import { MAX_LOAD_TURNS } from '../../../src/shared/turnOutline';

const request = (seq: unknown, method: unknown, params: unknown) => ({ type: 'request', seq, method, params });

test('parseFromWebview accepts the session view intents and requests', () => {
  const ok: unknown[] = [
    { type: 'prompt', text: 'look at @a.ts', attachments: [{ kind: 'file', path: '/ws/a.ts' }] },
    { type: 'prompt', text: '', attachments: [{ kind: 'selection', path: '/ws/a.ts', startLine: 2, endLine: 5 }] },
    { type: 'prompt', text: 'img', attachments: [{ kind: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' }] },
    { type: 'openDiff', toolCallId: 'c1', index: 0 },
    { type: 'openDiff', toolCallId: 'c1', index: 0, requestId: 'perm-1' },
    request(3, 'searchFiles', { query: 'src/ma' }),
    request(4, 'attachSelection', {}),
    { type: 'setMode', modeId: 'plan' },
    { type: 'setConfigOption', configId: 'model', value: 'fast' },
    { type: 'setConfigOption', configId: 'thinking', value: true },
    { type: 'copyText', text: 'code' },
    { type: 'openExternal', url: 'https://example.com/x' },
  ];
  for (const m of ok) assert.deepEqual(parseFromWebview(m), m, JSON.stringify(m));
});

test('parseFromWebview rejects malformed session view intents and requests', () => {
  const bad: unknown[] = [
    { type: 'prompt', text: '', attachments: [] },
    { type: 'prompt', text: 'x', attachments: 'no' },
    { type: 'prompt', text: 'x', attachments: [{ kind: 'file' }] },
    { type: 'prompt', text: 'x', attachments: [{ kind: 'file', path: '/a', text: 'smuggled' }] },
    { type: 'prompt', text: 'x', attachments: [{ kind: 'selection', path: '/a', startLine: 5, endLine: 2 }] },
    { type: 'prompt', text: 'x', attachments: [{ kind: 'selection', path: '/a', startLine: 0, endLine: 2 }] },
    { type: 'prompt', text: 'x', attachments: [{ kind: 'image', mimeType: 'image/svg+xml', data: 'AAAA' }] },
    { type: 'prompt', text: 'x', attachments: [{ kind: 'image', mimeType: 'image/png', data: 'not base64!' }] },
    { type: 'prompt', text: 'x', attachments: [{ kind: 'exec', cmd: 'rm' }] },
    {
      type: 'prompt',
      text: 'x',
      attachments: Array.from({ length: MAX_ATTACHMENTS + 1 }, () => ({ kind: 'file', path: '/a' })),
    },
    { type: 'openDiff', toolCallId: '', index: 0 },
    { type: 'openDiff', toolCallId: 'c', index: -1 },
    { type: 'openDiff', toolCallId: 'c', index: 1.5 },
    { type: 'openDiff', toolCallId: 'c', index: 0, requestId: 7 },
    request('x', 'searchFiles', { query: 'a' }),
    request(1, 'searchFiles', { query: 'a'.repeat(600) }),
    request(1, 'attachSelection', { path: '/etc/passwd' }),
    { type: 'setMode', modeId: '' },
    { type: 'setConfigOption', configId: 'm', value: 3 },
    { type: 'openExternal', url: 'javascript:alert(1)' },
    { type: 'openExternal', url: 'command:workbench.action.quit' },
    { type: 'openExternal', url: 'file:///etc/passwd' },
    request(1, 'loadTurns', { sessionId: 's', turns: [-1] }),
    request(1, 'loadTurns', { sessionId: 's', turns: [1.5] }),
    request(1, 'loadTurns', { sessionId: 's', turns: ['0'] }),
    request(1, 'loadTurns', { sessionId: '', turns: [0] }),
    request(1, 'loadTurns', { sessionId: 's', turns: 0 }),
    request(1, 'loadTurns', { sessionId: 's', turns: [0], all: true }),
    request(1, 'loadTurns', { sessionId: 's', turns: Array.from({ length: MAX_LOAD_TURNS + 1 }, (_, i) => i) }),
    // The request envelope: a seq, a known method, params as an object, nothing else.
    request(-1, 'searchFiles', { query: 'a' }),
    request(1.5, 'searchFiles', { query: 'a' }),
    request(undefined, 'searchFiles', { query: 'a' }),
    request(1, 'readFile', { path: '/etc/passwd' }),
    request(1, 'searchFiles', undefined),
    request(1, 'searchFiles', ['a']),
    { ...request(1, 'searchFiles', { query: 'a' }), extra: 1 },
    // The old one-way forms of these requests are gone.
    { type: 'searchFiles', requestId: 3, query: 'a' },
    { type: 'loadTurns', sessionId: 's', turns: [0] },
  ];
  assert.deepEqual(parseFromWebview(request(7, 'loadTurns', { sessionId: 's', turns: [0, 3] })), {
    type: 'request',
    seq: 7,
    method: 'loadTurns',
    params: { sessionId: 's', turns: [0, 3] },
  });
  for (const m of bad) assert.equal(typeof parseFromWebview(m), 'string', JSON.stringify(m).slice(0, 100));
});

test('a refused request still has a seq to answer when it names one', () => {
  assert.equal(requestSeq(request(5, 'readFile', {})), 5);
  assert.equal(requestSeq(request(5, 'searchFiles', { query: 'a'.repeat(600) })), 5);
  assert.equal(requestSeq(request('5', 'searchFiles', {})), undefined);
  assert.equal(requestSeq({ type: 'prompt', seq: 5 }), undefined);
  assert.equal(requestSeq(null), undefined);
});
