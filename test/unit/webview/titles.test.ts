// Row titles spend the narrow width on what matters: a pending client-tool row is titled like the
// finished one, and a search in a workspace folder does not repeat that folder's absolute path.
// The workspace folders are the view's state: they come with the host's snapshot into the Mirror
// and the title functions take them from there as an argument.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Mirror } from '../../../src/webview/mirror';
import { titleText } from '../../../src/webview/toolTitle';
import { toolCall } from './toolCall';

const call = toolCall;
const cc = (toolName: string) => ({ claudeCode: { toolName } });

/** A mirror that received a snapshot naming these workspace folders. */
function mirrorOf(workspaceRoots?: string[]) {
  const m = new Mirror();
  m.receive({ type: 'snapshot', agent: { state: 'none' }, session: null, workspaceRoots });
  return m;
}

test('a pending client-tool row is titled by group and function, not by its MCP name', () => {
  const roots = mirrorOf(['/tmp/ws']).current.workspaceRoots;
  const row = call({
    title: 'mcp__tandem__IDE',
    meta: cc('mcp__tandem__IDE'),
    rawInput: { function: 'OpenFile', arguments: { path: '/tmp/ws/src/a.ts', line: 3 } },
  });
  assert.equal(titleText(row, roots), 'IDE · OpenFile src/a.ts:3');
});

test('a search in the workspace folder itself names no folder; a subfolder is relative', () => {
  const roots = mirrorOf(['/tmp/tandem-e2e-x/ws/']).current.workspaceRoots;
  const grep = (path: string) => call({ title: 'grep', meta: cc('Grep'), rawInput: { pattern: 'needle', path } });
  assert.equal(titleText(grep('/tmp/tandem-e2e-x/ws'), roots), 'Search "needle"');
  assert.equal(titleText(grep('/tmp/tandem-e2e-x/ws/src'), roots), 'Search "needle" in src');
  const glob = call({ title: 'Find', meta: cc('Glob'), rawInput: { pattern: '*.ts', path: '/tmp/tandem-e2e-x/ws/' } });
  assert.equal(titleText(glob, roots), 'Find files *.ts');
});

test('the folders stay until a snapshot names others; titles follow the state they are given', () => {
  const m = mirrorOf(['/a/ws']);
  const read = call({ title: 'Read', meta: cc('Read'), rawInput: { file_path: '/a/ws/src/x.ts' } });
  assert.equal(titleText(read, m.current.workspaceRoots), 'Read src/x.ts');
  // A snapshot without folders (the host sends them when it has them) keeps the ones the view has.
  m.receive({ type: 'snapshot', agent: { state: 'ready' }, session: null });
  assert.deepEqual(m.current.workspaceRoots, ['/a/ws']);
  assert.equal(titleText(read, m.current.workspaceRoots), 'Read src/x.ts');
  m.receive({ type: 'snapshot', agent: { state: 'ready' }, session: null, workspaceRoots: ['/b'] });
  assert.equal(titleText(read, m.current.workspaceRoots), 'Read /a/ws/src/x.ts');
  // No folders at all (a fresh mirror): paths stay absolute.
  assert.deepEqual(mirrorOf().current.workspaceRoots, []);
  assert.equal(titleText(read, []), 'Read /a/ws/src/x.ts');
});
