import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codeToolGroup } from '../../../src/tools/code/codeTools';
import { invokeTool, type InvokeEnv, type PermissionDecision } from '../../../src/tools/invoke';
import { ToolRegistry } from '../../../src/tools/registry';
import { ToolState } from '../../../src/tools/toolState';
import { DEFAULT_TOOLS_CONFIG, type ToolResult } from '../../../src/tools/types';
import { FakeCodePort, loc, span } from './fakeCodePort';

const SHAPES = [
  'export function area(w: number, h: number): number {',
  '  return w * h;',
  '}',
  'export const total = area(1, 2) + area(3, 4);',
].join('\n');

function setup(port = new FakeCodePort().file('src/shapes.ts', SHAPES), decide: PermissionDecision = 'allow') {
  const registry = new ToolRegistry();
  registry.register({ ...codeToolGroup(port), startCollapsed: false });
  const state = new ToolState(registry, () => DEFAULT_TOOLS_CONFIG);
  /** Each question: the tool's name, and its own words when it asked them itself. */
  const asked: string[] = [];
  const env: InvokeEnv = {
    state,
    config: DEFAULT_TOOLS_CONFIG,
    sessionId: 's1',
    requestPermission: async (c) => {
      asked.push(c.question ? `${c.tool.name}: ${c.question.text} [${c.question.paths?.join(', ')}]` : c.tool.name);
      return decide;
    },
  };
  const call = (name: string, args: Record<string, unknown>) => invokeTool(name, args, env);
  return { port, call, asked, state };
}
const text = (r: ToolResult) =>
  r.content.map((c) => (c.type === 'text' ? c.text : c.type === 'json' ? JSON.stringify(c.json) : c.type)).join('\n');
const json = (r: ToolResult) => {
  assert.equal(r.content[0].type, 'json', text(r));
  return (r.content[0] as { json: Record<string, unknown> }).json;
};

test('the Code group lists its eight tools behind one container', () => {
  const registry = new ToolRegistry();
  registry.register(codeToolGroup(new FakeCodePort()));
  const state = new ToolState(registry, () => DEFAULT_TOOLS_CONFIG);
  assert.deepEqual(
    state.list().map((l) => l.name),
    ['Code'],
  );
  state.expand('Code');
  assert.deepEqual(
    state.list().map((l) => l.name),
    [
      'GoToDefinition',
      'FindReferences',
      'DocumentSymbols',
      'WorkspaceSymbols',
      'TypeInfo',
      'CallHierarchy',
      'Rename',
      'QuickFixes',
    ],
  );
});

test('GoToDefinition: a symbol on the line is its position; results are workspace-relative and 1-based with the line text', async () => {
  const { port, call } = setup();
  port.answers.definitions = [loc('src/shapes.ts', 0, 16, 4)];
  const r = await call('GoToDefinition', { path: 'src/shapes.ts', line: 4, symbol: 'area', occurrence: 2 });
  assert.deepEqual(port.asked, [['definitions', 'src/shapes.ts', 3, 34]]);
  assert.deepEqual(json(r), {
    at: 'src/shapes.ts:4:35',
    files: 1,
    definitions: [
      {
        path: 'src/shapes.ts',
        line: 1,
        column: 17,
        endLine: 1,
        endColumn: 21,
        text: 'export function area(w: number, h: number): number {',
      },
    ],
    total: 1,
    shown: 1,
  });
});

test('a whole-word symbol match skips longer names that contain it', async () => {
  const { port, call } = setup(new FakeCodePort().file('a.ts', 'const areas = area;'));
  port.answers.definitions = [loc('a.ts', 0, 14, 4)];
  await call('GoToDefinition', { path: 'a.ts', line: 1, symbol: 'area' });
  assert.deepEqual(port.asked[0], ['definitions', 'a.ts', 0, 14]);
});

