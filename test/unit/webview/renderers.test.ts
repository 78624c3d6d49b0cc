// Renderer edges of the session view: markdown sanitizing, streaming blocks, diffs, the
// terminal screen, natural tool titles, unknown content as JSON, and the mirror's patch logic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderToString } from 'preact-render-to-string';
import { h } from 'preact';
import {
  renderMarkdown,
  renderMarkdownSlow,
  isPlainParagraph,
  setPurifyWindow,
  isSafeHref,
} from '../../../src/webview/markdown';
import fc from 'fast-check';
import { advanceBlocks, emptyBlockState } from '../../../src/webview/streamBlocks';
import { diffLines, foldUnchanged } from '../../../src/webview/diff';
import { Screen } from '../../../src/webview/terminal/screen';
import { feed } from '../../../src/webview/terminal/TerminalScreen';
import { niceTitle, titleText } from '../../../src/webview/toolTitle';
import { markdownBlocks, renderStats } from '../../../src/webview/components/Markdown';
import { ContentBlockView, Json } from '../../../src/webview/components/ContentBlocks';
import { DiffView } from '../../../src/webview/components/DiffView';
import { ToolCallRow } from '../../../src/webview/components/ToolCallRow';
import ToolDetails from '../../../src/webview/components/ToolDetails';
import { PermissionPrompt } from '../../../src/webview/components/PermissionCard';
import { Composer } from '../../../src/webview/components/Composer';
import { modePickerShown, optionLabel } from '../../../src/webview/components/Pickers';
import { Mirror } from '../../../src/webview/mirror';
import { pickers } from '../../../src/webview/lazy';
import { selectOption } from './configOption';
import { buildRows, parentRowIndex } from '../../../src/webview/rows';
import {
  appendOutput,
  emptySnapshot,
  outputEnd,
  type TerminalView,
  type ToolCallView,
} from '../../../src/shared/sessionModel';

const dom = new JSDOM('<!DOCTYPE html><body></body>');
setPurifyWindow(dom.window);

