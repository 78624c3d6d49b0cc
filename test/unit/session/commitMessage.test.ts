import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  SUBJECT_MAX,
  clip,
  commitMessage,
  proposeCommitMessage,
  userPrompts,
} from '../../../src/session/commitMessage';
import { SessionStore } from '../../../src/session/store';

const text = (t: string) => ({ type: 'text' as const, text: t });

test("the session's prompts are read in order: each turn's prompt and a message steered into a running turn", () => {
  const store = new SessionStore('s1', () => 1);
  store.dispatch({ type: 'started', at: 1 });
  store.dispatch({ type: 'promptStarted', at: 1, prompt: [text('Add a --verbose flag\nto the CLI')] });
  store.dispatch({ type: 'update', at: 2, update: { sessionUpdate: 'agent_message_chunk', content: text('ok') } });
  // Steered while the turn runs: part of the same turn, still something the user asked for.
  store.dispatch({
    type: 'update',
    at: 3,
    update: { sessionUpdate: 'user_message_chunk', content: text('and a test') },
  });
  store.dispatch({ type: 'promptEnded', at: 4, stopReason: 'end_turn' });
  // A prompt that is only an attached file has no words to go by.
  const file = { type: 'resource_link' as const, uri: 'file:///w/a.ts', name: 'a.ts' };
  store.dispatch({ type: 'promptStarted', at: 5, prompt: [file] });
  store.dispatch({ type: 'promptEnded', at: 6, stopReason: 'end_turn' });
  store.dispatch({ type: 'promptStarted', at: 7, prompt: [text('  Document it '), file] });
  store.dispatch({ type: 'promptEnded', at: 8, stopReason: 'end_turn' });

  assert.deepEqual(userPrompts(store.state), ['Add a --verbose flag\nto the CLI', 'and a test', 'Document it']);
});

test("the first prompt's first line is the subject and the later prompts are the body's bullet lines", () => {
  const p = proposeCommitMessage([
    '\n  Fix   the login\tredirect\nIt loops on Safari.',
    'add a test',
    'update the docs',
  ]);
  assert.deepEqual(p, { subject: 'Fix the login redirect', body: '- add a test\n- update the docs' });
  assert.equal(commitMessage(p!.subject, p!.body), 'Fix the login redirect\n\n- add a test\n- update the docs');
  assert.deepEqual(proposeCommitMessage(['Only one']), { subject: 'Only one', body: '' });
  assert.equal(commitMessage(' Only one ', ''), 'Only one');
});

test('a long first line is cut at a word to at most 72 characters, and a bullet line is too', () => {
  const long = 'Refactor the session store so that every reducer branch returns patches that the webview can merge';
  const p = proposeCommitMessage([long, long.repeat(2)])!;
  assert.ok(p.subject.length <= SUBJECT_MAX, p.subject);
  assert.equal(p.subject, 'Refactor the session store so that every reducer branch returns patches…');
  const bullet = p.body.split('\n')[0];
  assert.ok(bullet.length <= SUBJECT_MAX, bullet);
  assert.match(bullet, /^- Refactor the session .*…$/);
  // One long word: cut inside it rather than leave an empty subject.
  assert.equal(clip('x'.repeat(100), 10), `${'x'.repeat(9)}…`);
});

test('repeated follow-ups are listed once, and with no prompt there is no proposal', () => {
  const p = proposeCommitMessage(['Port the parser', 'continue', 'continue', 'Port the parser'])!;
  assert.equal(p.body, '- continue');
  assert.equal(proposeCommitMessage([]), undefined);
  assert.equal(proposeCommitMessage(['  \n ']), undefined);
});
