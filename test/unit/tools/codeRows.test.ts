// What the row of a Code call shows the user: `path:line  text` lines and places to open, where
// the agent still gets the JSON it always got; a row of many results links only its first few.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionStore } from '../../../src/session/store';
import { CallUpdates, MAX_ROW_LOCATIONS } from '../../../src/tools/callUpdates';
import { codeToolGroup } from '../../../src/tools/code/codeTools';
import { invokeTool, type InvokeEnv } from '../../../src/tools/invoke';
import { toMcpResult } from '../../../src/tools/mcp/toolSlot';
import { ToolRegistry } from '../../../src/tools/registry';
import { ToolState } from '../../../src/tools/toolState';
import { DEFAULT_TOOLS_CONFIG, type ToolResult } from '../../../src/tools/types';
import { FakeCodePort, loc, ROOT, span } from './fakeCodePort';

const SHAPES = [
  'export function area(w: number, h: number): number {',
  '  return w * h;',
  '}',
  'export const total = area(1, 2) + area(3, 4);',
].join('\n');
const REPORT = ["import { area } from './shapes';", '', 'console.log(area(2, 3));'].join('\n');

function setup() {
  const port = new FakeCodePort().file('src/shapes.ts', SHAPES).file('src/report.ts', REPORT);
  const registry = new ToolRegistry();
  registry.register({ ...codeToolGroup(port), startCollapsed: false });
  const env: InvokeEnv = {
    state: new ToolState(registry, () => DEFAULT_TOOLS_CONFIG),
    config: DEFAULT_TOOLS_CONFIG,
    sessionId: 's1',
  };
  return { port, call: (name: string, args: Record<string, unknown>) => invokeTool(name, args, env) };
}

/** The text the agent reads (the MCP result). */
const agentText = (r: ToolResult) =>
  toMcpResult(r)
    .content.map((c) => (c.type === 'text' ? c.text : c.type))
    .join('\n');

test('FindReferences: the row lists path:line and the line, links each place; the agent still gets the JSON', async () => {
  const { port, call } = setup();
  port.answers.references = [
    loc('src/shapes.ts', 3, 21, 4),
    loc('src/report.ts', 2, 12, 4),
    loc('src/shapes.ts', 0, 16, 4),
  ];
  const r = await call('FindReferences', { path: 'src/shapes.ts', line: 1, symbol: 'area' });
  assert.equal(
    r.row?.text,
    [
      '3 references in 2 files',
      'src/report.ts:3  console.log(area(2, 3));',
      'src/shapes.ts:1  export function area(w: number, h: number): number {',
      'src/shapes.ts:4  export const total = area(1, 2) + area(3, 4);',
    ].join('\n'),
  );
  assert.deepEqual(r.row?.locations, [
    { path: `${ROOT}/src/report.ts`, line: 3 },
    { path: `${ROOT}/src/shapes.ts`, line: 1 },
    { path: `${ROOT}/src/shapes.ts`, line: 4 },
  ]);
  // What the model reads is the JSON, as before: nothing of the row reaches it.
  const sent = JSON.parse(agentText(r)) as { references: Array<{ path: string; line: number }>; total: number };
  assert.deepEqual(
    sent.references.map((x) => `${x.path}:${x.line}`),
    ['src/report.ts:3', 'src/shapes.ts:1', 'src/shapes.ts:4'],
  );
  assert.equal(sent.total, 3);
  assert.ok(!agentText(r).includes('3 references in 2 files'));
});

test('a cut result: the row lists what the agent got and says how many more there were', async () => {
  const { port, call } = setup();
  port.answers.references = Array.from({ length: 150 }, (_, i) => loc('src/shapes.ts', i, 0));
  const r = await call('FindReferences', { path: 'src/shapes.ts', line: 1, symbol: 'area' });
  const lines = r.row!.text.split('\n');
  assert.equal(lines[0], '150 references');
  assert.equal(lines.length, 1 + 100 + 1);
  assert.equal(lines.at(-1), '… 50 more, not listed (the agent got the first 100)');
  // Beyond the file's 4 lines there is no text: the place alone.
  assert.equal(lines[100], 'src/shapes.ts:100');
});

test('GoToDefinition outside the workspace: the row names the file without its text', async () => {
  const { port, call } = setup();
  port.answers.definitions = [loc('../lib/lib.d.ts', 9, 4)];
  const r = await call('GoToDefinition', { path: 'src/shapes.ts', line: 4, symbol: 'area' });
  assert.equal(r.row?.text, '1 definition\n/ws/lib/lib.d.ts:10');
  assert.deepEqual(r.row?.locations, [{ path: '/ws/lib/lib.d.ts', line: 10 }]);
});

