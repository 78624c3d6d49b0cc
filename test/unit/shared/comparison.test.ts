// "Ask Several Agents", the pure parts: what a comparison column shows from a session's state,
// its worktree's changes and its test run; the HTML it is rendered to (everything escaped, the
// final message as text); the page's CSP; and the check of every message the page posts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { comparisonPage, escapeHtml, renderColumn, renderHeader } from '../../../src/shared/comparisonHtml';
import {
  type ColumnInput,
  MAX_MESSAGE_CHARS,
  columnView,
  comparisonTitle,
  finalMessage,
  isComparisonRecord,
  shortPrompt,
} from '../../../src/shared/comparisonModel';
import { parseFromComparison } from '../../../src/shared/comparisonProtocol';
import type { ItemView, TurnView } from '../../../src/shared/sessionModel';

const text = (kind: 'user' | 'agent' | 'thought', t: string): ItemView => ({
  kind,
  blocks: [{ type: 'text', text: t }],
});

function turn(items: ItemView[], extra: Partial<TurnView> = {}): TurnView {
  return { index: 0, startedAt: 1, endedAt: 2, stopReason: 'end_turn', items, ...extra };
}

const base: ColumnInput = { sessionId: 's1', agentName: 'AskA', branch: 'tandem/fix-ask-a' };

test("the final message is the turn's last agent message, its text blocks joined; thoughts and tools are not", () => {
  const t = turn([
    text('user', 'do it'),
    text('agent', 'I will write the file.'),
    { kind: 'tool', toolCallId: 'c1' },
    {
      kind: 'agent',
      blocks: [
        { type: 'text', text: 'Done:\n' },
        { type: 'text', text: '- wrote a.txt' },
      ],
    },
    text('thought', 'that went well'),
  ]);
  assert.equal(finalMessage(t), 'Done:\n- wrote a.txt');
  assert.equal(finalMessage(turn([text('user', 'hi')])), undefined);
  assert.equal(finalMessage(undefined), undefined);
  // An agent message of whitespace only (a chunk before a tool call) is passed over.
  assert.equal(finalMessage(turn([text('agent', 'first'), text('agent', '  \n')])), 'first');
});

test('the status: working, done, failed (error, refusal, cancel, send), disconnected, discarded', () => {
  const s = (i: Partial<ColumnInput>) => columnView({ ...base, ...i });
  assert.equal(s({ session: { status: 'working' } }).status, 'working');
  assert.equal(s({ session: { status: 'idle' }, sending: true }).status, 'working', 'the prompt is on its way');
  assert.equal(s({ session: { status: 'idle' }, lastTurn: turn([text('agent', 'ok')]) }).status, 'done');
  const failed = s({ session: { status: 'idle' }, lastTurn: turn([], { error: 'Internal error: boom' }) });
  assert.deepEqual([failed.status, failed.detail], ['failed', 'Internal error: boom']);
  assert.equal(s({ session: { status: 'idle' }, lastTurn: turn([], { stopReason: 'refusal' }) }).status, 'failed');
  assert.equal(s({ session: { status: 'idle' }, lastTurn: turn([], { stopReason: 'cancelled' }) }).status, 'failed');
  assert.equal(s({ session: { status: 'idle' }, sendError: 'no agent' }).status, 'failed');
  assert.equal(s({ sendError: 'Its agent stopped' }).status, 'failed');
  assert.equal(s({ session: { status: 'disconnected' } }).status, 'disconnected');
  assert.equal(s({}).status, 'disconnected', 'no open session: its agent is not running');
  const gone = s({ branch: undefined, lastTurn: turn([text('agent', 'what it said')]) });
  assert.equal(gone.status, 'discarded');
  assert.equal(gone.message, 'what it said', 'a discarded column still says what the agent did');
  assert.ok(!renderColumn(gone).includes('data-action'), 'no buttons in a discarded column');
  assert.deepEqual(gone.can, { show: false, review: false, runTests: false, apply: false });
});

test('files with their +/− and the totals; Apply only when there is something to apply and the agent is done', () => {
  const done = { status: 'idle' as const };
  const c = columnView({
    ...base,
    session: done,
    lastTurn: turn([text('agent', 'ok')]),
    files: [
      { path: 'a.txt', status: 'added', added: 3, removed: 0 },
      { path: 'b.png', status: 'modified' },
      { path: 'c.ts', status: 'modified', added: 2, removed: 5 },
    ],
  });
  assert.deepEqual([c.added, c.removed], [5, 5]);
  assert.deepEqual(c.can, { show: true, review: true, runTests: true, apply: true });
  assert.equal(columnView({ ...base, session: done, files: [] }).can.apply, false, 'nothing changed');
  assert.equal(columnView({ ...base, session: done, files: c.files, applied: true }).can.apply, false, 'applied once');
  assert.equal(columnView({ ...base, session: { status: 'working' }, files: c.files }).can.apply, false);
  const running = columnView({ ...base, session: done, tests: { state: 'running', task: 'npm: test' } });
  assert.equal(running.can.runTests, false, 'one run at a time');
});

test('a very long final message is cut, and says so', () => {
  const long = 'x'.repeat(MAX_MESSAGE_CHARS + 10);
  const c = columnView({ ...base, session: { status: 'idle' }, lastTurn: turn([text('agent', long)]) });
  assert.equal(c.message?.length, MAX_MESSAGE_CHARS);
  assert.ok(c.messageCut);
  assert.ok(renderColumn(c).includes('\n…</div>'));
});

