import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PromptQueues, type QueueStorage } from '../../../src/session/promptQueue';

/** Storage as workspaceState keeps it: a JSON round trip. */
function memoryStorage(initial?: unknown): QueueStorage & { value: unknown } {
  const s = {
    value: initial === undefined ? undefined : JSON.parse(JSON.stringify(initial)),
    get: () => s.value,
    set: (v: unknown) => {
      s.value = JSON.parse(JSON.stringify(v));
    },
  };
  return s;
}

function queues(storage = memoryStorage()) {
  let n = 0;
  return new PromptQueues(storage, () => `q${++n}`);
}

const texts = (q: PromptQueues, s = 's1') => q.get(s).items.map((x) => x.text);

test('queued prompts go out one per normal turn end, in the order they were queued', () => {
  const q = queues();
  q.add('s1', 'first');
  q.add('s1', 'second');
  assert.equal(q.turnEnded('s1', 'ended')?.text, 'first');
  assert.deepEqual(texts(q), ['second']);
  assert.equal(q.turnEnded('s1', 'ended')?.text, 'second');
  assert.equal(q.turnEnded('s1', 'ended'), undefined);
});

test('queues of different sessions are apart', () => {
  const q = queues();
  q.add('s1', 'for one');
  q.add('s2', 'for two');
  assert.equal(q.turnEnded('s2', 'ended')?.text, 'for two');
  assert.deepEqual(texts(q), ['for one']);
});

test('a queued prompt can be edited, keeping its attachments; empty text is refused', () => {
  const q = queues();
  const a = q.add('s1', 'look', [{ kind: 'file', path: '/w/a.ts' }]);
  const b = q.add('s1', 'plain');
  assert.ok(q.edit('s1', a.id, 'look closer'));
  assert.deepEqual(q.get('s1').items[0], {
    id: a.id,
    text: 'look closer',
    attachments: [{ kind: 'file', path: '/w/a.ts' }],
  });
  assert.equal(q.edit('s1', b.id, '   '), false);
  assert.equal(q.edit('s1', 'nope', 'x'), false);
  assert.deepEqual(texts(q), ['look closer', 'plain']);
});

test('a queued prompt can be removed and is then never sent', () => {
  const q = queues();
  const a = q.add('s1', 'a');
  q.add('s1', 'b');
  assert.ok(q.remove('s1', a.id));
  assert.equal(q.remove('s1', a.id), false);
  assert.equal(q.turnEnded('s1', 'ended')?.text, 'b');
});

test('reordering changes the order they are sent in; positions are clamped', () => {
  const q = queues();
  q.add('s1', 'a');
  q.add('s1', 'b');
  const c = q.add('s1', 'c');
  assert.ok(q.move('s1', c.id, 0));
  assert.deepEqual(texts(q), ['c', 'a', 'b']);
  assert.ok(q.move('s1', c.id, 99));
  assert.deepEqual(texts(q), ['a', 'b', 'c']);
  assert.ok(q.move('s1', c.id, -5));
  assert.equal(q.turnEnded('s1', 'ended')?.text, 'c');
  assert.equal(q.turnEnded('s1', 'ended')?.text, 'a');
});

test('after a cancel the queue is held until the user says Send, then goes on normally', () => {
  const q = queues();
  q.add('s1', 'a');
  q.add('s1', 'b');
  assert.equal(q.turnEnded('s1', 'cancelled'), undefined);
  assert.deepEqual(q.get('s1'), { items: q.get('s1').items, held: true });
  assert.equal(q.turnEnded('s1', 'ended'), undefined, 'a later turn does not release it either');
  assert.equal(q.release('s1', true)?.text, 'a');
  assert.equal(q.get('s1').held, false);
  assert.equal(q.turnEnded('s1', 'ended')?.text, 'b');
});

test('Send on a held queue while another turn runs waits for that turn to end', () => {
  const q = queues();
  q.add('s1', 'a');
  q.turnEnded('s1', 'cancelled');
  assert.equal(q.release('s1', false), undefined);
  assert.deepEqual(texts(q), ['a']);
  assert.equal(q.turnEnded('s1', 'ended')?.text, 'a');
});

test('a failed turn holds the queue as a cancel does', () => {
  const q = queues();
  q.add('s1', 'a');
  assert.equal(q.turnEnded('s1', 'failed'), undefined);
  assert.equal(q.get('s1').held, true);
});

test('"send now" by cancelling sends that prompt when the cancelled turn ends, then the rest in order', () => {
  const q = queues();
  q.add('s1', 'a');
  const b = q.add('s1', 'b');
  assert.ok(q.sendAfterCancel('s1', b.id));
  assert.equal(q.turnEnded('s1', 'cancelled')?.text, 'b');
  assert.equal(q.turnEnded('s1', 'ended')?.text, 'a');
});

test('the queue survives a reload: same prompts, same order, held until Send', () => {
  const storage = memoryStorage();
  const before = queues(storage);
  before.add('s1', 'a', [{ kind: 'selection', path: '/w/a.ts', startLine: 1, endLine: 2 }]);
  const b = before.add('s1', 'b');
  before.move('s1', b.id, 0);
  const after = queues(memoryStorage(storage.value));
  assert.deepEqual(texts(after), ['b', 'a']);
  assert.deepEqual(after.get('s1').items[1].attachments, [
    { kind: 'selection', path: '/w/a.ts', startLine: 1, endLine: 2 },
  ]);
  assert.equal(after.get('s1').held, true);
  assert.equal(after.turnEnded('s1', 'ended'), undefined);
  assert.equal(after.release('s1', true)?.text, 'b');
});

test('malformed stored data is left out, the rest is kept', () => {
  const q = queues(
    memoryStorage({
      s1: {
        items: [
          { id: 'x', text: 'good' },
          { id: 3, text: 'bad id' },
          { id: 'y', text: 't', attachments: [{ kind: 'evil' }] },
        ],
      },
      s2: 'nonsense',
      s3: { items: [] },
    }),
  );
  assert.deepEqual(texts(q), ['good']);
  assert.deepEqual(q.get('s2').items, []);
  assert.deepEqual(queues(memoryStorage([1, 2])).get('s1').items, []);
});

test('every change is saved and announced; an emptied queue is no longer stored', () => {
  const storage = memoryStorage();
  const q = queues(storage);
  const seen: string[] = [];
  q.onDidChange((s) => seen.push(s));
  const a = q.add('s1', 'a');
  assert.deepEqual(storage.value, { s1: { items: [{ id: a.id, text: 'a' }], held: false } });
  q.remove('s1', a.id);
  assert.deepEqual(storage.value, {});
  assert.deepEqual(seen, ['s1', 's1']);
});

test('a prompt that could not be sent goes back to the front', () => {
  const q = queues();
  q.add('s1', 'a');
  const b = q.add('s1', 'b');
  const taken = q.take('s1', b.id)!;
  q.putFirst('s1', taken);
  assert.deepEqual(texts(q), ['b', 'a']);
});
