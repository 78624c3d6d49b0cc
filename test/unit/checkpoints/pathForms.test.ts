// One name per file: a path under a workspace folder opened through a symlink is recorded under
// the folder's real path, and shown again under the folder's own for the editor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PathForms } from '../../../src/checkpoints/pathForms';

const real: Record<string, string> = { '/tmp/ws': '/private/tmp/ws', '/home/me/code': '/Volumes/data/code' };
const forms = () => new PathForms(['/tmp/ws', '/home/me/code', '/srv/plain'], (p) => real[p] ?? p);

test("a path under a folder's symlinked form becomes the real one, and back for the editor", () => {
  const f = forms();
  assert.deepEqual(f.realRoots, ['/private/tmp/ws', '/Volumes/data/code', '/srv/plain']);
  assert.equal(f.canonical('/tmp/ws/src/a.ts'), '/private/tmp/ws/src/a.ts');
  assert.equal(f.canonical('/tmp/ws'), '/private/tmp/ws');
  assert.equal(f.canonical('/home/me/code/x'), '/Volumes/data/code/x');
  assert.equal(f.display('/private/tmp/ws/src/a.ts'), '/tmp/ws/src/a.ts');
  assert.equal(f.display('/Volumes/data/code/x'), '/home/me/code/x');
});

test('paths already real, outside every folder, or in a folder opened by its real path stay as they are', () => {
  const f = forms();
  assert.equal(f.canonical('/private/tmp/ws/a'), '/private/tmp/ws/a');
  assert.equal(f.canonical('/tmp/wsx/a'), '/tmp/wsx/a', 'a sibling whose name starts the same is not inside');
  assert.equal(f.canonical('/etc/hosts'), '/etc/hosts');
  assert.equal(f.canonical('/srv/plain/a'), '/srv/plain/a');
  assert.equal(f.display('/etc/hosts'), '/etc/hosts');
});
