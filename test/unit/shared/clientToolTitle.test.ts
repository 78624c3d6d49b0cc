// How a call of Tandem's client tools is titled before Tandem has seen it: the agent's own row
// names the MCP tool (`mcp__tandem__IDE`), and reads like the finished call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientCallOfMcpName, clientToolTitleText } from '../../../src/shared/clientToolTitle';

test("an agent's pending row for the MCP container reads like the finished call", () => {
  const viaContainer = clientCallOfMcpName('mcp__tandem__IDE', {
    function: 'OpenFile',
    arguments: { path: 'src/a.ts', line: 3 },
  });
  assert.equal(viaContainer && clientToolTitleText(viaContainer), 'IDE · OpenFile src/a.ts:3');
  const direct = clientCallOfMcpName('mcp__tandem__OpenFile', { path: 'src/a.ts' });
  assert.equal(direct && clientToolTitleText(direct), 'Tandem · OpenFile src/a.ts');
  assert.equal(clientCallOfMcpName('mcp__acp__Read', {}), undefined, 'only Tandem’s own server');
  assert.equal(clientCallOfMcpName('Bash', { command: 'ls' }), undefined);
});

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