// The plain-sentence fast path must render exactly what marked + DOMPurify would.
const normal = (html: string) => {
  const el = dom.window.document.createElement('div');
  el.innerHTML = html;
  return el.innerHTML.trim();
};
test('markdown: a plain sentence skips the parser and renders the same DOM', () => {
  for (const s of [
    'Working on file 12; ',
    'It is done.',
    'Say "hi", then it\'s over!',
    'Größe ändern?',
    '  leading spaces',
  ]) {
    assert.equal(normal(renderMarkdown(s)), normal(renderMarkdownSlow(s)), s);
  }
  assert.ok(isPlainParagraph('Working on file 12;'));
  // Anything markdown could give a meaning to takes the full path.
  for (const s of [
    '1. item',
    '2) item',
    '# head',
    '*em*',
    'a_b_',
    '[x](y)',
    '`c`',
    'a <b>',
    'x &amp; y',
    'see www.example.com',
    'http://x.y',
    '- item',
    '> quote',
    'a\nb',
    '    code',
  ]) {
    assert.equal(isPlainParagraph(s), false, s);
  }
  fc.assert(
    fc.property(fc.stringMatching(/^[a-zA-Z0-9 ,;.?!'"<>&*_#\-\[\]()`:\/w\n]{0,40}$/), (s) => {
      assert.equal(normal(renderMarkdown(s)), normal(renderMarkdownSlow(s)));
    }),
    { numRuns: 3000 },
  );
});

test('markdown: script, event handlers, javascript: links and remote images are neutralized', () => {
  const html = renderMarkdown(
    [
      '<script>alert(1)</script>',
      '<img src=x onerror="alert(2)">',
      '[click](javascript:alert(3)) [cmd](command:workbench.action.quit) [ok](https://example.com)',
      '![tracker](https://evil.example/pixel.png)',
      '<a href="javascript:alert(4)">raw</a>',
    ].join('\n\n'),
  );
  assert.doesNotMatch(html, /<script/i);
  assert.doesNotMatch(html, /<img[^>]*onerror/i);
  assert.doesNotMatch(html, /<a[^>]*href="javascript:/i);
  assert.doesNotMatch(html, /<a[^>]*href="command:/i);
  // Even HTML that reaches the sanitizer directly loses its active parts.
  const { sanitize } = require('../../../src/webview/markdown') as typeof import('../../../src/webview/markdown');
  const dirty = sanitize(
    '<img src="https://x/p.png" onerror="alert(1)"><a href="javascript:alert(1)">x</a><script>1</script><b style="x">ok</b>',
  );
  assert.doesNotMatch(dirty, /onerror|javascript:|<script|style=|https:\/\/x/);
  assert.match(dirty, /<b>ok<\/b>/);
  assert.doesNotMatch(html, /<img[^>]+https:/i, 'no remote image is loaded');
  assert.match(html, /href="https:\/\/example.com"/);
  assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/, 'raw HTML is shown as text');
  assert.ok(
    !isSafeHref('javascript:alert(1)') &&
      !isSafeHref(' JAVASCRIPT:x') &&
      !isSafeHref('vscode:x') &&
      isSafeHref('/abs/path.ts') &&
      isSafeHref('src/a.ts'),
  );
});

test('markdown: code blocks get a copy button and keep their text escaped; data: images are kept', () => {
  const html = renderMarkdown('```ts\nconst a = "<b>";\n```\n\n![i](data:image/png;base64,iVBORw0KGgo=)');
  assert.match(html, /data-copy/);
  assert.match(html, /class="language-ts"/);
  assert.match(html, /const a = &quot;&lt;b&gt;&quot;;|const a = "&lt;b&gt;";/);
  assert.match(html, /<img src="data:image\/png;base64,/);
});

test('streaming: finished blocks are cut at blank lines outside fences and never re-rendered', () => {
  let st = emptyBlockState();
  let text = '';
  const parts = [
    '# Title\n',
    '\nPara one ',
    'continues.\n\n',
    '```js\nx = 1\n\n',
    'y = 2\n```\n',
    'After fence\n\n- a\n',
    '\n  continued item\n\nEnd',
  ];
  for (const p of parts) {
    text += p;
    st = advanceBlocks(st, text);
  }
  assert.deepEqual(st.blocks, [
    '# Title\n\n',
    'Para one continues.\n\n',
    '```js\nx = 1\n\ny = 2\n```\n',
    'After fence\n\n',
    '- a\n\n  continued item\n\n',
  ]);
  assert.equal(text.slice(st.blockStart), 'End');
  // The same text again: nothing new; a replaced text starts over.
  assert.equal(advanceBlocks(st, text).blocks.length, 5);
  assert.equal(advanceBlocks(st, 'other\n\ntext').blocks.length, 1);
  // Through the component cache: 200 chunks cost one render per finished block.
  renderStats.blocks = 0;
  let t = '';
  for (let i = 0; i < 200; i++) {
    t += `word${i} `;
    if (i % 20 === 19) t += '\n\n';
    markdownBlocks('k1', t);
  }
  assert.equal(renderStats.blocks, 9);
});

test('diff: line-level changes, oldText null is a new file, hunks keep context', () => {
  const d = diffLines('a\nb\nc\nd\n', 'a\nB\nc\nd\ne\n');
  assert.deepEqual(
    d.lines.map((l) => l.t + l.text),
    [' a', '-b', '+B', ' c', ' d', '+e'],
  );
  assert.equal(d.added, 2);
  assert.equal(d.removed, 1);
  assert.equal(d.isNew, false);
  const n = diffLines(null, 'x\ny\n');
  assert.equal(n.isNew, true);
  assert.equal(n.added, 2);
  assert.equal(n.removed, 0);
  const html = renderToString(
    h(DiffView, { path: '/ws/new.txt', oldText: null, newText: 'hello\n', toolCallId: 'c1', index: 0 }),
  );
  assert.match(html, /data-new-file="true"/);
  assert.match(html, /New file/);
  assert.match(html, /Open diff/);
  const long = Array.from({ length: 100 }, (_, i) => `l${i}`);
  const changed = long.slice();
  changed[50] = 'X';
  const hk = foldUnchanged(diffLines(long.join('\n'), changed.join('\n')).lines);
  assert.equal(hk.filter((l) => l === null).length, 2);
  assert.equal(hk.filter((l) => l !== null).length, 8);
  // A huge rewrite does not stall: it is "too large to diff", counted as remove-all/add-all (the
  // bound itself, and that it gives up before searching, are test/unit/shared/lineDiff.test.ts's).
  const a = Array.from({ length: 5000 }, (_, i) => `a${i}`).join('\n');
  const b = Array.from({ length: 5000 }, (_, i) => `b${i}`).join('\n');
  const big = diffLines(a, b);
  assert.equal(big.added, 5000);
  assert.equal(big.removed, 5000);
  assert.equal(big.tooLarge, true);
  assert.deepEqual(big.lines, []);
  const bigHtml = renderToString(
    h(DiffView, { path: '/ws/big.txt', oldText: a, newText: b, toolCallId: 'c1', index: 0 }),
  );
  assert.match(bigHtml, /data-testid="diff-too-large"/);
  assert.match(bigHtml, /≤\+5000/);
  assert.doesNotMatch(bigHtml, /diff-line-add/);
});

test('terminal: ANSI colors, carriage-return progress bars, cursor-up redraws, bounded lines', () => {
  const s = new Screen();
  s.write('\x1b[31mred\x1b[0m plain\r\n');
  s.write('progress 10%\rprogress 50%\rprogress 100%\n');
  s.write('line A\nline B\n\x1b[2A\x1b[2Kline A2\n');
  assert.equal(s.text(), 'red plain\nprogress 100%\nline A2\nline B');
  const red = s.runs(s.lines[0]);
  assert.equal(red[0].text, 'red');
  assert.equal(s.styleTable[red[0].style].fg, 'red');
  // Escape split across writes.
  const t = new Screen();
  t.write('a\x1b[');
  t.write('32mb\x1b[0m');
  assert.equal(t.text(), 'ab');
  assert.equal(t.styleTable[t.lines[0].styles[1]].fg, 'green');
  // Huge output keeps only the last maxLines lines.
  const big = new Screen(500);
  let out = '';
  for (let i = 0; i < 100_000; i++) out += `line ${i}\n`;
  big.write(out);
  assert.ok(big.lines.length <= 500);
  assert.equal(big.lines[big.lines.length - 2].chars.join(''), 'line 99999');
  assert.ok(big.dropped >= 99_500);
  // Incremental feeding appends; a front-truncated output is re-synchronized.
  let f = feed(undefined, 'one\n');
  f = feed(f, 'one\ntwo\n');
  assert.equal(f.screen.text(), 'one\ntwo');
  const long = Array.from({ length: 50 }, (_, i) => `row ${i}`).join('\n') + '\n';
  f = feed(undefined, long);
  f = feed(f, long.slice(100) + 'new row\n', long.length + 'new row\n'.length);
  assert.match(f.screen.text(), /row 49\nnew row$/);
});

test('terminal screen: a command printing the same line over and over keeps showing its newest lines once the front is dropped', () => {
  // What the view holds: the last 256 KB of 20 MB of near-identical lines (the store's bound).
  let view: TerminalView = { terminalId: 't', output: '', truncated: false, exited: false };
  let f = feed(undefined, '');
  const line = (n: number) => `${String(n).padStart(9, '0')} ${'x'.repeat(90)}\n`;
  for (let n = 1; n <= 6000; n += 50) {
    let chunk = '';
    for (let i = n; i < n + 50; i++) chunk += line(i);
    view = appendOutput(view, chunk);
    f = feed(f, view.output, outputEnd(view));
  }
  assert.ok(view.truncated, 'the front was dropped');
  const shown = f.screen.text().trimEnd().split('\n');
  assert.equal(shown.at(-1), line(6000).trimEnd(), 'the last line printed is the last line shown');
  assert.equal(shown.at(-2), line(5999).trimEnd());
});

const call = (over: Partial<ToolCallView>): ToolCallView => ({
  toolCallId: 'c1',
  title: 'Tool',
  kind: 'other',
  status: 'completed',
  content: [],
  locations: [],
  turn: 0,
  startedAt: 0,
  endedAt: 1200,
  ...over,
});

test('titles: Claude tools read naturally', () => {
  const roots = ['/home/user/project'];
  const text = (c: ToolCallView) => titleText(c, roots);
  const cc = (toolName: string) => ({ claudeCode: { toolName } });
  assert.equal(
    text(
      call({
        title: 'Read /home/user/project/src/a.ts',
        meta: cc('mcp__acp__Read'),
        rawInput: { file_path: '/home/user/project/src/a.ts' },
      }),
    ),
    'Read src/a.ts',
  );
  assert.equal(
    text(
      call({
        title: 'Edit `/home/user/project/x.txt`',
        meta: cc('Edit'),
        rawInput: { file_path: '/home/user/project/x.txt' },
      }),
    ),
    'Edit x.txt',
  );
  const bash = niceTitle(
    call({ title: 'echo hi', meta: cc('Bash'), rawInput: { command: 'echo hi && ls', description: 'Print hi' } }),
    roots,
  );
  assert.deepEqual(bash, { verb: '', subject: 'Print hi', detail: 'echo hi && ls' });
  assert.equal(text(call({ title: 'Terminal', name: 'Bash', rawInput: { command: 'npm test' } })), 'Run npm test');
  assert.equal(
    text(call({ title: 'grep', meta: cc('Grep'), rawInput: { pattern: 'TODO', path: '/home/user/project/src' } })),
    'Search "TODO" in src',
  );
  assert.equal(text(call({ title: 'Find', meta: cc('Glob'), rawInput: { pattern: '**/*.ts' } })), 'Find files **/*.ts');
  assert.equal(
    text(call({ title: 'Fetch', meta: cc('WebFetch'), rawInput: { url: 'https://x.dev' } })),
    'Fetch https://x.dev',
  );
  assert.equal(
    text(
      call({ title: 'Task', meta: cc('Task'), rawInput: { description: 'Explore code', subagent_type: 'Explore' } }),
    ),
    'Agent (Explore) Explore code',
  );
  // Tandem's client tools, whichever row shows them (the agent's own names the MCP server).
  const tandem = (m: Record<string, unknown>) => ({ tandem: { group: 'IDE', clientTool: true, ...m } });
  assert.equal(
    text(
      call({
        title: 'mcp__tandem__IDE',
        meta: tandem({ tool: 'OpenFile', kind: 'tool', args: { path: '/home/user/project/src/a.ts', line: 3 } }),
      }),
    ),
    'IDE · OpenFile src/a.ts:3',
  );
  assert.equal(
    text(
      call({ title: 'OpenFile (tandem MCP Server)', meta: tandem({ tool: 'GetSelection', kind: 'tool', args: {} }) }),
    ),
    'IDE · GetSelection',
  );
  assert.equal(
    text(call({ title: 'IDE (tandem MCP Server)', meta: tandem({ tool: 'IDE', kind: 'container', args: {} }) })),
    'IDE · expand group',
  );
  // Other agents: their title, with workspace paths made relative.
  assert.equal(text(call({ title: 'Writing to /home/user/project/new.txt' })), 'Writing to new.txt');
  // codex-acp: a command titled with itself; a patch titled with absolute paths.
  assert.equal(
    text(call({ title: 'npm test', kind: 'execute', rawInput: { command: ['/bin/bash', '-lc', 'npm test'] } })),
    'Run npm test',
  );
  assert.equal(
    text(
      call({
        title: 'List /home/user/project/src',
        kind: 'search',
        rawInput: { command: ['/bin/bash', '-lc', 'ls src'] },
      }),
    ),
    'List src',
  );
  assert.equal(
    text(call({ title: 'Edit /home/user/project/a.txt, /home/user/project/b/c.txt', kind: 'edit' })),
    'Edit a.txt, b/c.txt',
  );
});

test('tool call: unknown content is shown as JSON, not dropped; terminals and diffs render', async () => {
  await Json.load();
  const c = call({
    kind: 'execute',
    content: [
      { type: 'mystery', payload: { x: 1 } } as never,
      { type: 'content', content: { type: 'weird_block', data: 42 } as never },
      { type: 'diff', path: '/home/user/project/n.txt', oldText: null, newText: 'new\n' },
      { type: 'terminal', terminalId: 't1' },
    ],
    rawInput: { command: 'ls' },
  });
  const terminals = {
    t1: { terminalId: 't1', command: 'ls', output: 'file\n', truncated: false, exited: true, exitCode: 0 },
  };
  const row = renderToString(
    h(ToolCallRow, { call: c, expanded: true, focused: false, onToggle: () => {}, onFocus: () => {}, terminals }),
  );
  assert.match(row, /role="treeitem"/);
  assert.match(row, /aria-expanded="true"/);
  const html = renderToString(h(ToolDetails, { call: c, terminals }));
  assert.match(html, /Unknown content/);
  assert.match(html, /mystery/);
  assert.match(html, /weird_block/);
  assert.match(html, /data-new-file="true"/);
  assert.match(html, /data-testid="terminal"/);
  assert.match(html, /exit 0/);
  const block = renderToString(h(ContentBlockView, { block: { type: 'nope' } as never, cacheKey: 'x' }));
  assert.match(block, /nope/);
});

test('tool call details: a call the agent ran without asking says its own settings allowed it, and where', () => {
  const c = call({
    kind: 'execute',
    rawInput: { command: 'rm -rf build' },
    permission: { outcome: 'selected', by: 'agent', rule: '.claude/settings.local.json', at: 1 },
  });
  const html = renderToString(h(ToolDetails, { call: c, terminals: {} }));
  assert.match(html, /Ran without asking: allowed by the agent's own settings \(\.claude\/settings\.local\.json\)/);
});

test("tool call details: an agent's own terminal stops reading running once its call failed or was interrupted; Tandem's own keeps its process's state", () => {
  const running = { terminalId: 'a1', command: 'npm run build', output: 'building\n', truncated: false, exited: false };
  const details = (over: Partial<ToolCallView>, terminalId = 'a1') =>
    renderToString(
      h(ToolDetails, {
        call: call({ kind: 'execute', ...over }),
        terminals: { [terminalId]: { ...running, terminalId } },
      }),
    );
  // claude-agent-acp's terminal (`_meta.terminal_info`) while its call runs, and after the turn failed.
  assert.match(details({ status: 'in_progress', agentTerminalId: 'a1' }), /running/);
  const over = details({ status: 'in_progress', interrupted: true, agentTerminalId: 'a1' });
  assert.doesNotMatch(over, /running/);
  assert.match(over, /data-testid="terminal-exit"[^>]*>ended</);
  assert.doesNotMatch(details({ status: 'failed', agentTerminalId: 'a1' }), /running/);
  // A terminal Tandem runs: its process says when it ends, whatever the call's status.
  assert.match(details({ status: 'failed', content: [{ type: 'terminal', terminalId: 't9' }] }, 't9'), /running/);
});

test('permission prompt: says what an always option remembers', () => {
  const req = {
    requestId: 'perm-1',
    toolCallId: 'c1',
    toolCall: { toolCallId: 'c1', kind: 'execute' as const, rawInput: { command: 'node -e 1' } },
    options: [{ optionId: 'a', name: 'Always Allow', kind: 'allow_always' as const }],
    at: 1,
    alwaysScope: 'exactly `node -e 1`',
  };
  const html = renderToString(h(PermissionPrompt, { req, active: false, position: 1, total: 1 }));
  assert.match(html, /data-testid="permission-scope"[^>]*>“Always” remembers exactly `node -e 1`/);
});

test('mirror: patches apply once per frame, announce completions, keep identities of untouched turns', () => {
  const m = new Mirror();
  let scheduled: (() => void) | undefined;
  m.schedule = (cb) => {
    scheduled = cb;
    return 1;
  };
  const said: string[] = [];
  m.onAnnounce((t) => said.push(t));
  let renders = 0;
  m.subscribe(() => renders++);
  const snap = emptySnapshot('s1');
  snap.turns = [
    { index: 0, startedAt: 0, endedAt: 5, stopReason: 'end_turn', items: [] },
    { index: 1, startedAt: 10, items: [] },
  ];
  m.receive({ type: 'snapshot', agent: { state: 'ready' }, session: snap });
  const before = m.current.session!.turns[0];
  const c = call({ turn: 1, status: 'in_progress', endedAt: undefined });
  m.receive({
    type: 'patch',
    sessionId: 's1',
    patches: [
      { op: 'item', turn: 1, index: 0, item: { kind: 'tool', toolCallId: 'c1' } },
      { op: 'tool', call: c },
    ],
  });
  m.receive({
    type: 'patch',
    sessionId: 's1',
    patches: [{ op: 'item', turn: 1, index: 1, item: { kind: 'agent', blocks: [{ type: 'text', text: 'a' }] } }],
  });
  m.receive({
    type: 'patch',
    sessionId: 's1',
    patches: [
      { op: 'append', turn: 1, index: 1, block: 0, text: 'b' },
      { op: 'tool', call: { ...c, status: 'completed' } },
    ],
  });
  m.receive({ type: 'patch', sessionId: 'other', patches: [{ op: 'meta', meta: { title: 'x' } }] });
  assert.equal(renders, 1, 'nothing rendered before the frame');
  scheduled!();
  assert.equal(renders, 2, 'one render for the whole burst');
  const s = m.current.session!;
  assert.equal(s.turns[0], before, 'an untouched turn keeps its identity (its rows stay cached)');
  assert.deepEqual(s.turns[1].items[1], { kind: 'agent', blocks: [{ type: 'text', text: 'ab' }] });
  assert.equal(s.toolCalls.c1.status, 'completed');
  assert.equal(s.meta.title, undefined, 'patches of another session are ignored');
  assert.deepEqual(said, ['Tool completed.']);
  // Rows: the last turn is open, older ones fold; the first user message is the header.
  const rows = buildRows(s, new Map(), undefined, { kinds: new Set(), statuses: new Set() }, '');
  assert.deepEqual(
    rows.map((r) => r.type),
    ['turn', 'turn', 'tool', 'item'],
  );
  const filtered = buildRows(s, new Map(), undefined, { kinds: new Set(['read']), statuses: new Set() }, 'read');
  assert.deepEqual(
    filtered.map((r) => r.type),
    ['turn', 'turn', 'item'],
  );
  const all = buildRows(s, new Map(), true, { kinds: new Set(), statuses: new Set() }, '');
  assert.deepEqual(
    all.map((r) => r.type),
    ['turn', 'turn'],
  );
});

test('composer: a config option of category "mode" replaces the mode picker (codex-acp sends both)', async () => {
  await pickers.load();
  const modes = [
    { id: 'read-only', name: 'Read Only' },
    { id: 'auto', name: 'Default' },
  ];
  const select = selectOption;
  const props = {
    working: false,
    enabled: true,
    commands: [],
    modes,
    currentModeId: 'read-only',
  };
  const both = renderToString(
    h(Composer, { ...props, configOptions: [select('mode', 'mode'), select('model', 'model')] as never }),
  );
  assert.ok(!both.includes('data-testid="mode-picker"'), 'one mode picker, from the config option');
  assert.ok(both.includes('data-testid="config-mode"') && both.includes('data-testid="config-model"'));
  const modelOnly = renderToString(h(Composer, { ...props, configOptions: [select('model', 'model')] as never }));
  assert.ok(modelOnly.includes('data-testid="mode-picker"'), 'modes still shown when no option covers them');
  assert.equal(modePickerShown({ modes: [], configOptions: [] }), false);
});

test("composer: pickers other than mode and model say what they set (claude-agent-acp's Effort, Fast mode)", async () => {
  await pickers.load();
  const select = (id: string, name: string, category: string, current: string) => ({
    id,
    name,
    category,
    type: 'select',
    currentValue: current,
    options: [
      { value: 'on', name: 'On' },
      { value: 'off', name: 'Off' },
      { value: 'default', name: 'Default' },
      { value: 'sonnet', name: 'Sonnet 5.5' },
    ],
  });
  const html = renderToString(
    h(Composer, {
      working: false,
      enabled: true,
      commands: [],
      modes: [],
      configOptions: [
        select('model', 'Model', 'model', 'sonnet'),
        select('effort', 'Effort', 'thought_level', 'default'),
        select('fast', 'Fast mode', 'model_config', 'off'),
      ] as never,
    }),
  );
  // Options other than mode and model sit behind one settings button, whose tooltip says their values.
  assert.match(html, /title="Effort: Default · Fast mode: Off"/);
  assert.match(html, /<option[^>]*value="sonnet"[^>]*>Sonnet 5.5<\/option>/, 'a model needs no prefix');
  assert.equal(optionLabel({ name: 'Mode', category: 'mode' }, 'Manual'), 'Manual');
  assert.equal(optionLabel({ name: 'Verbosity' }, 'High'), 'Verbosity: High', 'no category: named');
});

test("rows: a subagent's calls show under the Agent call that started it, indented; the filter still finds them", () => {
  const s = emptySnapshot('s1');
  const mk = (id: string, kind: ToolCallView['kind'], parentId?: string) =>
    call({ toolCallId: id, title: id, kind, ...(parentId ? { parentId } : {}) });
  s.toolCalls = {
    a: mk('a', 'think'),
    r1: mk('r1', 'read', 'a'),
    b: mk('b', 'edit'),
    r2: mk('r2', 'search', 'a'),
    g: mk('g', 'read', 'r2'),
  };
  s.turns = [
    {
      index: 0,
      startedAt: 1,
      items: [
        { kind: 'user', blocks: [] },
        ...['a', 'r1', 'b', 'r2', 'g'].map((id) => ({ kind: 'tool' as const, toolCallId: id })),
      ],
    } as never,
  ];
  const none = { kinds: new Set<string>(), statuses: new Set<string>() };
  const rows = buildRows(s, new Map(), undefined, none, '').filter((r) => r.type === 'tool') as {
    toolCallId: string;
    depth: number;
  }[];
  assert.deepEqual(
    rows.map((r) => [r.toolCallId, r.depth]),
    [
      ['a', 0],
      ['r1', 1],
      ['r2', 1],
      ['g', 2],
      ['b', 0],
    ],
  );
  // Filtered to reads: the nested reads stay, their Agent call (think) does not.
  const reads = buildRows(s, new Map(), undefined, { kinds: new Set(['read']), statuses: new Set() }, 'read').filter(
    (r) => r.type === 'tool',
  ) as { toolCallId: string; depth: number }[];
  assert.deepEqual(
    reads.map((r) => r.toolCallId),
    ['r1', 'g'],
  );
  // Left arrow goes to the parent: the Agent call for a subagent's call, the turn for the others.
  const all = buildRows(s, new Map(), undefined, none, '');
  const at = (id: string) => all.findIndex((r) => r.type === 'tool' && r.toolCallId === id);
  assert.equal(parentRowIndex(all, at('g')), at('r2'));
  assert.equal(parentRowIndex(all, at('r2')), at('a'), 'past its sibling r1');
  assert.equal(all[parentRowIndex(all, at('b'))].type, 'turn');
  assert.equal(parentRowIndex(all, 0), -1, 'a turn has no parent row');
  const html = renderToString(
    h(ToolCallRow, {
      call: s.toolCalls.g,
      expanded: false,
      focused: false,
      terminals: {},
      onToggle: () => undefined,
      onFocus: () => undefined,
      depth: 2,
    }),
  );
  assert.match(html, /class="tool tool-[a-z_]+ depth-2"/);
  assert.match(html, /aria-level="4"/);
});
