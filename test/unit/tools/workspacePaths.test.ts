import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as nodePath from 'node:path';
import { displayPath, resolveInputPath } from '../../../src/tools/workspace/workspacePaths';

const A = nodePath.resolve('/ws/api');
const B = nodePath.resolve('/ws/web');
const one = [{ name: 'api', path: A }];
const two = [...one, { name: 'web', path: B }];

test('results name files workspace-relative with /, absolute outside, URIs as they are', () => {
  assert.equal(displayPath(nodePath.join(A, 'src', 'a.ts'), one), 'src/a.ts');
  assert.equal(displayPath(A, one), '.');
  assert.equal(displayPath(nodePath.resolve('/etc/hosts'), one), nodePath.resolve('/etc/hosts'));
  assert.equal(displayPath(nodePath.resolve('/ws/api-other/x.ts'), one), nodePath.resolve('/ws/api-other/x.ts'));
  assert.equal(displayPath('untitled://Untitled-1', one), 'untitled://Untitled-1');
  // Multi-root: the folder's name first, as VS Code shows it.
  assert.equal(displayPath(nodePath.join(B, 'index.ts'), two), 'web/index.ts');
});

test('paths in calls: relative to the folder (or the named folder), absolute, or a URI', () => {
  assert.equal(resolveInputPath('src/a.ts', one), nodePath.join(A, 'src', 'a.ts'));
  assert.equal(resolveInputPath('./src\\a.ts', one), nodePath.join(A, 'src', 'a.ts'));
  assert.equal(resolveInputPath(nodePath.resolve('/tmp/x.ts'), one), nodePath.resolve('/tmp/x.ts'));
  assert.equal(resolveInputPath('file:///tmp/x.ts', one), 'file:///tmp/x.ts');
  assert.equal(resolveInputPath('web/index.ts', two), nodePath.join(B, 'index.ts'));
  assert.equal(resolveInputPath('src/a.ts', two), nodePath.join(A, 'src', 'a.ts'));
  assert.throws(() => resolveInputPath('a.ts', []), /"a\.ts" is relative and no workspace folder is open/);
  // What comes out goes back in.
  assert.equal(resolveInputPath(displayPath(nodePath.join(B, 'x', 'y.ts'), two), two), nodePath.join(B, 'x', 'y.ts'));
});

test('a file whose name starts with two dots is inside its folder, as everywhere else in Tandem', () => {
  assert.equal(displayPath(nodePath.join(A, '..foo'), one), '..foo');
  assert.equal(displayPath(nodePath.join(A, '..', 'foo'), one), nodePath.resolve('/ws/foo'));
});
