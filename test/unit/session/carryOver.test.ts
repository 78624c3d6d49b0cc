// The fallback of Edit and resend for an agent that cannot rewind: a new session's first prompt
// carries the earlier turns as text, marked off from the edited prompt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { carriedPrompt, MAX_CARRIED_CHARS } from '../../../src/session/carryOver';
import { reduce, type SessionState } from '../../../src/session/reducer';
import { threeFinishedTurns } from '../../support/sessions';

function withReplies(): SessionState {
  let s = threeFinishedTurns();
  for (let t = 0; t < 3; t++) {
    const turn = s.turns.get(t)!;
    const items = turn.items.push({ kind: 'agent', blocks: [{ type: 'text', text: `reply ${t}` }] });
    s = { ...s, turns: s.turns.set(t, { ...turn, items }) };
  }
  return s;
}

test('the earlier turns come first, each prompt, its tools by title and its reply, then the edited prompt', () => {
  assert.equal(
    carriedPrompt(withReplies(), 2, 'do it differently'),
    [
      '[Earlier conversation, carried over from another session as text (2 turns). It is context, not a request.]',
      '--- Turn 1 ---\nUser: task 0\n(Tool calls: Read f00.ts; Read f01.ts; Read f02.ts)\nAgent: reply 0',
      '--- Turn 2 ---\nUser: task 1\n(Tool calls: Read f10.ts; Read f11.ts; Read f12.ts)\nAgent: reply 1',
      '[End of the earlier conversation. My prompt:]',
      'do it differently',
    ].join('\n\n'),
  );
});

test('editing the first prompt carries nothing; rewound turns are not carried', () => {
  assert.equal(carriedPrompt(withReplies(), 0, 'again'), 'again');
  const s = reduce(withReplies(), { type: 'rewound', at: 1, fromTurn: 1 }).state;
  const text = carriedPrompt(s, 3, 'next');
  assert.match(text, /\(1 turn\)/);
  assert.doesNotMatch(text, /task 1|task 2/);
});

test('a long conversation leaves out its oldest turns and says so', () => {
  let s = withReplies();
  const turn = s.turns.get(0)!;
  const big = { kind: 'agent' as const, blocks: [{ type: 'text' as const, text: 'x'.repeat(MAX_CARRIED_CHARS) }] };
  s = { ...s, turns: s.turns.set(0, { ...turn, items: turn.items.push(big) }) };
  const text = carriedPrompt(s, 3, 'p');
  assert.match(text, /\(3 turns, the first 1 left out\)/);
  assert.doesNotMatch(text, /task 0/);
  assert.match(text, /task 1/);
  assert.match(text, /task 2/);
});