test('bad positions: past the last line, past the line end, a symbol not on the line, neither column nor symbol', async () => {
  const { port, call } = setup();
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ line: 9, column: 1 }, /Line 9 is past the end of src\/shapes\.ts \(4 lines\)\./],
    [
      { line: 2, column: 40 },
      /Column 40 is past the end of line 2 of src\/shapes\.ts \(15 characters\); the line is " {2}return w \* h;"/,
    ],
    [
      { line: 2, symbol: 'area' },
      /"area" does not occur on line 2 of src\/shapes\.ts; the line is " {2}return w \* h;"/,
    ],
    [{ line: 4, symbol: 'area', occurrence: 3 }, /"area" occurs 2 time\(s\) on line 4 .*, not 3/],
    [{ line: 2 }, /pass "column" \(1-based\) or "symbol"/],
  ];
  for (const [args, want] of cases) {
    const r = await call('FindReferences', { path: 'src/shapes.ts', ...args });
    assert.equal(r.isError, true);
    assert.match(text(r), want);
  }
  // Schema: lines and columns are 1-based integers.
  const r = await call('FindReferences', { path: 'src/shapes.ts', line: 0, column: 1 });
  assert.match(text(r), /Invalid arguments for tool FindReferences: \/line must be >= 1/);
  const missing = await call('TypeInfo', { path: 'nope.ts', line: 1, column: 1 });
  assert.match(text(missing), /Cannot open nope\.ts: File not found/);
  assert.deepEqual(port.asked, [], 'no provider is asked for a bad position');
});

test('no language support installed: a plain answer instead of an empty list', async () => {
  const port = new FakeCodePort()
    .file('src/shapes.ts', SHAPES)
    .file('main.rs', 'fn main() {}', 'rust')
    .file('notes.txt', 'hello', 'plaintext');
  const { call } = setup(port);
  for (const tool of ['GoToDefinition', 'FindReferences', 'TypeInfo', 'CallHierarchy']) {
    const r = await call(tool, { path: 'main.rs', line: 1, symbol: 'main' });
    assert.equal(r.isError, true);
    assert.match(
      text(r),
      new RegExp(
        `^No language support is installed in VS Code for main\\.rs \\(language "rust"\\).*so ${tool} has no answer`,
      ),
    );
  }
  assert.match(text(await call('DocumentSymbols', { path: 'notes.txt' })), /language "plaintext"/);
  // With support installed, an empty answer is just empty.
  const ts = await call('GoToDefinition', { path: 'src/shapes.ts', line: 2, symbol: 'w' });
  assert.equal(text(ts), 'No definition found for the symbol at src/shapes.ts:2:10.');
  assert.ok(!ts.isError);
});

