// The webview → host intents added for the session view: every one validated by parseIntent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_ATTACHMENTS, MAX_LOAD_TURNS, parseIntent } from '../../../src/shared/protocol';

test('parseIntent accepts the session view intents', () => {
  const ok: unknown[] = [
    { type: 'prompt', text: 'look at @a.ts', attachments: [{ kind: 'file', path: '/ws/a.ts' }] },
    { type: 'prompt', text: '', attachments: [{ kind: 'selection', path: '/ws/a.ts', startLine: 2, endLine: 5 }] },
    { type: 'prompt', text: 'img', attachments: [{ kind: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' }] },
    { type: 'openDiff', toolCallId: 'c1', index: 0 },
    { type: 'searchFiles', requestId: 3, query: 'src/ma' },
    { type: 'attachSelection' },
    { type: 'setMode', modeId: 'plan' },
    { type: 'setConfigOption', configId: 'model', value: 'fast' },
    { type: 'setConfigOption', configId: 'thinking', value: true },
    { type: 'copyText', text: 'code' },
    { type: 'openExternal', url: 'https://example.com/x' },
  ];
  for (const m of ok) assert.deepEqual(parseIntent(m), m, JSON.stringify(m));
});

test('parseIntent rejects malformed session view intents', () => {
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
    { type: 'searchFiles', requestId: 'x', query: 'a' },
    { type: 'searchFiles', requestId: 1, query: 'a'.repeat(600) },
    { type: 'attachSelection', path: '/etc/passwd' },
    { type: 'setMode', modeId: '' },
    { type: 'setConfigOption', configId: 'm', value: 3 },
    { type: 'openExternal', url: 'javascript:alert(1)' },
    { type: 'openExternal', url: 'command:workbench.action.quit' },
    { type: 'openExternal', url: 'file:///etc/passwd' },
    { type: 'loadTurns', sessionId: 's', turns: [-1] },
    { type: 'loadTurns', sessionId: 's', turns: [1.5] },
    { type: 'loadTurns', sessionId: 's', turns: ['0'] },
    { type: 'loadTurns', sessionId: '', turns: [0] },
    { type: 'loadTurns', sessionId: 's', turns: 0 },
    { type: 'loadTurns', sessionId: 's', turns: [0], all: true },
    { type: 'loadTurns', sessionId: 's', turns: Array.from({ length: MAX_LOAD_TURNS + 1 }, (_, i) => i) },
  ];
  assert.deepEqual(parseIntent({ type: 'loadTurns', sessionId: 's', turns: [0, 3] }), {
    type: 'loadTurns',
    sessionId: 's',
    turns: [0, 3],
  });
  for (const m of bad) assert.equal(typeof parseIntent(m), 'string', JSON.stringify(m).slice(0, 100));
});
