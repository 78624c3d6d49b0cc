import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeHunks, decodeExact, FileReview, splitLines } from '../../../src/checkpoints/hunks';

const before = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'].map((l) => `${l}\n`).join('');
const twoHunks = before.replace('two\n', 'TWO\n').replace('seven\n', 'SEVEN\nseven and a half\n');

test('two separate changes are two hunks with their line ranges and lines', () => {
  const hunks = computeHunks(before, twoHunks);
  assert.deepEqual(hunks, [
    { oldStart: 1, oldLines: ['two\n'], newStart: 1, newLines: ['TWO\n'] },
    { oldStart: 6, oldLines: ['seven\n'], newStart: 6, newLines: ['SEVEN\n', 'seven and a half\n'] },
  ]);
  assert.deepEqual(computeHunks(before, before), []);
});

test('undoing one of two hunks leaves the other intact', () => {
  const r = new FileReview('/f.txt', before, twoHunks);
  const edit = r.undo(1);
  assert.deepEqual(edit, { startLine: 6, endLine: 8, text: 'seven\n' });
  assert.equal(r.current, before.replace('two\n', 'TWO\n'));
  assert.equal(r.hunks.length, 1);
  assert.deepEqual(r.hunks[0].newLines, ['TWO\n']);
  assert.equal(r.state, 'pending');
  r.undo(0);
  assert.equal(r.current, before);
  assert.equal(r.state, 'undone');
});

test('a kept hunk stops being pending; undoing the other then leaves the kept one in the file', () => {
  const r = new FileReview('/f.txt', before, twoHunks);
  r.keep(0);
  assert.equal(r.hunks.length, 1, 'only the second is pending');
  assert.deepEqual(r.hunks[0].newLines, ['SEVEN\n', 'seven and a half\n']);
  r.undo(0);
  assert.equal(r.current, before.replace('two\n', 'TWO\n'));
  assert.equal(r.hunks.length, 0);
  assert.equal(r.state, 'kept', 'what is left differs from the original and was kept');
});

test('keep all and undo all: undo all leaves kept hunks in place', () => {
  const all = new FileReview('/f.txt', before, twoHunks);
  all.keepAll();
  assert.equal(all.state, 'kept');
  assert.equal(all.current, twoHunks);
  const some = new FileReview('/f.txt', before, twoHunks);
  some.keep(1);
  assert.equal(some.undoAll(), before.replace('seven\n', 'SEVEN\nseven and a half\n'));
  assert.equal(some.state, 'kept');
  assert.throws(() => some.undo(0), /no pending change number 1/);
});

test('CRLF lines and a last line without a newline come back byte for byte', () => {
  const crlf = 'a\r\nb\r\nc\r\nd\r\ne';
  const changed = 'a\r\nB\r\nc\r\nd\r\nE and more';
  const r = new FileReview('/w.txt', crlf, changed);
  assert.equal(r.hunks.length, 2);
  r.undo(0);
  assert.equal(r.current, 'a\r\nb\r\nc\r\nd\r\nE and more');
  r.undo(0);
  assert.equal(r.current, crlf);
  assert.deepEqual(splitLines('x\r\ny'), ['x\r\n', 'y']);
  // Only the line endings changed: that is a change too, and undoing it restores them.
  const lf = new FileReview('/w.txt', 'p\r\nq\r\n', 'p\nq\n');
  assert.equal(lf.hunks.length, 1);
  lf.undo(0);
  assert.equal(lf.current, 'p\r\nq\r\n');
});

test('a new text after more edits recomputes the hunks; huge rewrites stay one bounded hunk', () => {
  const r = new FileReview('/f.txt', before, twoHunks);
  r.update(before.replace('eight\n', 'EIGHT\n'));
  assert.deepEqual(
    r.hunks.map((h) => h.newLines),
    [['EIGHT\n']],
  );
  const a = Array.from({ length: 6000 }, (_, i) => `a${i}\n`).join('');
  const b = Array.from({ length: 6000 }, (_, i) => `b${i}\n`).join('');
  const hunks = computeHunks(a, b);
  assert.equal(hunks.length, 1);
  assert.equal(hunks[0].oldLines.length, 6000);
});

test('binary bytes are not text for the hunk model; UTF-8 with a BOM is', () => {
  assert.equal(decodeExact(new Uint8Array([0x89, 0x50, 0x00, 0x01])), undefined);
  assert.equal(decodeExact(new Uint8Array([0xff, 0xfe, 0x41])), undefined);
  assert.equal(decodeExact(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69])), '\ufeffhi');
});

test('a hunk longer than a call may take arguments is kept and undone (no spread into a call)', () => {
  const a = Array.from({ length: 200_000 }, (_, i) => `a${i}\n`).join('');
  const b = Array.from({ length: 200_000 }, (_, i) => `b${i}\n`).join('');
  const undo = new FileReview('/big.txt', a, b);
  assert.equal(undo.hunks.length, 1, 'past the bound: one hunk');
  undo.undo(0);
  assert.equal(undo.current, a);
  const keep = new FileReview('/big.txt', a, b);
  keep.keep(0);
  assert.equal(keep.baseline, b);
  assert.equal(keep.state, 'kept');
});
