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
  assert.equal(
    describeSession(row({ sessionId: 'd', turns: 2, files: 2, lines: { added: 12, removed: 3 } })),
    'Claude · 2 turns · 2 files +12 −3',
  );
});

test('a session in a worktree of its own is described with its branch', () => {
  assert.equal(
    describeSession(row({ sessionId: 'w', place: 'tandem/fix-login', turns: 2, files: 3 })),
    'Claude in tandem/fix-login · 2 turns · 3 files changed',
  );
});

test('a running session says for how long; usage shows as cost, else as context use', () => {
  const now = 1_000_000;
  assert.equal(
    describeSession(row({ sessionId: 'r', status: 'working', runningSince: now - 185_000, turns: 1 }), now),
    'Claude · running 3 min · 1 turn',
  );
  assert.equal(
    describeSession(row({ sessionId: 'u', turns: 2, usage: { used: 62_000, size: 200_000 } }), now),
    'Claude · 2 turns · 31% context',
  );
  assert.equal(
    describeSession(
      row({ sessionId: 'c', turns: 2, usage: { used: 1, size: 2, cost: { amount: 0.4234, currency: 'USD' } } }),
      now,
    ),
    'Claude · 2 turns · $0.42',
  );
  assert.equal(
    describeSession(
      row({ sessionId: 'd', turns: 1, usage: { used: 1, size: 2, cost: { amount: 0.0004, currency: 'USD' } } }),
      now,
    ),
    'Claude · 1 turn · <$0.01',
    'a cost under a cent is not shown as nothing',
  );
});
