// Folded turns as outlines: what the snapshot drops, and how patches and requests bring it back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getToolCall, toSnapshot, turnWithCalls } from '../../../src/session/snapshot';
import { createSessionState, reduce, type SessionState } from '../../../src/session/reducer';
import type { SessionAction } from '../../../src/session/actions';
import { applyPatches } from '../../../src/shared/patches';
import type { Patch } from '../../../src/shared/sessionModel';
import { TurnOutliner, outlineOf } from '../../../src/shared/turnOutline';

function session(turns: number, callsPerTurn: number): SessionState {
  let s = createSessionState('s');
  const run = (a: SessionAction) => {
    s = reduce(s, a).state;
  };
  for (let t = 0; t < turns; t++) {
    run({ type: 'promptStarted', at: t, prompt: [{ type: 'text', text: `task ${t}` }] });
    run({
      type: 'update',
      at: t,
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `working on ${t}` } },
    });
    for (let c = 0; c < callsPerTurn; c++) {
      run({
        type: 'update',
        at: t,
        update: {
          sessionUpdate: 'tool_call',
          toolCallId: `c${t}.${c}`,
          title: `Read f${c}`,
          kind: 'read',
          status: c === 0 ? 'failed' : 'completed',
        },
      });
    }
    if (t < turns - 1) run({ type: 'promptEnded', at: t, stopReason: 'end_turn' });
  }
  return s;
}
const sourceOf = (get: () => SessionState) => ({
  fullTurn: (t: number) => turnWithCalls(get(), t),
  turnOfCall: (id: string) => getToolCall(get(), id)?.turn,
});

test('snapshot: every turn but the last is an outline with its prompt and counts; its calls are not sent', () => {
  const s = session(3, 4);
  const full = toSnapshot(s);
  const o = new TurnOutliner();
  const out = o.snapshot(full)!;
  assert.equal(out.turns.length, 3);
  for (const t of [0, 1]) {
    assert.deepEqual(out.turns[t].outline, { tools: 4, failed: 1, running: 0 });
    assert.deepEqual(out.turns[t].items, [full.turns[t].items[0]], 'only the prompt');
    assert.equal(out.turns[t].stopReason, 'end_turn', 'the header stays');
    assert.ok(o.isOutlined('s', t));
    assert.equal(out.toolCalls[`c${t}.0`], undefined);
  }
  assert.deepEqual(out.turns[2], full.turns[2], 'the last turn is whole');
  assert.ok(out.toolCalls['c2.3']);
  assert.equal(Object.keys(out.toolCalls).length, 4);
  assert.ok(JSON.stringify(out).length < JSON.stringify(full).length / 2);
  // The host's snapshot object is not changed.
  assert.equal(Object.keys(full.toolCalls).length, 12);
  assert.equal(full.turns[0].outline, undefined);
});

test('snapshot: a turn with a prompt waiting stays whole; a turn with nothing to drop is not outlined', () => {
  let s = session(2, 2);
  s = reduce(s, { type: 'promptEnded', at: 9, stopReason: 'end_turn' }).state;
  s = reduce(s, { type: 'promptStarted', at: 10, prompt: [{ type: 'text', text: 'only a prompt' }] }).state;
  s = reduce(s, { type: 'promptEnded', at: 11, stopReason: 'cancelled' }).state;
  s = reduce(s, { type: 'promptStarted', at: 12, prompt: [{ type: 'text', text: 'last' }] }).state;
  const snap = toSnapshot(s);
  snap.permissions = [
    { requestId: 'p1', toolCallId: 'c0.1', toolCall: { toolCallId: 'c0.1' }, options: [], at: 1 } as never,
  ];
  const o = new TurnOutliner();
  const out = o.snapshot(snap)!;
  assert.equal(out.turns[0].outline, undefined, 'turn 0 has the pending prompt');
  assert.ok(out.toolCalls['c0.1']);
  assert.ok(out.turns[1].outline);
  assert.equal(out.turns[2].outline, undefined, 'nothing but its prompt');
  assert.equal(o.isOutlined('s', 2), false);
  assert.equal(o.snapshot(null), null);
  assert.equal(o.isOutlined('s', 1), false, 'a new snapshot forgets');
});

