import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_PROMPT_CHARS, parseFromWebview } from '../../../src/shared/parseFromWebview';

test('parseFromWebview accepts the known intents', () => {
  assert.deepEqual(parseFromWebview({ type: 'ready' }), { type: 'ready' });
  assert.deepEqual(parseFromWebview({ type: 'prompt', text: 'hi' }), { type: 'prompt', text: 'hi' });
  assert.deepEqual(parseFromWebview({ type: 'openLocation', path: '/a', line: 3 }), {
    type: 'openLocation',
    path: '/a',
    line: 3,
  });
  assert.deepEqual(parseFromWebview({ type: 'cancel' }), { type: 'cancel' });
});

test('parseFromWebview rejects forged or malformed messages with a reason', () => {
  const bad: unknown[] = [
    null,
    'ready',
    [],
    { type: 'writeFile', path: '/etc/passwd' },
    { type: 'prompt' },
    { type: 'prompt', text: 5 },
    { type: 'prompt', text: '   ' },
    { type: 'prompt', text: 'x'.repeat(MAX_PROMPT_CHARS + 1) },
    { type: 'prompt', text: 'hi', sessionId: 'other' },
    { type: 'cancel', extra: 1 },
    { type: 'openLocation', path: '' },
    { type: 'openLocation', path: '/a', line: 0 },
    { type: 'openLocation', path: '/a', line: 1.5 },
  ];
  for (const m of bad) assert.equal(typeof parseFromWebview(m), 'string', JSON.stringify(m)?.slice(0, 80));
});