test('huge results are bounded by limit and by size, and say so', async () => {
  const many = Array.from({ length: 3000 }, (_, i) =>
    loc(`src/${'deep/'.repeat(12)}f${String(i).padStart(4, '0')}.ts`, i, 2),
  );
  const { port, call } = setup();
  port.answers.references = many;
  const r = json(await call('FindReferences', { path: 'src/shapes.ts', line: 1, symbol: 'area' }));
  assert.equal(r.total, 3000);
  assert.equal(r.shown, 100);
  assert.equal((r.references as unknown[]).length, 100);
  assert.match(String(r.truncated), /^Showing 100 of 3000 \(limit 100; pass a larger "limit"/);
  // A larger limit: cut by size instead (40,000 characters of JSON at most).
  const big = await call('FindReferences', { path: 'src/shapes.ts', line: 1, symbol: 'area', limit: 500 });
  const b = json(big);
  assert.ok((b.shown as number) < 500 && (b.shown as number) > 50, `shown ${b.shown} ${b.truncated}`);
  assert.match(String(b.truncated), /too large for one answer/);
  assert.ok(JSON.stringify(b).length <= 40_000);
  // Hover text is cut too.
  port.answers.hover = ['x'.repeat(20_000)];
  const h = text(await call('TypeInfo', { path: 'src/shapes.ts', line: 1, symbol: 'area' }));
  assert.match(h, /\(Cut at 8000 of 20000 characters\.\)$/);
  assert.ok(h.length < 8_200);
});

test('FindReferences: sorted by file and line, duplicates dropped, files counted', async () => {
  const { port, call } = setup();
  port.answers.references = [
    loc('src/shapes.ts', 3, 34, 4),
    loc('src/b.ts', 1, 1),
    loc('src/shapes.ts', 0, 16, 4),
    loc('src/shapes.ts', 3, 34, 4),
  ];
  const r = json(await call('FindReferences', { path: 'src/shapes.ts', line: 1, column: 17 }));
  assert.deepEqual(
    (r.references as Array<{ path: string; line: number }>).map((x) => `${x.path}:${x.line}`),
    ['src/b.ts:2', 'src/shapes.ts:1', 'src/shapes.ts:4'],
  );
  assert.equal(r.files, 2);
});

test('DocumentSymbols flattens the outline with containers; WorkspaceSymbols names files relative', async () => {
  const { port, call } = setup();
  port.answers.documentSymbols = [
    {
      name: 'Shape',
      kind: 'Class',
      location: { ...loc('src/shapes.ts', 0, 0), range: span(0, 0, 9, 1) },
      children: [
        {
          name: 'area',
          kind: 'Method',
          detail: '(): number',
          location: { ...loc('src/shapes.ts', 1, 2), range: span(1, 2, 3, 3) },
        },
      ],
    },
  ];
  assert.deepEqual(json(await call('DocumentSymbols', { path: 'src/shapes.ts' })), {
    path: 'src/shapes.ts',
    symbols: [
      { name: 'Shape', kind: 'Class', line: 1, endLine: 10 },
      { name: 'area', kind: 'Method', detail: '(): number', container: 'Shape', line: 2, endLine: 4 },
    ],
    total: 2,
    shown: 2,
  });
  port.answers.workspaceSymbols = [
    { name: 'area', kind: 'Function', containerName: 'shapes', location: loc('src/shapes.ts', 0, 16) },
  ];
  assert.deepEqual(json(await call('WorkspaceSymbols', { query: 'are' })).symbols, [
    { name: 'area', kind: 'Function', container: 'shapes', path: 'src/shapes.ts', line: 1, column: 17 },
  ]);
  port.answers.workspaceSymbols = [];
  assert.match(text(await call('WorkspaceSymbols', { query: 'zzz' })), /^No workspace symbol matches "zzz"/);
});

test('TypeInfo returns the hover text at the position; CallHierarchy lists callers with call sites', async () => {
  const { port, call } = setup();
  port.answers.hover = ['```typescript\nfunction area(w: number, h: number): number\n```', 'Area of a rectangle.'];
  assert.equal(
    text(await call('TypeInfo', { path: 'src/shapes.ts', line: 1, symbol: 'area' })),
    'src/shapes.ts:1:17\n\n```typescript\nfunction area(w: number, h: number): number\n```\n\n---\n\nArea of a rectangle.',
  );
  port.answers.callItems = [{ name: 'area', kind: 'Function', location: loc('src/shapes.ts', 0, 16), ref: {} }];
  port.answers.calls = [
    {
      item: { name: 'report', kind: 'Function', location: loc('src/report.ts', 5, 16), ref: {} },
      ranges: [span(7, 10), span(8, 4)],
    },
  ];
  const r = json(await call('CallHierarchy', { path: 'src/shapes.ts', line: 1, symbol: 'area' }));
  assert.equal(port.lastDirection, 'incoming');
  assert.deepEqual(r.calls, [
    {
      name: 'report',
      kind: 'Function',
      path: 'src/report.ts',
      line: 6,
      column: 17,
      endLine: 6,
      endColumn: 20,
      callSites: [
        { line: 8, column: 11 },
        { line: 9, column: 5 },
      ],
    },
  ]);
  assert.equal(r.function, 'area');
  await call('CallHierarchy', { path: 'src/shapes.ts', line: 1, symbol: 'area', direction: 'outgoing' });
  assert.equal(port.lastDirection, 'outgoing');
});

test('Rename asks once, saying what it renames to what in how many edits and files, then applies one edit', async () => {
  const { port, call, asked } = setup();
  port.answers.rename = {
    files: [
      { uri: 'file:///ws/project/src/shapes.ts', path: '/ws/project/src/shapes.ts', edits: 3 },
      { uri: 'file:///ws/project/src/report.ts', path: '/ws/project/src/report.ts', edits: 1 },
    ],
    ref: 'edit-1',
  };
  const r = json(await call('Rename', { path: 'src/shapes.ts', line: 1, symbol: 'area', newName: 'surface' }));
  assert.deepEqual(asked, [
    'Rename: Rename `area` to `surface`: 4 edits in 2 files [/ws/project/src/shapes.ts, /ws/project/src/report.ts]',
  ]);
  assert.deepEqual(port.applied, [{ edit: port.answers.rename, sessionId: 's1' }]);
  assert.deepEqual(r.renamed, { from: 'area', to: 'surface' });
  assert.equal(r.edits, 4);
  assert.deepEqual(r.files, [
    { path: 'src/shapes.ts', edits: 3 },
    { path: 'src/report.ts', edits: 1 },
  ]);
  assert.match(String(r.note), /Undo in VS Code reverts all of it/);
});

test('Rename: denied, refused by the provider, or not applied — nothing changes and the agent is told why', async () => {
  const denied = setup(undefined, 'deny');
  denied.port.answers.rename = { files: [{ uri: 'x', edits: 1 }], ref: 1 };
  const d = await denied.call('Rename', { path: 'src/shapes.ts', line: 1, symbol: 'area', newName: 'x' });
  assert.equal(text(d), 'The user denied permission to run Rename.');
  assert.equal(d.isError, true);
  assert.deepEqual(denied.port.applied, [], 'the edit was computed to ask about it, never applied');
  const { port, call } = setup();
  port.answers.rename = new Error('You cannot rename this element.');
  const refused = await call('Rename', { path: 'src/shapes.ts', line: 2, symbol: 'return', newName: 'x' });
  assert.equal(text(refused), 'Cannot rename at src/shapes.ts:2:3: You cannot rename this element.');
  port.answers.rename = { files: [{ uri: 'file:///ws/project/a.ts', path: '/ws/project/a.ts', edits: 1 }], ref: 1 };
  port.applyResult = false;
  const failed = await call('Rename', { path: 'src/shapes.ts', line: 1, symbol: 'area', newName: 'x' });
  assert.match(text(failed), /^VS Code did not apply the rename/);
  assert.equal(failed.isError, true);
});

test('QuickFixes lists actions for whole lines without asking; applying one by title asks, applies its edit, runs its command', async () => {
  const { port, call, asked } = setup();
  const edit = {
    files: [{ uri: 'file:///ws/project/src/shapes.ts', path: '/ws/project/src/shapes.ts', edits: 1 }],
    ref: 'e',
  };
  port.answers.codeActions = [
    {
      title: "Add import from './math'",
      kind: 'quickfix',
      isPreferred: true,
      diagnostics: ["Cannot find name 'sum'."],
      edit,
      ref: 1,
    },
    {
      title: 'Extract to function',
      kind: 'refactor.extract.function',
      diagnostics: [],
      disabled: 'Select an expression',
      ref: 2,
    },
    {
      title: 'Organize imports',
      kind: 'source.organizeImports',
      diagnostics: [],
      command: 'typescript.organizeImports',
      ref: 3,
    },
  ];
  const list = json(await call('QuickFixes', { path: 'src/shapes.ts', line: 1, endLine: 2 }));
  assert.deepEqual(asked, [], 'listing does not ask');
  assert.deepEqual(port.lastRange, span(0, 0, 1, 15));
  assert.deepEqual(list.actions, [
    { title: "Add import from './math'", kind: 'quickfix', preferred: true, fixes: ["Cannot find name 'sum'."] },
    { title: 'Extract to function', kind: 'refactor.extract.function', disabled: 'Select an expression' },
    { title: 'Organize imports', kind: 'source.organizeImports' },
  ]);
  const applied = json(await call('QuickFixes', { path: 'src/shapes.ts', line: 1, apply: "Add import from './math'" }));
  assert.deepEqual(asked, ['QuickFixes']);
  assert.deepEqual(port.applied, [{ edit, sessionId: 's1' }]);
  assert.deepEqual(applied.files, [{ path: 'src/shapes.ts', edits: 1 }]);
  await call('QuickFixes', { path: 'src/shapes.ts', line: 1, apply: 'Organize imports' });
  assert.deepEqual(port.commands, ['typescript.organizeImports']);
  const disabled = await call('QuickFixes', { path: 'src/shapes.ts', line: 1, apply: 'Extract to function' });
  assert.equal(text(disabled), '"Extract to function" cannot be applied now: Select an expression');
  const unknown = await call('QuickFixes', { path: 'src/shapes.ts', line: 1, apply: 'Fix all' });
  assert.match(text(unknown), /^No action titled "Fix all" for line 1 of src\/shapes\.ts\. Offered now: "Add import/);
  const past = await call('QuickFixes', { path: 'src/shapes.ts', line: 3, endLine: 9 });
  assert.equal(text(past), 'Line 9 is past the end of src/shapes.ts (4 lines).');
  port.answers.codeActions = [];
  assert.equal(
    text(await call('QuickFixes', { path: 'src/shapes.ts', line: 2, kind: 'quickfix' })),
    'No quick fixes or refactorings for line 2 of src/shapes.ts.',
  );
  assert.equal(port.lastKind, 'quickfix');
});