test('request: the unfolded turn arrives whole, once; another session is ignored', () => {
  const s = session(3, 2);
  const o = new TurnOutliner();
  const mirror = o.snapshot(toSnapshot(s))!;
  const src = sourceOf(() => s);
  assert.deepEqual(o.request('other', [0], src), []);
  const p = o.request('s', [0, 0, 7], src);
  assert.equal(p.length, 1);
  assert.equal(p[0].op, 'fullTurn');
  applyPatches(mirror, p);
  assert.deepEqual(mirror.turns[0], toSnapshot(s).turns[0]);
  assert.deepEqual(mirror.toolCalls['c0.1'], toSnapshot(s).toolCalls['c0.1']);
  assert.deepEqual(o.request('s', [0], src), [], 'already loaded');
  assert.ok(mirror.turns[1].outline, 'the others stay outlines');
});

test('patches: a change to an outlined turn sends the whole turn instead, and later patches of the batch are not applied twice', () => {
  let s = session(2, 2);
  s = reduce(s, { type: 'promptEnded', at: 5, stopReason: 'end_turn' }).state;
  const o = new TurnOutliner();
  const mirror = o.snapshot(toSnapshot(s))!;
  assert.ok(o.isOutlined('s', 0));
  const src = sourceOf(() => s);
  // A late update of a call in turn 0 (agents finish background work after the turn ended).
  const r = reduce(s, {
    type: 'update',
    at: 6,
    update: { sessionUpdate: 'tool_call_update', toolCallId: 'c0.0', status: 'completed', title: 'Read again' },
  });
  s = r.state;
  // The same batch also holds an append to turn 0: it is inside the fullTurn already.
  const fake: Patch = { op: 'append', turn: 0, index: 1, block: 0, text: ' DUP' };
  const sent = o.patches('s', [...r.patches, fake, { op: 'meta', meta: { title: 't' } }], src);
  assert.deepEqual(
    sent.map((p) => p.op),
    ['fullTurn', 'meta'],
  );
  applyPatches(mirror, sent);
  assert.equal(mirror.toolCalls['c0.0'].title, 'Read again');
  assert.equal(JSON.stringify(mirror.turns[0]).includes('DUP'), false);
  assert.equal(o.isOutlined('s', 0), false);
  // Patches for the last turn (whole) pass as they are, same array.
  const plain: Patch[] = [{ op: 'append', turn: 1, index: 1, block: 0, text: 'x' }];
  assert.equal(o.patches('s', plain, src), plain);
});

test('patches: a permission prompt for a call of an outlined turn loads the turn and still goes', () => {
  const s = session(3, 2);
  const o = new TurnOutliner();
  o.snapshot(toSnapshot(s));
  const perm: Patch = {
    op: 'permissions',
    permissions: [
      { requestId: 'p', toolCallId: 'c1.0', toolCall: { toolCallId: 'c1.0' }, options: [], at: 1 } as never,
    ],
  };
  const sent = o.patches(
    's',
    [perm],
    sourceOf(() => s),
  );
  assert.deepEqual(
    sent.map((p) => p.op),
    ['fullTurn', 'permissions'],
  );
  assert.equal((sent[0] as Extract<Patch, { op: 'fullTurn' }>).turn.index, 1);
});

test('outline counts: calls of a cancelled turn are not running (they show as interrupted)', () => {
  let s = createSessionState('s');
  const run = (a: SessionAction) => {
    s = reduce(s, a).state;
  };
  run({ type: 'promptStarted', at: 1, prompt: [{ type: 'text', text: 'go' }] });
  run({
    type: 'update',
    at: 1,
    update: { sessionUpdate: 'tool_call', toolCallId: 'a', title: 'Run', kind: 'execute', status: 'in_progress' },
  });
  run({
    type: 'update',
    at: 1,
    update: { sessionUpdate: 'tool_call', toolCallId: 'b', title: 'Read', kind: 'read', status: 'pending' },
  });
  assert.deepEqual(outlineOf(toSnapshot(s).turns[0], toSnapshot(s).toolCalls), { tools: 2, failed: 0, running: 2 });
  run({ type: 'promptEnded', at: 2, stopReason: 'cancelled' });
  assert.deepEqual(outlineOf(toSnapshot(s).turns[0], toSnapshot(s).toolCalls), { tools: 2, failed: 0, running: 0 });
});
