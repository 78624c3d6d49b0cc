// Undo of an earlier turn's change: compared with what the agent left, later work (a later turn,
// the user's edits) is kept; only the turn's own hunks are taken out, or the user is asked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mergeUndo, planUndo, undoQuestion } from '../../../src/checkpoints/undoChange';
import { until } from '../../support/until';
import { clockPast, harness, S } from './harness';

const enc = (s: string) => new TextEncoder().encode(s);
const lines = (...ls: string[]) => ls.map((l) => `${l}\n`).join('');
const BASE = lines('1', '2', '3', '4', '5', '6', '7', '8', '9', '10');
const TURN = BASE.replace('2\n', 'two (agent)\n');

test('a file nobody changed since the agent gets its exact bytes from before the turn back', () => {
  assert.deepEqual(planUndo(enc(BASE), enc(TURN), enc(TURN)), { kind: 'whole', bytes: enc(BASE) });
  assert.deepEqual(planUndo(null, enc('made\n'), enc('made\n')), { kind: 'whole', bytes: null }, 'created: deleted');
  assert.deepEqual(planUndo(enc(BASE), enc(TURN), enc(BASE)), { kind: 'none' }, 'already as before');
});

test("undoing an earlier turn keeps a later turn's and the user's changes elsewhere in the file", () => {
  const later = TURN.replace('8\n', 'eight (later turn)\n').replace('10\n', '10\n11 (user)\n');
  const plan = planUndo(enc(BASE), enc(TURN), enc(later));
  assert.deepEqual(plan, { kind: 'merge', text: BASE.replace('8\n', 'eight (later turn)\n') + '11 (user)\n' });
});

test('CRLF text and a last line without a newline come back as they were around the undone hunk', () => {
  const base = 'a\r\nb\r\nc\r\nd\r\ne\r\nf';
  const after = base.replace('b\r\n', 'B\r\n');
  const current = after.replace('f', 'f!');
  assert.equal(mergeUndo(base, after, current), 'a\r\nb\r\nc\r\nd\r\ne\r\nf!');
});

test('when the later changes touch the lines the agent changed, the user is asked and told what is lost', () => {
  const touched = TURN.replace('two (agent)\n', 'two (agent, then the user)\n').replace('3\n', '3!\n');
  const plan = planUndo(enc(BASE), enc(TURN), enc(touched));
  assert.equal(plan.kind, 'conflict');
  assert.equal(plan.kind === 'conflict' && plan.why, 'the lines the agent changed have been changed again since');
  assert.deepEqual(plan.kind === 'conflict' && plan.lost, { kind: 'modified', added: 2, removed: 2 });
  assert.deepEqual(plan.kind === 'conflict' && plan.bytes, enc(BASE), 'replacing puts back the whole file');
  const q = undoQuestion([{ label: 'src/app.ts', turn: 0, plan }]);
  assert.equal(q.message, "Undo the agent's change to src/app.ts? It has changed since.");
  assert.match(q.detail, /src\/app\.ts \(turn 1\): the lines the agent changed have been changed again since\./);
  assert.match(q.detail, /\(2 lines added, 2 removed\) would be lost/);
});

test('past the line diff\'s bound: a huge later hunk merges, and the lost lines are "up to" counts', () => {
  const many = (p: string) => Array.from({ length: 200_000 }, (_, i) => `${p}${i}\n`).join('');
  // The later change rewrites the tail past the bound (one hunk of 200,000 lines); the turn's is apart.
  const after = TURN + many('old');
  const current = TURN + many('new');
  assert.equal(mergeUndo(BASE + many('old'), after, current), BASE + many('new'));
  const touched = TURN.replace('two (agent)\n', 'two!\n') + many('new');
  const plan = planUndo(enc(BASE + many('old')), enc(after), enc(touched));
  assert.equal(plan.kind === 'conflict' && plan.lost?.tooLarge, true);
  const q = undoQuestion([{ label: 'big.txt', turn: 0, plan }]);
  // The whole changed middle: from the agent's line 2 to the end (9 + 200,000 lines).
  assert.match(q.detail, /\(up to 200009 lines added, up to 200009 removed\) would be lost/);
});

test('a created, deleted or binary file changed since cannot be taken apart: the user is asked', () => {
  const kinds = (b: string | null, a: string | null, c: string | null) => {
    const p = planUndo(b === null ? null : enc(b), a === null ? null : enc(a), c === null ? null : enc(c));
    return p.kind === 'conflict' ? p.why : p.kind;
  };
  assert.equal(kinds(null, 'made\n', 'made, edited\n'), 'the agent created it, and it has changed since');
  assert.equal(kinds('x\n', null, 'again\n'), 'the agent deleted it, and it was created again since');
  assert.equal(kinds('x\n', 'y\n', null), 'it was deleted after the agent changed it');
  assert.equal(kinds('x\u0000', 'y\u0000', 'z\u0000'), 'it is not text, and it has changed since the agent changed it');
});

test("what the agent left is known from the checkpoints: a later turn's snapshot, a saved edit between turns", async () => {
  const h = await harness();
  const f = join(h.ws, 'app.ts');
  writeFileSync(f, BASE);
  await clockPast(h.ws);
  await h.store.prepare();
  h.prompt();
  await h.write(f, TURN);
  await h.endTurn();
  assert.equal(await h.tracker.agentAfter(S, 0, f), undefined, 'nothing changed it since: the file is the agent’s');

  const settled = h.store.session(S).timeline.settled.get(0)!;
  await until(() => Date.now() > settled + 30, 1000, 'the clock past the end of the turn');
  const saved = TURN.replace('9\n', '9 (user)\n');
  writeFileSync(f, saved); // the user's edit, saved between turns
  await h.store.noteSaved(f);
  assert.equal(Buffer.from((await h.tracker.agentAfter(S, 0, f))!).toString(), TURN);

  h.prompt();
  const turn2 = saved.replace('5\n', 'five (turn 2)\n');
  await h.write(f, turn2);
  await h.endTurn();
  const after = await h.tracker.agentAfter(S, 0, f);
  assert.equal(Buffer.from(after!).toString(), TURN, 'still the agent’s of turn 1');
  assert.equal(await h.tracker.agentAfter(S, 1, f), undefined);

  // Undo of turn 1 now: the user's line and turn 2's stay.
  assert.deepEqual(planUndo(h.tracker.get(S, 0, f)!.before, after!, enc(turn2)), {
    kind: 'merge',
    text: BASE.replace('5\n', 'five (turn 2)\n').replace('9\n', '9 (user)\n'),
  });
});
