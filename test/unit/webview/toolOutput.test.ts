// What a tool returned is shown as it is: a command's output keeps its lines, `#` and `*` stay
// characters, and the command in the row's title is the one that ran. Markdown is for prose: the
// agent's messages and a subagent's report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { renderToString } from 'preact-render-to-string';
import { h, type ComponentChild } from 'preact';
import { setPurifyWindow } from '../../../src/webview/markdown';
import { ContentBlockView } from '../../../src/webview/components/ContentBlocks';
import { ToolCallRow } from '../../../src/webview/components/ToolCallRow';
import ToolDetails from '../../../src/webview/components/ToolDetails';
import { RootsContext } from '../../../src/webview/toolTitle';
import { looksLikeProse, showsLiterally } from '../../../src/webview/toolOutput';
import type { ToolCallView } from '../../../src/shared/sessionModel';
import { repoRoot } from '../../support/paths';
import { toolCall } from './toolCall';

const dom = new JSDOM('<!DOCTYPE html><body></body>');
setPurifyWindow(dom.window);
const ROOT = '/home/user/project';

/** The rendered view as a DOM (in the workspace folder ROOT). */
function mount(view: ComponentChild): HTMLElement {
  const el = dom.window.document.createElement('div');
  el.innerHTML = renderToString(h(RootsContext.Provider, { value: [ROOT] }, view));
  return el;
}

const textOutput = (text: string, over: Partial<ToolCallView> = {}) =>
  toolCall({
    kind: 'execute',
    status: 'completed',
    rawInput: { command: 'echo tandem-$((6*7)); echo second-line' },
    content: [{ type: 'content', content: { type: 'text', text } }],
    ...over,
  });
const details = (call: ToolCallView) => mount(h(ToolDetails, { call, terminals: {} }));
const titleOf = (call: ToolCallView) =>
  mount(
    h(ToolCallRow, { call, expanded: false, focused: false, terminals: {}, onToggle: () => {}, onFocus: () => {} }),
  ).querySelector('[data-testid="tool-title"]')!.textContent;

test("a command's two-line output renders on two lines, in a block that keeps them", () => {
  const pre = details(textOutput('tandem-42\nsecond-line\n')).querySelector('.tool-content pre.plain-text');
  assert.ok(pre, 'the output is a preformatted block');
  assert.equal(pre.textContent, 'tandem-42\nsecond-line\n');
  // The block's style keeps the line breaks (and the text wraps instead of running off).
  const css = readFileSync(join(repoRoot, 'media/webview.css'), 'utf8');
  assert.match(
    css,
    /\.plain-text,[^{]*\{[^}]*white-space: pre-wrap;[^}]*font-family: var\(--vscode-editor-font-family\)/,
  );
});

test('output that reads like Markdown stays literal: no heading, no emphasis', () => {
  for (const kind of ['execute', 'read', 'search', 'fetch', 'edit'] as const) {
    const html = details(textOutput('# not-a-heading *not-italic*\n__init__.py', { kind }));
    assert.equal(html.querySelector('h1, em, strong'), null, kind);
    assert.equal(html.querySelector('pre.plain-text')?.textContent, '# not-a-heading *not-italic*\n__init__.py', kind);
  }
});

test('long output is cut to the bounded size with a note, never put whole into the page', () => {
  const big = 'x'.repeat(250_000);
  const pre = details(textOutput(big)).querySelector('pre.plain-text')!;
  assert.ok(pre.textContent!.length < 100_100);
  assert.match(pre.textContent!, /… 150000 more characters$/);
});

test("the row's title shows the command exactly, asterisks and backticks included", () => {
  // Qwen Code: the command is in the title.
  assert.equal(
    titleOf(toolCall({ kind: 'execute', title: 'Shell: rm -rf *.o **/build' })),
    'Shell: rm -rf *.o **/build',
  );
  // opencode / Kilo title a command with the tool's name: the command comes from its input.
  assert.equal(
    titleOf(toolCall({ kind: 'execute', title: 'bash', rawInput: { command: 'ls *.md && echo `date`' } })),
    'Run ls *.md && echo `date`',
  );
  // gemini-cli: the command is the title; the backticks of a command substitution stay.
  assert.equal(titleOf(toolCall({ kind: 'execute', title: 'echo `date` _x_' })), 'echo `date` _x_');
  // claude-code-acp wraps the command in one code span: only that goes.
  assert.equal(titleOf(toolCall({ kind: 'execute', title: '`echo *hi*`' })), 'echo *hi*');
  assert.equal(
    titleOf(toolCall({ kind: 'execute', title: '`echo `date``', rawInput: { command: 'echo `date`' } })),
    'echo `date`',
  );
});

test("the agent's messages and a subagent's report are still Markdown", () => {
  const msg = mount(
    h(ContentBlockView, { block: { type: 'text', text: '# Done\n\nIt *works* now.' }, cacheKey: 'm1', stream: true }),
  );
  assert.equal(msg.querySelector('h1')?.textContent, 'Done');
  assert.equal(msg.querySelector('em')?.textContent, 'works');
  const report =
    '## Findings\n\nThe login handler in the auth module retries the request without a limit, so a bad password ' +
    'locks the account after a few seconds.\n\n- Add a *retry limit* to the handler of the login form.';
  const think = details(textOutput(report, { kind: 'think', rawInput: undefined }));
  assert.equal(think.querySelector('h2')?.textContent, 'Findings');
  assert.equal(think.querySelector('pre.plain-text'), null);
});

test('a think or other call whose text looks like program output is literal too', () => {
  assert.equal(showsLiterally('other', '{"files": ["a.ts", "b.ts"]}'), true);
  assert.equal(showsLiterally('other', 'src/a.ts:3: TODO\nsrc/b.ts:9: TODO'), true);
  assert.equal(showsLiterally('think', 'total 8\ndrwxr-xr-x 2 root root 4096 .'), true);
  assert.equal(showsLiterally('other', '\x1b[32mok\x1b[0m all tests passed in the suite'), true);
  assert.equal(
    looksLikeProse('The three failing tests all share one cause: the fixture is written after the read.'),
    true,
  );
  assert.equal(
    showsLiterally('execute', 'The three failing tests all share one cause: the fixture is written after.'),
    true,
  );
});
