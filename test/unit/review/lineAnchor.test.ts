// Outdated detection: a comment keeps the text of its lines; after the agent's turn they are
// looked for again — unchanged, moved by lines added above, changed, or deleted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anchorAt, isOutdated, locate } from '../../../src/review/lineAnchor';

const FILE = ['import x;', '', 'function f() {', '  return 1;', '}', '', 'function g() {', '  return 2;', '}'];

test('unchanged lines: the comment holds where it was', () => {
  const a = anchorAt(FILE, 2, 4);
  assert.deepEqual(a.lines, ['function f() {', '  return 1;', '}']);
  const l = locate(a, [...FILE]);
  assert.deepEqual(l, { kind: 'same', start: 2 });
  assert.equal(isOutdated(l), false);
});

test('lines moved down by lines added above: the comment follows them and is not outdated', () => {
  const a = anchorAt(FILE, 6, 8);
  const now = ['import x;', 'import y;', 'import z;', ...FILE.slice(1)];
  assert.deepEqual(locate(a, now), { kind: 'same', start: 8 });
});

test('lines moved up by lines removed above: the comment follows them', () => {
  const a = anchorAt(FILE, 6, 8);
  const now = FILE.slice(2);
  assert.deepEqual(locate(a, now), { kind: 'same', start: 4 });
});

test('a lone common line elsewhere is not taken for the commented one', () => {
  const a = anchorAt(FILE, 4, 4); // the first '}'
  const now = [...FILE.slice(0, 4), '};', ...FILE.slice(5)];
  const l = locate(a, now);
  assert.deepEqual(l, { kind: 'changed', start: 4, lines: ['};'] }, 'not moved to the other "}"');
  assert.equal(isOutdated(l), true);
});

test('changed lines: outdated, with the text that stands there now', () => {
  const a = anchorAt(FILE, 3, 3);
  const now = [...FILE.slice(0, 3), '  const v = compute();', '  return v;', ...FILE.slice(4)];
  assert.deepEqual(locate(a, now), { kind: 'changed', start: 3, lines: ['  const v = compute();', '  return v;'] });
});

test('changed lines that also moved: the new text is found between the old neighbours', () => {
  const a = anchorAt(FILE, 7, 7);
  const now = ['// header', ...FILE.slice(0, 7), '  return 3;', '}'];
  assert.deepEqual(locate(a, now), { kind: 'changed', start: 8, lines: ['  return 3;'] });
});

test('deleted lines: outdated, with nothing standing where they were', () => {
  const a = anchorAt(FILE, 3, 3);
  const now = [...FILE.slice(0, 3), ...FILE.slice(4)];
  const l = locate(a, now);
  assert.deepEqual(l, { kind: 'deleted', start: 3 });
  assert.equal(isOutdated(l), true);
});

test('lines at the top and the end of the file are found by their one-sided neighbours', () => {
  const top = anchorAt(FILE, 0, 0);
  assert.deepEqual(top.before, []);
  assert.deepEqual(locate(top, ['import w;', ...FILE.slice(1)]), { kind: 'changed', start: 0, lines: ['import w;'] });
  const end = anchorAt(FILE, 8, 8);
  assert.deepEqual(end.after, []);
  assert.deepEqual(locate(end, FILE.slice(0, 8)), { kind: 'deleted', start: 8 });
});

test('a deleted file makes the comment outdated', () => {
  assert.deepEqual(locate(anchorAt(FILE, 2, 2), null), { kind: 'fileGone' });
});