test('CallHierarchy, WorkspaceSymbols and DocumentSymbols rows read as lists, not JSON', async () => {
  const { port, call } = setup();
  port.answers.callItems = [{ name: 'area', kind: 'Function', location: loc('src/shapes.ts', 0, 16), ref: {} }];
  port.answers.calls = [
    {
      item: { name: 'report', kind: 'Function', location: loc('src/report.ts', 2, 0), ref: {} },
      ranges: [span(2, 12), span(2, 20)],
    },
  ];
  const calls = await call('CallHierarchy', { path: 'src/shapes.ts', line: 1, symbol: 'area' });
  assert.equal(calls.row?.text, '1 caller of area\nsrc/report.ts:3  report  (2 calls)');
  assert.deepEqual(calls.row?.locations, [{ path: `${ROOT}/src/report.ts`, line: 3 }]);

  port.answers.workspaceSymbols = [
    { name: 'area', kind: 'Function', containerName: 'shapes', location: loc('src/shapes.ts', 0, 16) },
    { name: 'total', kind: 'Constant', location: loc('src/shapes.ts', 3, 13) },
  ];
  const found = await call('WorkspaceSymbols', { query: 'a' });
  assert.equal(
    found.row?.text,
    '2 symbols matching "a"\nsrc/shapes.ts:1  shapes › area  Function\nsrc/shapes.ts:4  total  Constant',
  );

  port.answers.documentSymbols = [
    {
      name: 'Shape',
      kind: 'Class',
      location: { ...loc('src/shapes.ts', 0, 0), range: span(0, 0, 11, 1) },
      children: [
        { name: 'area', kind: 'Method', location: { ...loc('src/shapes.ts', 9, 2), range: span(9, 2, 10, 3) } },
      ],
    },
  ];
  const outline = await call('DocumentSymbols', { path: 'src/shapes.ts' });
  assert.equal(outline.row?.text, 'src/shapes.ts: 2 symbols\n 1  Shape  Class\n10  Shape › area  Method');
  // An outline's places are one file's lines: the row opens the file.
  assert.deepEqual(outline.row?.locations, [{ path: `${ROOT}/src/shapes.ts` }]);
});

/** Tandem's CallUpdates on one session's store, with a call observer. */
function rows() {
  const store = new SessionStore('s1');
  const updates = new CallUpdates({ session: (id) => (id === 's1' ? store : undefined) });
  return { store, observer: updates.observer('s1')! };
}

test("Tandem's own row shows the row's text and links at most its first 20 places", () => {
  const { store, observer } = rows();
  const args = { path: 'src/shapes.ts', line: 1, symbol: 'area' };
  observer.started({ callId: 'c1', group: 'Code', tool: 'FindReferences', args, kind: 'tool' });
  const places = Array.from({ length: 200 }, (_, i) => ({ path: `${ROOT}/src/f${i}.ts`, line: i + 1 }));
  observer.finished('c1', {
    content: [{ type: 'json', json: { references: [] } }],
    row: { text: '200 references in 200 files\n…', locations: places },
  });
  const row = store.state.toolCalls.get('tandem-tool-1')!;
  assert.equal(row.status, 'completed');
  assert.deepEqual(row.content, [
    { type: 'content', content: { type: 'text', text: '200 references in 200 files\n…' } },
  ]);
  assert.equal(MAX_ROW_LOCATIONS, 20);
  assert.deepEqual(row.locations, places.slice(0, 20));
});

test("the agent's own row keeps the agent's content and gets the places and the readable text from Tandem", () => {
  const { store, observer } = rows();
  store.dispatch({
    type: 'update',
    at: 1,
    update: {
      sessionUpdate: 'tool_call',
      toolCallId: 'toolu_1',
      title: 'mcp__tandem__Code',
      status: 'in_progress',
      rawInput: { function: 'GoToDefinition', arguments: { path: 'src/shapes.ts', line: 4 } },
    },
  });
  const args = { path: 'src/shapes.ts', line: 4 };
  observer.started({ callId: 'c1', group: 'Code', tool: 'GoToDefinition', args, kind: 'tool', via: 'Code' });
  observer.finished('c1', {
    content: [{ type: 'json', json: { definitions: [] } }],
    row: {
      text: '1 definition\nsrc/shapes.ts:1  export function area',
      locations: [{ path: `${ROOT}/src/shapes.ts`, line: 1 }],
    },
  });
  const row = store.state.toolCalls.get('toolu_1')!;
  assert.equal(row.status, 'in_progress', 'the agent completes its own row');
  assert.deepEqual(row.content, []);
  assert.deepEqual(row.locations, [{ path: `${ROOT}/src/shapes.ts`, line: 1 }]);
  assert.deepEqual(row.meta?.tandem, {
    group: 'Code',
    tool: 'GoToDefinition',
    kind: 'tool',
    args,
    clientTool: true,
    rowText: '1 definition\nsrc/shapes.ts:1  export function area',
  });
});