test("a session's name is the prompt's first words; the panel's title cuts the prompt with an ellipsis", () => {
  assert.equal(shortPrompt('fix it'), 'fix it');
  assert.equal(shortPrompt('Add   input validation to the signup form'), 'Add input validation to');
  assert.equal(shortPrompt('Supercalifragilisticexpialidocious-and-more'), 'Supercalifragilisticexpi');
  assert.equal(comparisonTitle('fix it'), 'Compare: fix it');
  assert.equal(
    comparisonTitle('Add input validation to the signup form and tell me what you changed'),
    'Compare: Add input validation to the signup form…',
  );
});

test('the HTML escapes what agents, git and users wrote; the message keeps its newlines as text', () => {
  assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  const c = columnView({
    ...base,
    agentName: '<b>Evil</b>',
    branch: 'tandem/"x"',
    session: { status: 'idle' },
    lastTurn: turn([text('agent', 'Line one\n<script>alert(1)</script>\n<img src=x onerror=alert(2)>')]),
    files: [{ path: '<img src=x>.txt', status: 'added', added: 1, removed: 0 }],
    tests: { state: 'failed', task: 'npm: <test>', exitCode: 1 },
  });
  const html = renderColumn(c);
  assert.ok(!/<script|<img|<b>/i.test(html), html);
  assert.ok(html.includes('Line one\n&lt;script&gt;alert(1)&lt;/script&gt;\n&lt;img src=x onerror=alert(2)&gt;'));
  assert.ok(html.includes('&lt;b&gt;Evil&lt;/b&gt;'));
  assert.ok(html.includes('tandem/&quot;x&quot;'));
  assert.ok(html.includes('&lt;img src=x&gt;.txt'));
  assert.ok(html.includes('<span class="added">+1</span> <span class="removed">−0</span>'));
  assert.ok(html.includes('npm: &lt;test&gt; failed (exit code 1)'));
  assert.ok(html.includes('data-action="apply" data-testid="apply">'), 'Apply is enabled');
  const header = renderHeader({ id: 'c', prompt: 'Fix <this>', createdAt: 0, appliedAgent: '<A>', columns: [c] });
  assert.ok(
    header.includes('Fix &lt;this&gt;') && header.includes("&lt;A&gt;'s work applied") && header.includes('1 agent ·'),
    header,
  );
});

test('disabled buttons are rendered disabled', () => {
  const html = renderColumn(columnView({ ...base, session: { status: 'working' } }));
  assert.match(html, /data-action="apply" data-testid="apply" disabled>/);
  assert.match(html, /data-action="review" data-testid="review">/);
});

test("the page's CSP: nothing by default, the one script by its nonce, styles and fonts from the extension", () => {
  const html = comparisonPage({
    cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
    nonce: 'abc123',
    script: 'https://x/media/comparison.js',
    styles: ['https://x/dist/codicon.css', 'https://x/media/comparison.css'],
    title: 'Compare: <x>',
  });
  const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
  const dirs = new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/) as [string, ...string[]])
      .map(([k, ...v]) => [k, v]),
  );
  assert.deepEqual(dirs.get('default-src'), ["'none'"]);
  assert.deepEqual(dirs.get('script-src'), ["'nonce-abc123'"]);
  assert.ok(!csp.includes('unsafe-inline') && !csp.includes('unsafe-eval'));
  assert.match(html, /<script nonce="abc123" src="https:\/\/x\/media\/comparison.js"><\/script>/);
  // No inline script or style, no inline handler.
  assert.equal(html.match(/<script/g)?.length, 1);
  assert.ok(!/<style|\son\w+=/i.test(html));
  assert.ok(html.includes('<title>Compare: &lt;x&gt;</title>'));
});

test("the page's messages: known types only, no extra field, and a session of this comparison", () => {
  const ids = ['s1', 's2'];
  assert.deepEqual(parseFromComparison({ type: 'ready' }, ids), { type: 'ready' });
  assert.deepEqual(parseFromComparison({ type: 'refresh' }, ids), { type: 'refresh' });
  for (const type of ['showSession', 'review', 'runTests', 'apply'])
    assert.deepEqual(parseFromComparison({ type, sessionId: 's2' }, ids), { type, sessionId: 's2' });
  const refused = [
    null,
    'apply',
    [],
    { type: 'apply' },
    { type: 'apply', sessionId: 's3' },
    { type: 'apply', sessionId: 7 },
    { type: 'apply', sessionId: 's1', mode: 'merge' },
    { type: 'ready', sessionId: 's1' },
    { type: 'runCommand', command: 'rm -rf /' },
    { type: 'discard', sessionId: 's1' },
  ];
  for (const m of refused) assert.equal(typeof parseFromComparison(m, ids), 'string', JSON.stringify(m));
});

test('a kept comparison record is checked before use', () => {
  const ok = { id: 'c', prompt: 'p', createdAt: 1, sessions: [{ sessionId: 's', agentName: 'A' }] };
  assert.ok(isComparisonRecord(ok));
  assert.ok(isComparisonRecord({ ...ok, appliedId: 's' }));
  assert.ok(!isComparisonRecord({ ...ok, sessions: [{ sessionId: 's' }] }));
  assert.ok(!isComparisonRecord({ ...ok, appliedId: 3 }));
  assert.ok(!isComparisonRecord({ ...ok, prompt: undefined }));
  assert.ok(!isComparisonRecord(null));
});
