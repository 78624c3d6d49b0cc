// How a call of Tandem's client tools is titled before Tandem has seen it: the agent's own row
// names the MCP tool (`mcp__tandem__IDE`), and reads like the finished call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BUILT_IN_GROUPS,
  clientCallOfMcpName,
  clientCallQuestion,
  clientToolTitleText,
} from '../../../src/shared/clientToolTitle';
import { codeToolGroup } from '../../../src/tools/code/codeTools';
import { workspaceToolGroup } from '../../../src/tools/workspace/workspaceTools';
import { repoRoot } from '../../support/paths';
import { FakeCodePort } from '../tools/fakeCodePort';

test("an agent's pending row for the MCP container reads like the finished call", () => {
  const viaContainer = clientCallOfMcpName('mcp__tandem__IDE', {
    function: 'OpenFile',
    arguments: { path: 'src/a.ts', line: 3 },
  });
  assert.equal(viaContainer && clientToolTitleText(viaContainer), 'IDE · OpenFile src/a.ts:3');
  const direct = clientCallOfMcpName('mcp__tandem__acme_reverse', { path: 'src/a.ts' });
  assert.equal(direct && clientToolTitleText(direct), 'Tandem · acme_reverse src/a.ts');
  assert.equal(clientCallOfMcpName('mcp__acp__Read', {}), undefined, 'only Tandem’s own server');
  assert.equal(clientCallOfMcpName('Bash', { command: 'ls' }), undefined);
});

test("codex-acp's pending row (`mcp.tandem.IDE`, input `{server, tool, arguments}`) reads like the finished call", () => {
  // As codex-acp 2.6.0 sends them (tool_call and the request_permission about it).
  const open = clientCallOfMcpName('mcp.tandem.IDE', {
    server: 'tandem',
    tool: 'IDE',
    arguments: { function: 'OpenFile', arguments: { path: 'src/a.ts', line: 3 } },
  });
  assert.equal(open && clientToolTitleText(open), 'IDE · OpenFile src/a.ts:3');
  const expand = clientCallOfMcpName('mcp.tandem.IDE', { server: 'tandem', tool: 'IDE', arguments: {} });
  assert.equal(expand && clientToolTitleText(expand), 'IDE · expand group');
  const direct = clientCallOfMcpName('mcp.tandem.FindReferences', {
    server: 'tandem',
    tool: 'FindReferences',
    arguments: { path: 'src/a.ts', line: 3 },
  });
  assert.equal(direct && clientToolTitleText(direct), 'Code · FindReferences src/a.ts:3');
  const other = { server: 'github', tool: 'IDE', arguments: {} };
  assert.equal(clientCallOfMcpName('mcp.github.IDE', other), undefined, 'only Tandem’s own server');
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

test("an agent's pending row for a shipped group's container reads as Tandem's row will: expand group", () => {
  const expand = clientCallOfMcpName('mcp__tandem__Code', {});
  assert.equal(expand && clientToolTitleText(expand), 'Code · expand group');
  assert.equal(clientToolTitleText({ group: 'Code', tool: 'Code', kind: 'container' }), 'Code · expand group');
  // A name Tandem does not ship may be a tool called directly: it does not say its group.
  const other = clientCallOfMcpName('mcp__tandem__Deploy', {});
  assert.equal(other && clientToolTitleText(other), 'Tandem · Deploy');
});

test('the shipped groups and tools named here are the ones Tandem registers', () => {
  const ide = readFileSync(join(repoRoot, 'src/vscode/clientTools/ideTools.ts'), 'utf8');
  const [group, ...tools] = [...ide.matchAll(/^\s*name: '([^']+)',$/gm)].map((m) => m[1]);
  const shipped = [
    codeToolGroup(new FakeCodePort()),
    workspaceToolGroup({} as Parameters<typeof workspaceToolGroup>[0]),
  ].map((g) => [g.name, g.tools.map((t) => t.name)]);
  assert.deepEqual(Object.fromEntries([[group, tools], ...shipped]), BUILT_IN_GROUPS);
});

test("a shipped tool called directly is named in its group, as Tandem's row will name it", () => {
  const direct = clientCallOfMcpName('mcp__tandem__FindReferences', { path: 'src/a.ts', line: 3 });
  assert.equal(direct && clientToolTitleText(direct), 'Code · FindReferences src/a.ts:3');
});

test('a Rename call says what it renames to what; other calls have no sentence of their own', () => {
  const args = { path: 'src/a.ts', line: 9, symbol: 'area', newName: 'surface' };
  assert.equal(
    clientCallQuestion({ group: 'Code', tool: 'Rename', args }),
    'Rename `area` in `src/a.ts:9` to `surface`',
  );
  assert.equal(
    clientCallQuestion({ group: 'Code', tool: 'Rename', args: { path: 'src/a.ts', line: 9, column: 4, newName: 'b' } }),
    'Rename the symbol at `src/a.ts:9:4` to `b`',
  );
  assert.equal(clientCallQuestion({ group: 'IDE', tool: 'OpenFile', args: { path: 'a.ts' } }), undefined);
});
