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
  assert.deepEqual(parseFromWebview({ type: 'forkSession' }), { type: 'forkSession' });
  assert.deepEqual(parseFromWebview({ type: 'stopSubagent', toolCallId: 'subagent:c1' }), {
    type: 'stopSubagent',
    toolCallId: 'subagent:c1',
  });
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
    { type: 'forkSession', sessionId: 'other' },
    { type: 'openLocation', path: '' },
    { type: 'openLocation', path: '/a', line: 0 },
    { type: 'openLocation', path: '/a', line: 1.5 },
    { type: 'stopSubagent' },
    { type: 'stopSubagent', toolCallId: '' },
    { type: 'stopSubagent', toolCallId: 'subagent:c1', sessionId: 'c1' },
  ];
  for (const m of bad) assert.equal(typeof parseFromWebview(m), 'string', JSON.stringify(m)?.slice(0, 80));
});

test('queue operations from the view are accepted only whole and well-formed', () => {
  const ok = [
    { type: 'queue', op: 'edit', id: 'q1', text: 'new text' },
    { type: 'queue', op: 'remove', id: 'q1' },
    { type: 'queue', op: 'sendNow', id: 'q1' },
    { type: 'queue', op: 'move', id: 'q1', to: 0 },
    { type: 'queue', op: 'resume' },
  ];
  for (const m of ok) assert.deepEqual(parseFromWebview(m), m);
  const bad = [
    { type: 'queue', op: 'edit', id: 'q1', text: '  ' },
    { type: 'queue', op: 'edit', id: 'q1' },
    { type: 'queue', op: 'remove' },
    { type: 'queue', op: 'remove', id: '' },
    { type: 'queue', op: 'move', id: 'q1', to: -1 },
    { type: 'queue', op: 'move', id: 'q1', to: 1.5 },
    { type: 'queue', op: 'resume', id: 'q1' },
    { type: 'queue', op: 'remove', id: 'q1', text: 'x' },
    { type: 'queue', op: 'drop-table', id: 'q1' },
    { type: 'queue', op: 'edit', id: 'q1', text: 'x'.repeat(MAX_PROMPT_CHARS + 1) },
  ];
  for (const m of bad) assert.equal(typeof parseFromWebview(m), 'string', JSON.stringify(m).slice(0, 80));
});
