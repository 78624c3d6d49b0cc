import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forkedState } from '../../../src/session/fork';
import { reduce } from '../../../src/session/reducer';
import { SessionStore } from '../../../src/session/store';
import { toSnapshot } from '../../../src/session/snapshot';
import { threeFinishedTurns } from '../../support/sessions';

test('a fork starts from the source’s turns and calls under its own id, idle, titled as a fork', () => {
  let source = threeFinishedTurns();
  source = reduce(source, {
    type: 'update',
    at: 9,
    update: { sessionUpdate: 'session_info_update', title: 'Tidy' },
  }).state;
  const fork = forkedState(source, 'f');
  const a = toSnapshot(source);
  const b = toSnapshot(fork);
  assert.equal(b.meta.sessionId, 'f');
  assert.equal(b.meta.status, 'idle');
  assert.equal(b.meta.title, 'Tidy (fork)');
  assert.deepEqual(b.turns, a.turns);
  assert.deepEqual(b.toolCalls, a.toolCalls);
  assert.equal(forkedState(threeFinishedTurns(), 'g').meta.title, undefined, 'no title: none made up');
});

test('prompts waiting for the user stay with the source; later turns of either do not reach the other', () => {
  let source = threeFinishedTurns();
  const request = {
    requestId: 'r1',
    toolCallId: 'c2.0',
    toolCall: { toolCallId: 'c2.0', title: 'Read f20.ts' },
    options: [{ optionId: 'a', name: 'Allow', kind: 'allow_once' as const }],
  };
  source = reduce(source, { type: 'permissionRequested', at: 1, request: request as never }).state;
  const fork = new SessionStore('f', () => 0, forkedState(source, 'f'));
  assert.deepEqual(fork.state.permissions, []);
  assert.equal(source.permissions.length, 1);

  fork.dispatch({ type: 'promptStarted', at: 5, prompt: [{ type: 'text', text: 'only in the fork' }] });
  assert.equal(fork.state.turns.length, 4);
  assert.equal(fork.state.meta.status, 'working');
  assert.equal(source.turns.length, 3, 'the source is untouched');
  assert.equal(source.meta.status, 'idle');
  assert.equal(fork.snapshot().turns[3].index, 3, 'the fork numbers on from the copied turns');
});
