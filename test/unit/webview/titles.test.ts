// Row titles spend the narrow width on what matters: a pending client-tool row is titled like the
// finished one, and a search in a workspace folder does not repeat that folder's absolute path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setWorkspaceRoots, titleText } from '../../../src/webview/toolTitle';
import { toolCall } from './toolCall';

const call = toolCall;
const cc = (toolName: string) => ({ claudeCode: { toolName } });

test('a pending client-tool row is titled by group and function, not by its MCP name', () => {
  setWorkspaceRoots(['/tmp/ws']);
  const row = call({
    title: 'mcp__tandem__IDE',
    meta: cc('mcp__tandem__IDE'),
    rawInput: { function: 'OpenFile', arguments: { path: '/tmp/ws/src/a.ts', line: 3 } },
  });
  assert.equal(titleText(row), 'IDE · OpenFile src/a.ts:3');
});

test('a search in the workspace folder itself names no folder; a subfolder is relative', () => {
  setWorkspaceRoots(['/tmp/tandem-e2e-x/ws/']);
  const grep = (path: string) => call({ title: 'grep', meta: cc('Grep'), rawInput: { pattern: 'needle', path } });
  assert.equal(titleText(grep('/tmp/tandem-e2e-x/ws')), 'Search "needle"');
  assert.equal(titleText(grep('/tmp/tandem-e2e-x/ws/src')), 'Search "needle" in src');
  const glob = call({ title: 'Find', meta: cc('Glob'), rawInput: { pattern: '*.ts', path: '/tmp/tandem-e2e-x/ws/' } });
  assert.equal(titleText(glob), 'Find files *.ts');
});
