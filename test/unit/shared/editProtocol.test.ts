// The view's Edit and resend messages (edit a prompt, resend it edited, redo), each checked by
// parseFromWebview before the host acts on it: a resend is a prompt and has a prompt's limits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_PROMPT_CHARS, parseFromWebview } from '../../../src/shared/parseFromWebview';

test('edit, resend and redo pass as sent', () => {
  const ok: unknown[] = [
    { type: 'editPrompt', turn: 0 },
    { type: 'resendPrompt', sessionId: 's-1', turn: 2, text: 'again, but smaller' },
    {
      type: 'resendPrompt',
      sessionId: 's-1',
      turn: 0,
      text: '',
      attachments: [{ kind: 'selection', path: '/ws/a.ts', startLine: 1, endLine: 3 }],
    },
    { type: 'redoEdit' },
  ];
  for (const m of ok) assert.deepEqual(parseFromWebview(m), m, JSON.stringify(m));
});

test('malformed edit messages are refused with a reason', () => {
  const bad: unknown[] = [
    { type: 'editPrompt' },
    { type: 'editPrompt', turn: -1 },
    { type: 'editPrompt', turn: 0, text: 'x' },
    { type: 'resendPrompt', turn: 0, text: 'x' },
    { type: 'resendPrompt', sessionId: '', turn: 0, text: 'x' },
    { type: 'resendPrompt', sessionId: 's', text: 'x' },
    { type: 'resendPrompt', sessionId: 's', turn: 0, text: '  ' },
    { type: 'resendPrompt', sessionId: 's', turn: 0, text: 'x'.repeat(MAX_PROMPT_CHARS + 1) },
    { type: 'resendPrompt', sessionId: 's', turn: 0, text: 'x', attachments: [{ kind: 'file' }] },
    { type: 'resendPrompt', sessionId: 's', turn: 0, text: 'x', way: 'fork' },
    { type: 'redoEdit', turn: 1 },
  ];
  for (const m of bad) assert.equal(typeof parseFromWebview(m), 'string', JSON.stringify(m));
  assert.equal(
    parseFromWebview({ type: 'resendPrompt', sessionId: 's', turn: 0, text: ' ' }),
    'resendPrompt.text is empty',
  );
});
