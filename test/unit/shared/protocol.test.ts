import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_PROMPT_CHARS, parseIntent } from '../../../src/shared/protocol';

test('parseIntent accepts the known intents', () => {
  assert.deepEqual(parseIntent({ type: 'ready' }), { type: 'ready' });
  assert.deepEqual(parseIntent({ type: 'prompt', text: 'hi' }), { type: 'prompt', text: 'hi' });
  assert.deepEqual(parseIntent({ type: 'openLocation', path: '/a', line: 3 }), {
    type: 'openLocation',
    path: '/a',
    line: 3,
  });
  assert.deepEqual(parseIntent({ type: 'cancel' }), { type: 'cancel' });
});

test('parseIntent rejects forged or malformed messages with a reason', () => {
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
  for (const m of bad) assert.equal(typeof parseIntent(m), 'string', JSON.stringify(m)?.slice(0, 80));
});
