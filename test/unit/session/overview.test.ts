// The Sessions overview's grouping: what needs the user comes first, then what runs, then what
// finished out of sight, then the rest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeSession, groupOf, overviewGroups, type OverviewSession } from '../../../src/session/overview';

const row = (o: Partial<OverviewSession> & { sessionId: string }): OverviewSession => ({
  agentName: 'Claude',
  status: 'idle',
  turns: 1,
  unseen: false,
  files: 0,
  ...o,
});

test('a session waiting for the user is in "needs you" even while its turn runs', () => {
  assert.equal(groupOf(row({ sessionId: 'a', status: 'working', waiting: 'a permission prompt' })), 'needsYou');
  assert.equal(groupOf(row({ sessionId: 'b', status: 'working' })), 'running');
  assert.equal(groupOf(row({ sessionId: 'c', unseen: true })), 'unseen');
  assert.equal(groupOf(row({ sessionId: 'd' })), 'idle');
});

test('groups come in order, empty ones left out, sessions by agent then title', () => {
  const groups = overviewGroups([
    row({ sessionId: 'i1', agentName: 'Codex', title: 'b' }),
    row({ sessionId: 'r1', status: 'working', agentName: 'Gemini' }),
    row({ sessionId: 'n1', waiting: 'a form', agentName: 'Codex' }),
    row({ sessionId: 'i2', agentName: 'Codex', title: 'a' }),
    row({ sessionId: 'i3', agentName: 'Claude', title: 'z' }),
  ]);
  assert.deepEqual(
    groups.map((g) => [g.group, g.sessions.map((s) => s.sessionId)]),
    [
      ['needsYou', ['n1']],
      ['running', ['r1']],
      ['idle', ['i3', 'i2', 'i1']],
    ],
  );
});

test('the description names the agent, what it waits for, turns and changed files', () => {
  assert.equal(
    describeSession(row({ sessionId: 'a', waiting: 'a permission prompt', turns: 3, files: 2 })),
    'Claude · waits for a permission prompt · 3 turns · 2 files changed',
  );
  assert.equal(describeSession(row({ sessionId: 'b', turns: 1, files: 1 })), 'Claude · 1 turn · 1 file changed');
  assert.equal(describeSession(row({ sessionId: 'c', turns: 0 })), 'Claude · 0 turns');
});
