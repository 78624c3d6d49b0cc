import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChangeTracker } from '../../../src/client/changes/changeTracker';

const b = (s: string) => new TextEncoder().encode(s);

test('first snapshot of a turn wins; later turns get their own', () => {
  const t = new ChangeTracker();
  t.snapshot('s', 0, '/a', b('one'), { source: 'write' });
  t.markApplied('s', 0, '/a');
  t.snapshot('s', 0, '/a', b('two'), { source: 'write' });
  assert.equal(new TextDecoder().decode(t.get('s', 0, '/a')!.before!), 'one');
  assert.equal(t.needsSnapshot('s', 0, '/a'), false);
  assert.equal(t.needsSnapshot('s', 1, '/a'), true);
  t.snapshot('s', 1, '/a', b('two'), { source: 'write' });
  t.markApplied('s', 1, '/a');
  assert.deepEqual(
    t.allTurns('s').map((x) => x.turn),
    [1, 0],
  );
});

test('only applied changes are listed; forget drops an unapplied one', () => {
  const t = new ChangeTracker();
  t.snapshot('s', 0, '/a', null, { source: 'diff' });
  assert.equal(t.changes('s', 0).length, 0);
  t.forget('s', 0, '/a');
  assert.equal(t.get('s', 0, '/a'), undefined);
  t.snapshot('s', 0, '/b', null, { source: 'diff', applied: true });
  t.forget('s', 0, '/b');
  assert.equal(t.changes('s', 0).length, 1, 'an applied change is never forgotten');
});

test('an exact snapshot replaces an inexact one only before it was applied', () => {
  const t = new ChangeTracker();
  t.snapshot('s', 0, '/a', b('frag'), { source: 'diff', exact: false });
  t.snapshot('s', 0, '/a', b('whole file'), { source: 'diff', exact: true, toolCallId: 'x' });
  assert.equal(t.get('s', 0, '/a')!.exact, true);
  assert.deepEqual(t.get('s', 0, '/a')!.toolCallIds, ['x']);
  t.snapshot('s', 0, '/c', b('old'), { source: 'diff', exact: false, applied: true });
  t.snapshot('s', 0, '/c', b('newer'), { source: 'diff', exact: true });
  assert.equal(new TextDecoder().decode(t.get('s', 0, '/c')!.before!), 'old');
});

test('keep / revert state; a new change makes the file pending again; events fire', () => {
  const t = new ChangeTracker();
  let events = 0;
  t.onDidChange(() => events++);
  t.snapshot('s', 0, '/a', b('x'), { source: 'write' });
  t.markApplied('s', 0, '/a');
  t.setState('s', 0, '/a', 'reverted');
  assert.equal(t.get('s', 0, '/a')!.state, 'reverted');
  t.markApplied('s', 0, '/a');
  assert.equal(t.get('s', 0, '/a')!.state, 'pending');
  assert.ok(events >= 4);
});

test('the snapshot is a copy, and old turns are dropped past the cap', () => {
  const t = new ChangeTracker(2);
  const bytes = b('abc');
  t.snapshot('s', 0, '/a', bytes, { source: 'write', applied: true });
  bytes[0] = 0x7a;
  assert.equal(new TextDecoder().decode(t.get('s', 0, '/a')!.before!), 'abc');
  t.snapshot('s', 1, '/a', bytes, { source: 'write', applied: true });
  t.snapshot('s', 2, '/a', bytes, { source: 'write', applied: true });
  assert.equal(t.get('s', 0, '/a'), undefined);
  assert.equal(t.allTurns().length, 2);
});

test('a journal is told every entry as it changes, and loaded entries come back without being journaled again', () => {
  const t = new ChangeTracker();
  const seen: string[] = [];
  t.setJournal({
    record: (s, turn, path, e) => seen.push(`${turn}:${path}:${e ? `${e.state}/${e.applied}` : 'gone'}`),
  });
  t.snapshot('s', 0, '/a', b('x'), { source: 'write' });
  t.markApplied('s', 0, '/a');
  t.setState('s', 0, '/a', 'kept');
  t.snapshot('s', 0, '/b', null, { source: 'diff' });
  t.forget('s', 0, '/b');
  assert.deepEqual(seen, [
    '0:/a:pending/false',
    '0:/a:pending/true',
    '0:/a:kept/true',
    '0:/b:pending/false',
    '0:/b:gone',
  ]);
  const u = new ChangeTracker();
  u.setJournal({ record: () => assert.fail('loading is not a change') });
  u.load([t.get('s', 0, '/a')!]);
  assert.equal(u.changes('s', 0)[0].state, 'kept');
  u.removeSession('s');
  assert.equal(u.allTurns().length, 0);
});

test('past the byte cap the oldest turns lose their bytes first, stay listed, and read back from the journal', () => {
  const t = new ChangeTracker(50, 1000);
  const stored = new Map<string, Uint8Array>();
  t.setJournal({
    record: (s, turn, path, e) => void (e?.before && stored.set(`${turn}:${path}`, new Uint8Array(e.before))),
    readBefore: (s, turn, path) => stored.get(`${turn}:${path}`)!,
  });
  for (let turn = 0; turn < 3; turn++)
    t.snapshot('s', turn, '/f', new Uint8Array(600).fill(65 + turn), { source: 'write', applied: true });
  assert.ok(t.heldBytes <= 1000, `${t.heldBytes} bytes held`);
  assert.equal(t.get('s', 0, '/f')!.dropped, true, 'the oldest turn went first');
  assert.equal(t.get('s', 1, '/f')!.dropped, true);
  assert.equal(t.get('s', 2, '/f')!.dropped, undefined, 'the newest keeps its bytes');
  assert.deepEqual(
    t.allTurns('s').map((x) => x.turn),
    [2, 1, 0],
    'every turn is still listed',
  );
  assert.equal(t.get('s', 0, '/f')!.before![0], 65, 'read back when asked');
  t.setState('s', 0, '/f', 'kept');
  assert.equal(t.get('s', 0, '/f')!.dropped, true, 'a state change does not load the bytes back');
  assert.ok(t.heldBytes <= 1000);
});

test('without a journal a dropped snapshot says it is gone instead of reading as empty', () => {
  const t = new ChangeTracker(50, 100);
  t.snapshot('s', 0, '/old', new Uint8Array(80), { source: 'write', applied: true });
  t.snapshot('s', 1, '/new', new Uint8Array(80), { source: 'write', applied: true });
  const old = t.get('s', 0, '/old')!;
  assert.equal(old.dropped, true);
  assert.throws(() => old.before, /is gone: it was dropped to keep memory bounded/);
  assert.equal(t.changes('s', 0).length, 1, 'still listed');
});
