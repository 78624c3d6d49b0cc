// Edit and resend in the session store: the turns from the edited prompt on fold as rewound (and
// Redo shows them again), through the reducer and the patches the view applies; which way the
// conversation can go back, from what the agent offers and whether it names its messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forkedState } from '../../../src/session/fork';
import { reduce, type SessionState } from '../../../src/session/reducer';
import { editWay, lastAgentMessageId, turnsFrom } from '../../../src/session/rewind';
import { toSnapshot } from '../../../src/session/snapshot';
import { applyPatches } from '../../../src/shared/patches';
import { threeFinishedTurns } from '../../support/sessions';

const rewound = (s: SessionState) => toSnapshot(s).turns.map((t) => !!t.rewound);

/** Three turns whose replies carry message ids (msg-0, msg-1, msg-2), as claude-agent-acp sends them. */
function withMessageIds(ids = true): SessionState {
  let s = threeFinishedTurns();
  for (let t = 0; t < 3; t++) {
    const turn = s.turns.get(t)!;
    const item = { kind: 'agent' as const, blocks: [{ type: 'text' as const, text: `reply ${t}` }] };
    const items = turn.items.push(ids ? { ...item, messageId: `msg-${t}` } : item);
    s = { ...s, turns: s.turns.set(t, { ...turn, items }) };
  }
  return s;
}

test('a rewind folds the edited turn and every later one; the view’s copy follows the patches', () => {
  const s = threeFinishedTurns();
  const view = toSnapshot(s);
  const r = reduce(s, { type: 'rewound', at: 9, fromTurn: 1 });
  assert.deepEqual(rewound(r.state), [false, true, true]);
  assert.deepEqual(
    r.patches.map((p) => (p.op === 'turn' ? [p.turn.index, p.turn.rewound] : p.op)),
    [
      [1, true],
      [2, true],
    ],
  );
  applyPatches(view, r.patches);
  assert.deepEqual(
    view.turns.map((t) => !!t.rewound),
    [false, true, true],
  );
  assert.equal(view.turns[1].items.length, s.turns.get(1)!.items.length, 'the turn keeps its content');

  const again = reduce(r.state, { type: 'rewound', at: 10, fromTurn: 0 });
  assert.deepEqual(rewound(again.state), [true, true, true]);
  assert.equal(again.patches.length, 1, 'turns rewound already are not patched again');
});

test('Redo shows the rewound turns again, only those it names', () => {
  const s = reduce(threeFinishedTurns(), { type: 'rewound', at: 9, fromTurn: 0 }).state;
  const view = toSnapshot(s);
  const r = reduce(s, { type: 'unrewound', at: 10, turns: [1, 2] });
  assert.deepEqual(rewound(r.state), [true, false, false]);
  applyPatches(view, r.patches);
  assert.deepEqual(
    view.turns.map((t) => !!t.rewound),
    [true, false, false],
    'the view drops the mark',
  );
  assert.deepEqual(reduce(r.state, { type: 'unrewound', at: 11, turns: [2] }).patches, [], 'nothing to unfold');
});

test('the turns a rewind folds are those still in the agent’s context', () => {
  const s = reduce(threeFinishedTurns(), { type: 'rewound', at: 9, fromTurn: 2 }).state;
  assert.deepEqual(turnsFrom(s, 1), [1]);
  assert.deepEqual(turnsFrom(threeFinishedTurns(), 0), [0, 1, 2]);
});

test('the way back: _session/rewind where offered, a fork where the agent forks and names its messages, else ask', () => {
  const ids = withMessageIds();
  const both = { rewind: true, fork: true };
  assert.deepEqual(editWay(both, ids, 1), { kind: 'rewind' }, 'an in-place rewind first');
  const fork = { rewind: false, fork: true };
  assert.deepEqual(editWay(fork, ids, 2), { kind: 'fork', messageId: 'msg-1' }, 'forked at the reply before');
  assert.deepEqual(editWay(fork, ids, 0), { kind: 'fork' }, 'before the first prompt: nothing to keep');
  assert.deepEqual(
    editWay(fork, withMessageIds(false), 0),
    { kind: 'ask' },
    'an agent that forks only whole sessions (no message ids) is not trusted to fork at a point',
  );
  assert.deepEqual(editWay({ rewind: false, fork: false }, ids, 1), { kind: 'ask' });
});

test('the fork point skips rewound turns: their messages are not in the agent’s context', () => {
  const s = reduce(withMessageIds(), { type: 'rewound', at: 9, fromTurn: 1 }).state;
  assert.equal(lastAgentMessageId(s, 3), 'msg-0');
  assert.equal(lastAgentMessageId(s, 1), 'msg-0');
  assert.equal(lastAgentMessageId(s, 0), undefined);
});

test('a fork for an edit copies the conversation with the edited turn and later ones rewound', () => {
  const source = threeFinishedTurns();
  const fork = forkedState(source, 'f', 1);
  assert.deepEqual(rewound(fork), [false, true, true]);
  assert.deepEqual(rewound(source), [false, false, false], 'the source is untouched');
  assert.deepEqual(rewound(forkedState(source, 'g')), [false, false, false], 'a plain fork rewinds nothing');
});
