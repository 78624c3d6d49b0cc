import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  INTERRUPTED_ERROR,
  inFlightPrompt,
  markInterrupted,
  parseInFlight,
} from '../../../src/session/interruptedPrompt';
import { SessionStore } from '../../../src/session/store';

function session(): SessionStore {
  const store = new SessionStore('s1', () => 1);
  store.dispatch({ type: 'started', at: 1 });
  return store;
}

const userText = (store: SessionStore) =>
  store.snapshot().turns.map((t) =>
    t.items
      .flatMap((i) => (i.kind === 'user' ? i.blocks : []))
      .map((b) => (b.type === 'text' ? b.text : b.type))
      .join(''),
  );

test('the running prompt is kept with its text and mentioned files, and only while its turn runs', () => {
  const store = session();
  assert.equal(inFlightPrompt(store, 'Agent'), undefined, 'no turn runs');
  store.dispatch({
    type: 'promptStarted',
    at: 5,
    prompt: [
      { type: 'text', text: 'fix the bug in ' },
      { type: 'resource_link', uri: 'file:///ws/a.ts', name: 'a.ts' },
      { type: 'image', mimeType: 'image/png', data: 'AAAA' },
    ],
  });
  const kept = inFlightPrompt(store, 'Agent');
  assert.deepEqual(kept, {
    agentName: 'Agent',
    sessionId: 's1',
    text: 'fix the bug in ',
    files: ['file:///ws/a.ts'],
    startedAt: 5,
  });
  assert.deepEqual(parseInFlight(JSON.parse(JSON.stringify(kept))), kept, 'survives the workspace state');
  store.dispatch({ type: 'promptEnded', at: 6, stopReason: 'end_turn' });
  assert.equal(inFlightPrompt(store, 'Agent'), undefined, 'the turn ended');
});

test('workspace state that is not a kept prompt is ignored', () => {
  for (const v of [undefined, null, 3, 'x', {}, { agentName: 'A', sessionId: 1, text: 'x' }])
    assert.equal(parseInFlight(v), undefined, JSON.stringify(v));
});

const kept = { agentName: 'Agent', sessionId: 's1', text: 'the running prompt', files: [], startedAt: 5 };

test('a reopened session whose history lost the prompt shows it again, marked interrupted', () => {
  const store = session();
  store.dispatch({ type: 'promptStarted', at: 2, prompt: [{ type: 'text', text: 'an earlier prompt' }] });
  store.dispatch({ type: 'promptEnded', at: 3, stopReason: 'end_turn' });
  markInterrupted(store, kept, 10);
  const s = store.snapshot();
  assert.deepEqual(userText(store), ['an earlier prompt', 'the running prompt']);
  assert.equal(s.turns[1].error, INTERRUPTED_ERROR);
  assert.equal(s.turns[0].error, undefined);
  assert.equal(s.meta.status, 'idle', 'nothing runs: the user may resend');
});

test('a reopened session that replayed the prompt without its answer marks that turn, not a copy', () => {
  const store = session();
  store.dispatch({
    type: 'update',
    at: 2,
    update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'the running prompt' } },
  });
  markInterrupted(store, kept, 10);
  assert.deepEqual(userText(store), ['the running prompt']);
  assert.equal(store.snapshot().turns[0].error, INTERRUPTED_ERROR);
});
