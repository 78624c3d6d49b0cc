// The view's checkpoint and changes messages: "Restore to here", the changes list's actions and
// its request, each checked by parseFromWebview before the host acts on it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFromWebview } from '../../../src/shared/parseFromWebview';

const request = (seq: unknown, method: unknown, params: unknown) => ({ type: 'request', seq, method, params });

test('restore, change actions and the turn changes request pass as sent', () => {
  const ok: unknown[] = [
    { type: 'restoreTo', turn: 0 },
    { type: 'changeAction', turn: 2, action: 'review' },
    { type: 'changeAction', turn: 2, action: 'undo' },
    { type: 'changeAction', turn: 1, action: 'diff', path: '/ws/a.ts' },
    { type: 'changeAction', turn: 1, action: 'keep', path: '/ws/a.ts' },
    request(5, 'turnChanges', { turn: 3 }),
  ];
  for (const m of ok) assert.deepEqual(parseFromWebview(m), m, JSON.stringify(m));
});

test('malformed restore and change messages are refused with a reason', () => {
  const bad: unknown[] = [
    { type: 'restoreTo' },
    { type: 'restoreTo', turn: -1 },
    { type: 'restoreTo', turn: 1.5 },
    { type: 'restoreTo', turn: '0' },
    { type: 'restoreTo', turn: 0, overwriteUnsaved: true },
    { type: 'changeAction', turn: 0, action: 'delete' },
    { type: 'changeAction', turn: 0, action: 'keep', path: '' },
    { type: 'changeAction', turn: 0, action: 'keep', path: 7 },
    { type: 'changeAction', turn: -2, action: 'keep' },
    { type: 'changeAction', turn: 0, action: 'undo', bytes: 'x' },
    request(1, 'turnChanges', {}),
    request(1, 'turnChanges', { turn: -1 }),
    request(1, 'turnChanges', { turn: 0, sessionId: 'other' }),
  ];
  for (const m of bad) assert.equal(typeof parseFromWebview(m), 'string', JSON.stringify(m));
});
