// The per-session comment store: pending until sent, sent with the lines it quoted, moved or
// outdated after a turn, kept in storage (a reload reads them back; damaged entries are dropped).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FeedbackComments, type FeedbackStorage } from '../../../src/review/feedbackComments';
import { anchorAt, locate } from '../../../src/review/lineAnchor';

/** Storage as workspaceState keeps it: a JSON round trip. */
function memoryStorage(initial?: unknown): FeedbackStorage & { value: unknown } {
  const s = {
    value: initial === undefined ? undefined : JSON.parse(JSON.stringify(initial)),
    get: () => s.value,
    set: (v: unknown) => void (s.value = JSON.parse(JSON.stringify(v))),
  };
  return s;
}

const DOC = ['a', 'b', 'c', 'd', 'e', 'f'];

function store(storage = memoryStorage()) {
  let n = 0;
  return new FeedbackComments(
    storage,
    () => `id${++n}`,
    () => 1000,
  );
}

test('comments count as pending per session until they are sent', () => {
  const s = store();
  s.add({ sessionId: 's1', path: '/w/b.ts', anchor: anchorAt(DOC, 3, 3), body: 'two' });
  s.add({ sessionId: 's1', path: '/w/a.ts', anchor: anchorAt(DOC, 1, 2), body: 'one' });
  s.add({ sessionId: 's2', path: '/w/a.ts', anchor: anchorAt(DOC, 0, 0), body: 'other session' });
  assert.deepEqual(
    [...s.pendingBySession()],
    [
      ['s1', 2],
      ['s2', 1],
    ],
  );
  assert.deepEqual(
    s.pending('s1').map((c) => c.notes[0].body),
    ['one', 'two'],
    'by file, then line',
  );
  s.markSent(new Map(s.pending('s1').map((c) => [c.id, c.anchor])));
  assert.deepEqual([...s.pendingBySession()], [['s2', 1]]);
  assert.deepEqual(
    s.ofSession('s1').map((c) => c.status),
    ['sent', 'sent'],
  );
});

test('after a turn a comment whose lines moved follows them; one whose lines changed is outdated with the new text', () => {
  const s = store();
  const moved = s.add({ sessionId: 's1', path: '/w/a.ts', anchor: anchorAt(DOC, 4, 4), body: 'e' });
  const changed = s.add({ sessionId: 's1', path: '/w/a.ts', anchor: anchorAt(DOC, 1, 1), body: 'b' });
  const now = ['a', 'B!', 'c', 'd', 'inserted', 'e', 'f'];
  s.relocate(moved.id, locate(moved.anchor, now));
  s.relocate(changed.id, locate(changed.anchor, now));
  assert.equal(s.get(moved.id)?.status, 'pending');
  assert.equal(s.get(moved.id)?.anchor.start, 5);
  assert.equal(s.get(changed.id)?.status, 'outdated');
  assert.deepEqual(s.get(changed.id)?.now, { kind: 'changed', start: 1, lines: ['B!'] });
  assert.equal(s.pendingBySession().get('s1'), 1, 'an outdated comment is not pending');
});

test('re-sending an outdated comment makes it pending again, quoting the lines as they are now', () => {
  const s = store();
  const c = s.add({ sessionId: 's1', path: '/w/a.ts', anchor: anchorAt(DOC, 1, 1), body: 'b' });
  const now = ['a', 'B!', 'c', 'd', 'e', 'f'];
  s.relocate(c.id, locate(c.anchor, now));
  s.resend(c.id, anchorAt(now, 1, 1));
  assert.equal(s.get(c.id)?.status, 'pending');
  assert.deepEqual(s.get(c.id)?.anchor.lines, ['B!']);
  assert.equal(s.get(c.id)?.now, undefined);
});

test('a reply to a sent comment is more to tell: it is pending again', () => {
  const s = store();
  const c = s.add({ sessionId: 's1', path: '/w/a.ts', anchor: anchorAt(DOC, 1, 1), body: 'first' });
  s.markSent(new Map([[c.id, c.anchor]]));
  s.reply(c.id, 'second');
  assert.equal(s.get(c.id)?.status, 'pending');
  assert.deepEqual(
    s.get(c.id)?.notes.map((n) => n.body),
    ['first', 'second'],
  );
});

test('deleting the last note removes the comment; resolving removes it too', () => {
  const s = store();
  const c = s.add({ sessionId: 's1', path: '/w/a.ts', anchor: anchorAt(DOC, 1, 1), body: 'first' });
  s.reply(c.id, 'second');
  const [first, second] = s.get(c.id)!.notes;
  assert.equal(s.deleteNote(c.id, first.id)?.notes.length, 1);
  assert.equal(s.deleteNote(c.id, second.id), undefined);
  assert.equal(s.all().length, 0);
  const d = s.add({ sessionId: 's1', path: '/w/a.ts', anchor: anchorAt(DOC, 2, 2), body: 'x' });
  s.remove(d.id);
  assert.equal(s.all().length, 0);
});

test('the comments survive a reload: a new store reads back what the old one wrote', () => {
  const storage = memoryStorage();
  const s = store(storage);
  const c = s.add({ sessionId: 's1', path: '/w/a.ts', anchor: anchorAt(DOC, 1, 2), body: 'keep me' });
  const o = s.add({ sessionId: 's1', path: '/w/a.ts', anchor: anchorAt(DOC, 4, 4), body: 'outdated' });
  s.relocate(o.id, locate(o.anchor, ['a', 'b', 'c', 'd', 'E', 'f']));
  const again = store(storage);
  assert.deepEqual(again.all(), s.all());
  assert.equal(again.get(c.id)?.notes[0].body, 'keep me');
  assert.deepEqual(again.get(o.id)?.now, { kind: 'changed', start: 4, lines: ['E'] });
});

test('damaged stored entries are dropped, the rest kept', () => {
  const storage = memoryStorage();
  const s = store(storage);
  s.add({ sessionId: 's1', path: '/w/a.ts', anchor: anchorAt(DOC, 1, 1), body: 'fine' });
  const good = (storage.value as unknown[])[0];
  const again = store(memoryStorage([good, { id: 'x' }, null, { ...(good as object), notes: [] }, 'junk']));
  assert.equal(again.all().length, 1);
  assert.equal(store(memoryStorage({ not: 'an array' })).all().length, 0);
});
