import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientToolTitleText } from '../../../src/shared/clientToolTitle';

test('a client tool call is titled by its group, function and what it is about', () => {
  assert.equal(
    clientToolTitleText({ group: 'IDE', tool: 'OpenFile', args: { path: 'src/a.ts', line: 3 } }),
    'IDE · OpenFile src/a.ts:3',
  );
  assert.equal(
    clientToolTitleText({ group: 'Code', tool: 'Rename', args: { path: 'src/a.ts', line: 9, newName: 'b' } }),
    'Code · Rename src/a.ts:9',
  );
  // A task by its name, a symbol search by its query (the permission prompt says which).
  assert.equal(
    clientToolTitleText({ group: 'Workspace', tool: 'RunTask', args: { name: 'build' } }),
    'Workspace · RunTask build',
  );
  assert.equal(
    clientToolTitleText({ group: 'Code', tool: 'WorkspaceSymbols', args: { query: 'Area' } }),
    'Code · WorkspaceSymbols Area',
  );
  assert.equal(clientToolTitleText({ group: 'Workspace', tool: 'GetProblems', args: {} }), 'Workspace · GetProblems');
  assert.equal(clientToolTitleText({ group: 'Code', tool: 'Code', kind: 'container' }), 'Code · expand group');
});
