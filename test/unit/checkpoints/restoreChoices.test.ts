import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as nodePath from 'node:path';
import { labelOf, type RestoreFile, type RestorePlan } from '../../../src/checkpoints/restore';
import { restoreChoices, restoreFileItems, restoreSummary } from '../../../src/checkpoints/restoreChoices';

const file = (label: string, action: RestoreFile['action'], extra: Partial<RestoreFile> = {}): RestoreFile => ({
  path: `/ws/${label}`,
  label,
  target: action === 'delete' ? null : 'abc',
  action,
  unsaved: false,
  ...extra,
});
const plan = (files: RestoreFile[]): RestorePlan => ({
  sessionId: 's',
  checkpoint: { id: 0, kind: 'prompt', turn: 0, at: 1 },
  title: 'before prompt 1',
  files,
  conflicts: files.filter((f) => f.unsaved && (f.action === 'write' || f.action === 'delete')).map((f) => f.path),
});

test('without unsaved edits the first choice restores every file, and the list says what happens to each', () => {
  const p = plan([file('a.ts', 'write'), file('new.ts', 'delete'), file('same.ts', 'unchanged')]);
  assert.deepEqual(
    restoreChoices(p).map((c) => [c.choice, c.label]),
    [
      ['restore', '$(history) Restore 2 files to before prompt 1'],
      ['cancel', '$(close) Cancel'],
    ],
  );
  assert.deepEqual(
    restoreFileItems(p).map((f) => [f.label, f.description]),
    [
      ['$(diff-modified) a.ts', 'restored'],
      ['$(diff-removed) new.ts', 'deleted (created after this point)'],
    ],
    'a file that is already as it was is not listed',
  );
});

test('unsaved edits are never the default: the first choice skips them, overwriting is a choice of its own', () => {
  const p = plan([file('a.ts', 'write'), file('b.ts', 'write', { unsaved: true })]);
  const choices = restoreChoices(p);
  assert.equal(choices[0].choice, 'restore');
  assert.match(choices[0].label, /Restore 1 file /);
  assert.match(choices[0].detail!, /Skips 1 file with unsaved edits/);
  assert.equal(choices[1].choice, 'overwrite');
  assert.match(choices[1].label, /discard your unsaved edits/);
  assert.equal(restoreFileItems(p)[1].description, 'restored · has unsaved edits');
});

test('when every file to restore has unsaved edits, there is no silent choice at all', () => {
  const p = plan([file('b.ts', 'write', { unsaved: true })]);
  assert.deepEqual(
    restoreChoices(p).map((c) => c.choice),
    ['overwrite', 'cancel'],
  );
});

test('files that cannot be restored are listed with the reason', () => {
  const p = plan([file('big.bin', 'cannot', { target: { tooBig: 9 }, reason: 'too big to keep' })]);
  assert.deepEqual(restoreFileItems(p)[0].description, 'cannot be restored: too big to keep');
  assert.deepEqual(
    restoreChoices(p).map((c) => c.choice),
    ['cancel'],
  );
});

test('the summary names what was left alone and what failed', () => {
  assert.equal(
    restoreSummary('before prompt 1', {
      restored: ['/ws/a'],
      skipped: [{ reason: 'b.ts has unsaved changes in an editor' }],
      failed: [],
    }),
    'Restored 1 file to before prompt 1. Left alone: b.ts has unsaved changes in an editor.',
  );
});

test('a restored file whose name starts with two dots is labelled relative to its folder', () => {
  const root = nodePath.resolve('/ws');
  assert.equal(labelOf([root], nodePath.join(root, '..env')), '..env');
  assert.equal(labelOf([root], nodePath.join(root, 'src', 'a.ts')), 'src/a.ts');
  assert.equal(labelOf([root], nodePath.resolve('/etc/hosts')), nodePath.resolve('/etc/hosts'));
});
