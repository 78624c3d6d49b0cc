import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forkable } from '../../../src/shared/fork';

test('a session is forkable when the agent offers fork, is ready, and the session has ended a turn and runs none', () => {
  const agent = { state: 'ready' as const, canFork: true };
  assert.equal(forkable(agent, 'idle', 2), true);
  assert.equal(forkable({ state: 'ready' }, 'idle', 2), false, 'the agent does not offer session/fork');
  assert.equal(forkable({ ...agent, canFork: false }, 'idle', 2), false);
  assert.equal(forkable(agent, 'working', 2), false, 'mid-turn');
  assert.equal(forkable(agent, 'disconnected', 2), false);
  assert.equal(forkable(agent, 'idle', 0), false, 'nothing to continue from');
  assert.equal(forkable(agent, undefined, 0), false, 'no session');
  assert.equal(forkable({ ...agent, state: 'starting' }, 'idle', 2), false, 'another session is opening');
});
