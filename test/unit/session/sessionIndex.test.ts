import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MAX_INDEXED_SESSIONS,
  mergeWithAgentList,
  parseIndex,
  removeSession,
  upsertSession,
} from '../../../src/session/sessionIndex';

test('upsert keeps most recent first, merges fields, is bounded', () => {
  let idx = upsertSession([], { sessionId: 'a', agentName: 'Demo', cwd: '/w', createdAt: 1, updatedAt: 1, turns: 0 });
  idx = upsertSession(idx, { sessionId: 'b', agentName: 'Demo', cwd: '/w', createdAt: 2, updatedAt: 2, turns: 1 });
  idx = upsertSession(idx, { sessionId: 'a', updatedAt: 3, title: 'Fix', turns: 2 });
  assert.deepEqual(
    idx.map((e) => e.sessionId),
    ['a', 'b'],
  );
  assert.equal(idx[0].title, 'Fix');
  assert.equal(idx[0].createdAt, 1);
  assert.equal(idx[0].cwd, '/w');
  for (let i = 0; i < MAX_INDEXED_SESSIONS + 5; i++)
    idx = upsertSession(idx, {
      sessionId: `s${i}`,
      agentName: 'Demo',
      cwd: '/w',
      createdAt: 10 + i,
      updatedAt: 10 + i,
      turns: 1,
    });
  assert.equal(idx.length, MAX_INDEXED_SESSIONS);
  assert.equal(removeSession(idx, idx[0].sessionId).length, MAX_INDEXED_SESSIONS - 1);
});

test('parseIndex drops malformed entries', () => {
  assert.deepEqual(parseIndex('x'), []);
  assert.equal(parseIndex([{ sessionId: 'a', agentName: 'D', updatedAt: 1 }, { sessionId: 1 }, null]).length, 1);
});

test('merge with the agent list: agent entries win, local-only ones kept for that agent', () => {
  const local = [
    { sessionId: 'a', agentName: 'Claude', cwd: '/w', createdAt: 1, updatedAt: 5, turns: 3, title: 'old title' },
    { sessionId: 'b', agentName: 'Claude', cwd: '/w', createdAt: 1, updatedAt: 2, turns: 1 },
    { sessionId: 'c', agentName: 'Gemini', cwd: '/w', createdAt: 1, updatedAt: 9, turns: 1 },
  ];
  const merged = mergeWithAgentList(local, 'Claude', [
    { sessionId: 'a', title: 'New title', updatedAt: '2026-01-01T00:00:00Z', cwd: '/w' },
    { sessionId: 'z', cwd: '/w' },
  ]);
  assert.deepEqual(
    merged.map((e) => [e.sessionId, e.source]),
    [
      ['a', 'agent'],
      ['b', 'local'],
      ['z', 'agent'],
    ],
  );
  assert.equal(merged[0].title, 'New title');
  assert.equal(merged[0].turns, 3);
});
