// The usage meter's state: the context (used of size) and the session's cost so far from
// usage_update, and what each turn spent from its prompt answer (`_meta.quota`, read by
// client/connection/turnUsage.ts) on the turn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { SessionAction } from '../../../src/session/actions';
import { reduceChecked } from './reduceChecked';

const usage = (used: number, size: number, cost?: { amount: number; currency: string } | null): SessionAction => ({
  type: 'update',
  at: 1,
  update: { sessionUpdate: 'usage_update', used, size, ...(cost !== undefined ? { cost } : {}) } as SessionUpdate,
});

const run = (actions: SessionAction[]) => reduceChecked(actions).snap;

test("an update without a cost keeps the session's cost so far; null clears it", () => {
  // claude-agent-acp: mid-turn updates carry no cost, the one at the turn's result does.
  const usd = { amount: 0.0123, currency: 'USD' };
  assert.deepEqual(run([usage(11, 1000, usd), usage(30, 1000)]).meta.usage, { used: 30, size: 1000, cost: usd });
  assert.deepEqual(run([usage(11, 1000, usd), usage(30, 1000, null)]).meta.usage, { used: 30, size: 1000 });
  assert.deepEqual(run([usage(11, 1000)]).meta.usage, { used: 11, size: 1000 });
});

test("what a turn spent is on that turn, beside the context's own figures", () => {
  const spent = { total: 60, input: 20, output: 40 };
  const snap = run([
    { type: 'promptStarted', at: 1, prompt: [{ type: 'text', text: 'hi' }] },
    usage(30, 1000),
    { type: 'promptEnded', at: 2, stopReason: 'end_turn', usage: spent },
    { type: 'promptStarted', at: 3, prompt: [{ type: 'text', text: 'again' }] },
    { type: 'promptEnded', at: 4, stopReason: 'end_turn' },
  ]);
  assert.deepEqual(snap.turns[0].usage, spent);
  assert.equal(snap.turns[1].usage, undefined, 'a turn whose answer said nothing has no usage');
  assert.deepEqual(snap.meta.usage, { used: 30, size: 1000 }, 'the context is not the tokens spent');
});
