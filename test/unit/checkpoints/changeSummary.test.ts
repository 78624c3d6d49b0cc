import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summarizeChange } from '../../../src/checkpoints/changeSummary';

const bytes = (s: string) => new TextEncoder().encode(s);

test('a modified file counts the lines added and removed by the line diff', () => {
  assert.deepEqual(summarizeChange(bytes('a\nb\nc\n'), bytes('a\nB\nc\nd\n')), {
    kind: 'modified',
    added: 2,
    removed: 1,
  });
  assert.deepEqual(summarizeChange(bytes('same\n'), bytes('same\n')), { kind: 'modified', added: 0, removed: 0 });
});

test('a created file is all added lines, a deleted one all removed', () => {
  assert.deepEqual(summarizeChange(null, bytes('x\ny\n')), { kind: 'created', added: 2, removed: 0 });
  assert.deepEqual(summarizeChange(bytes('x\n'), null), { kind: 'deleted', added: 0, removed: 1 });
});

test('binary content has no line counts', () => {
  assert.deepEqual(summarizeChange(new Uint8Array([0, 1, 2]), bytes('x')), { kind: 'modified' });
});
