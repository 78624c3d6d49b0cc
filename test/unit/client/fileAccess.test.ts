// Files outside the workspace: "Allow for this session" means that session, not every session
// of the agent's connection.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileAccess } from '../../../src/client/files/fileAccess';
import { FakePermission, fakeWorkspace, nodeFs } from './fakePorts';

test('"Allow for this session" for a file outside the workspace lasts for that session only', async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-access-')));
  const ws = join(root, 'ws');
  mkdirSync(ws);
  const outside = join(root, 'notes.txt');
  writeFileSync(outside, 'x');
  const permission = new FakePermission('allow_always');
  const access = new FileAccess({ fs: nodeFs, workspace: fakeWorkspace(ws), permission }, ws);
  const option = (n: number) => permission.asked[n].options.find((o) => o.optionId === 'allow_always')?.name;

  await access.check('s1', outside, outside, 'read');
  assert.equal(permission.asked.length, 1);
  assert.equal(option(0), 'Allow for this session');
  await access.check('s1', outside, outside, 'read');
  assert.equal(permission.asked.length, 1, 'the same session is not asked again');

  permission.answer = 'reject_once';
  await assert.rejects(access.check('s2', outside, outside, 'read'), /did not allow reading/);
  assert.equal(permission.asked.length, 2, 'another session of the same connection asks');
  assert.equal(permission.asked[1].sessionId, 's2');
});

test('the question about a file outside says which inside it is outside of: the workspace, or the session’s worktree', async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-access-')));
  const ws = join(root, 'ws');
  mkdirSync(ws);
  const outside = join(root, 'notes.txt');
  writeFileSync(outside, 'x');
  const permission = new FakePermission('allow_once');
  const place = { cwd: join(root, 'wt'), label: 'tandem/fix' };
  const access = new FileAccess({ fs: nodeFs, workspace: fakeWorkspace(ws), permission }, ws, (sid) =>
    sid === 'wt' ? place : undefined,
  );
  await access.check('s1', outside, outside, 'read');
  await access.check('wt', outside, outside, 'write');
  assert.deepEqual(
    permission.asked.map((a) => a.toolCall.rawInput),
    [
      { path: outside, resolvedPath: outside, access: 'read', outside: 'workspace' },
      { path: outside, resolvedPath: outside, access: 'write', outside: 'worktree' },
    ],
  );
});
