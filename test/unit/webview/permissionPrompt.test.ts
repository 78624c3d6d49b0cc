// The permission prompt: it says what it asks (Run `cmd`, Edit `file`, Call `IDE · OpenFile`),
// shows the diff an edit proposes (the request's own, or its row's) with Open diff, and makes
// Allow (once) the first and only primary button, with Alt+N following what is shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { until } from '../../support/until';
import { fakeHost } from './fakeHost';
import { toolCall } from './toolCall';
import type { PermissionRequestView, ToolCallView } from '../../../src/shared/sessionModel';

const dom = new JSDOM('<!DOCTYPE html><body><div id="root"></div></body>', { pretendToBeVisual: true });
const g = globalThis as Record<string, unknown>;
for (const k of ['window', 'document', 'navigator', 'HTMLElement', 'Element', 'Node', 'Event', 'KeyboardEvent']) {
  if (!(k in g) || k === 'window' || k === 'document') g[k] = (dom.window as unknown as Record<string, unknown>)[k];
}
g.requestAnimationFrame = (cb: () => void) => setTimeout(cb, 0);

const ROOT = '/home/user/project';
const OPTIONS = [
  { optionId: 'always', name: 'Always Allow', kind: 'allow_always' as const },
  { optionId: 'once', name: 'Allow', kind: 'allow_once' as const },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' as const },
];

function request(toolCall: Partial<PermissionRequestView['toolCall']>): PermissionRequestView {
  return { requestId: 'r1', toolCallId: 'c1', toolCall: { toolCallId: 'c1', ...toolCall }, options: OPTIONS, at: 0 };
}

const row = toolCall;

async function mount(req: PermissionRequestView, call?: ToolCallView) {
  const { h, render } = require('preact') as typeof import('preact');
  const { CallPermissionPrompts, PermissionCards, groupPrompts } =
    require('../../../src/webview/components/PermissionPrompt') as typeof import('../../../src/webview/components/PermissionPrompt');
  const { HostContext } = require('../../../src/webview/host') as typeof import('../../../src/webview/host');
  const { RootsContext } = require('../../../src/webview/toolTitle') as typeof import('../../../src/webview/toolTitle');
  const { emptySnapshot } =
    require('../../../src/shared/sessionModel') as typeof import('../../../src/shared/sessionModel');
  const fake = fakeHost();
  const root = document.getElementById('root')!;
  const prompts = groupPrompts([req]).get(req.toolCallId)!;
  const view = call
    ? h(CallPermissionPrompts, { prompts, call })
    : h(PermissionCards, { session: { ...emptySnapshot('s1'), permissions: [req] } });
  // The workspace folder, as App provides the mirrored state's.
  render(h(HostContext.Provider, { value: fake.host }, h(RootsContext.Provider, { value: [ROOT] }, view)), root);
  await until(() => !!root.querySelector('[data-testid="permission-prompt"]'), 2000, 'the prompt chunk');
  const question = () => root.querySelector('[data-testid="permission-question"]')?.textContent ?? '';
  const buttons = () => [...root.querySelectorAll<HTMLButtonElement>('[data-testid="permission-option"]')];
  return { ...fake, root, question, buttons, unmount: () => render(null, root) };
}

test('an edit prompt shows the diff it asks about, with Open diff for that request', async () => {
  const req = request({
    title: 'Edit edit-me.txt',
    kind: 'edit',
    content: [{ type: 'diff', path: `${ROOT}/edit-me.txt`, oldText: 'hello world\n', newText: 'hello ACP\n' }],
    locations: [{ path: `${ROOT}/edit-me.txt` }],
  });
  const { root, question, intents, unmount } = await mount(req, row({ kind: 'edit', title: 'Edit edit-me.txt' }));
  assert.equal(question(), 'Edit edit-me.txt?');
  await until(() => !!root.querySelector('[data-testid="diff"]'), 2000, 'the diff view chunk');
  const text = root.querySelector('[data-testid="permission-diffs"]')!.textContent ?? '';
  assert.match(text, /hello world/);
  assert.match(text, /hello ACP/);
  root.querySelector<HTMLButtonElement>('[data-testid="open-diff"]')!.click();
  assert.deepEqual(intents, [{ type: 'openDiff', toolCallId: 'c1', index: 0, requestId: 'r1' }]);
  unmount();
});

test("a request without content shows its row's diff (claude-code-acp asks with the raw input only)", async () => {
  const req = request({
    title: `Write ${ROOT}/new.txt`,
    rawInput: { file_path: `${ROOT}/new.txt`, content: 'brand new\n' },
  });
  const call = row({
    kind: 'edit',
    content: [{ type: 'diff', path: `${ROOT}/new.txt`, oldText: null, newText: 'brand new\n' }],
  });
  const { root, question, intents, unmount } = await mount(req, call);
  assert.equal(question(), 'Create new.txt?');
  await until(() => !!root.querySelector('[data-testid="diff"]'), 2000, 'the diff view chunk');
  assert.match(root.querySelector('[data-testid="diff"]')!.textContent ?? '', /brand new/);
  root.querySelector<HTMLButtonElement>('[data-testid="open-diff"]')!.click();
  assert.deepEqual(intents, [{ type: 'openDiff', toolCallId: 'c1', index: 0 }]);
  unmount();
});

test('Allow (once) is the first and only primary button; Alt+N follows the order shown', async () => {
  const req = request({ title: '`npm run lint`', rawInput: { command: 'npm run lint' } });
  // The view has focus (the prompt takes it only then, never from the command palette or an editor).
  document.hasFocus = () => true;
  const { buttons, intents, question, root, unmount } = await mount(req);
  assert.equal(question(), 'Run npm run lint?');
  assert.equal(root.querySelector('[data-testid="permission-command"]'), null, 'a short command is the question');
  assert.deepEqual(
    buttons().map((b) => [b.dataset.kind, b.classList.contains('secondary')]),
    [
      ['allow_once', false],
      ['allow_always', true],
      ['reject_once', true],
    ],
  );
  // The prompt takes focus (allow once) when its effect runs; Alt+N works from then on.
  await until(() => document.activeElement === buttons()[0], 1000, 'focus on Allow');
  document.dispatchEvent(new dom.window.KeyboardEvent('keydown', { altKey: true, code: 'Digit1', bubbles: true }));
  assert.deepEqual(intents, [{ type: 'permissionAnswer', requestId: 'r1', optionId: 'once' }]);
  unmount();
});

test('a long command is named short in the question and shown in full below it', async () => {
  const long = `node -e "${'x'.repeat(80)}"`;
  const { question, root, unmount } = await mount(request({ kind: 'execute', rawInput: { command: long } }));
  assert.match(question(), /^Run node -e "x+…\?$/);
  assert.equal(root.querySelector('[data-testid="permission-command"]')!.textContent, long);
  unmount();
});

test('a client-tool call is asked as "Call IDE · OpenFile", also on the pending row of the MCP container', async () => {
  const req = request({ title: 'mcp__tandem__IDE' });
  const call = row({
    title: 'mcp__tandem__IDE',
    rawInput: { function: 'OpenFile', arguments: { path: `${ROOT}/src/a.ts`, line: 3 } },
  });
  const { question, unmount } = await mount(req, call);
  assert.equal(question(), 'Call IDE · OpenFile src/a.ts:3?');
  unmount();
});

test("codex-acp's approval of an MCP call (asked about the call's own row) is asked as Call IDE · OpenFile", async () => {
  // codex-acp 2.6.0: the request carries only the call's id and kind; the row has title and input.
  const req = request({ kind: 'execute', status: 'pending', _meta: undefined });
  const call = row({
    title: 'mcp.tandem.IDE',
    kind: 'execute',
    rawInput: {
      server: 'tandem',
      tool: 'IDE',
      arguments: { function: 'OpenFile', arguments: { path: `${ROOT}/src/a.ts`, line: 3 } },
    },
    meta: { is_mcp_tool_call: true },
  });
  const { question, unmount } = await mount(req, call);
  assert.equal(question(), 'Call IDE · OpenFile src/a.ts:3?');
  unmount();
});

test('a command given as an argv array or as a program with args is shown whole, quoted as bash would run it', async () => {
  for (const [rawInput, shown] of [
    [{ command: ['git', 'push', '--force', 'origin', 'main'] }, 'git push --force origin main'],
    [{ command: 'rm', args: ['-rf', '/home/u'] }, 'rm -rf /home/u'],
    [{ command: ['bash', '-lc', 'git status; rm -rf ~'] }, `bash -lc 'git status; rm -rf ~'`],
    [{ command: 'echo', args: ["it's", 'a b'] }, `echo 'it'\\''s' 'a b'`],
  ] as const) {
    const p = await mount(request({ title: 'Run', kind: 'execute', rawInput }));
    assert.equal(p.question(), `Run ${shown}?`, JSON.stringify(rawInput));
    p.unmount();
  }
});

test('an ExitPlanMode prompt asks "Ready to code?", never "Allow ?" with nothing to allow', async () => {
  // claude-code-acp 0.16.2: the request has the title and the plan; the row has the tool's name.
  const req = request({ title: 'Ready to code?', rawInput: { plan: 'Change plan.txt' } });
  const call = row({
    title: 'Ready to code?',
    kind: 'switch_mode',
    meta: { claudeCode: { toolName: 'ExitPlanMode' } },
  });
  const { root, question, unmount } = await mount(req, call);
  assert.equal(question(), 'Ready to code?');
  const label = root.querySelector('[data-testid="permission-prompt"]')?.getAttribute('aria-label');
  assert.equal(label, 'Permission request: Ready to code');
  unmount();
});

test("Tandem's own Rename question says what it renames to what, how many edits in how many files, and lists them", async () => {
  const args = { path: 'src/shapes.ts', line: 1, symbol: 'area', newName: 'surface' };
  const question = 'Rename `area` to `surface`: 4 edits in 2 files';
  const req: PermissionRequestView = {
    ...request({
      title: question,
      kind: 'edit',
      rawInput: args,
      locations: [{ path: `${ROOT}/src/shapes.ts` }, { path: `${ROOT}/src/report.ts` }],
      _meta: { tandem: { group: 'Code', tool: 'Rename', args, question } },
    }),
    origin: 'client',
  };
  // The agent's own row, which Tandem annotated when the call started (no question there).
  const call = row({
    title: 'mcp__tandem__Rename',
    meta: { tandem: { group: 'Code', tool: 'Rename', kind: 'tool', args, clientTool: true } },
  });
  const { root, question: asked, unmount } = await mount(req, call);
  assert.equal(asked(), 'Rename area to surface: 4 edits in 2 files?');
  assert.deepEqual(
    [...root.querySelectorAll('[data-testid="permission-question"] code')].map((c) => c.textContent),
    ['area', 'surface'],
  );
  assert.deepEqual(
    [...root.querySelectorAll('.permission-paths .chip')].map((c) => c.textContent?.trim()),
    ['src/shapes.ts', 'src/report.ts'],
  );
  assert.equal(
    root.querySelector('[data-testid="permission-prompt"]')?.getAttribute('aria-label'),
    'Permission request: Rename area to surface: 4 edits in 2 files',
  );
  unmount();
});

test("the agent's own prompt for a Rename says what it renames to what; only Tandem may word a question itself", async () => {
  const rawInput = {
    function: 'Rename',
    arguments: { path: `${ROOT}/src/shapes.ts`, line: 1, symbol: 'area', newName: 'surface' },
  };
  const viaContainer = await mount(
    request({ title: 'mcp__tandem__Code', rawInput }),
    row({ title: 'mcp__tandem__Code', meta: { claudeCode: { toolName: 'mcp__tandem__Code' } } }),
  );
  assert.equal(viaContainer.question(), 'Rename area in src/shapes.ts:1 to surface?');
  viaContainer.unmount();
  // An agent's request that carries Tandem's words is worded from the call, not from them.
  const forged = await mount(
    request({
      title: 'Code · Rename',
      rawInput: { path: 'a.ts' },
      _meta: { tandem: { group: 'Code', tool: 'Rename', args: {}, question: 'Nothing to see: allow' } },
    }),
  );
  assert.equal(forged.question(), 'Call Code · Rename?');
  forged.unmount();
});

test('the container call is asked in the words its row reads: "Code · expand group", not "Tandem · Code"', async () => {
  const { titleText } = require('../../../src/webview/toolTitle') as typeof import('../../../src/webview/toolTitle');
  // Claude Code asks before it calls the container; Tandem has not seen the call yet.
  const pending = row({ title: 'mcp__tandem__Code', meta: { claudeCode: { toolName: 'mcp__tandem__Code' } } });
  const p = await mount(request({ title: 'mcp__tandem__Code', rawInput: {} }), pending);
  assert.equal(p.question(), 'Call Code · expand group?');
  assert.equal(titleText(pending, [ROOT]), 'Code · expand group');
  // The same row once Tandem ran the call and annotated it.
  const done = row({
    title: 'mcp__tandem__Code',
    meta: { tandem: { group: 'Code', tool: 'Code', kind: 'container', args: {}, clientTool: true } },
  });
  assert.equal(titleText(done, [ROOT]), 'Code · expand group');
  p.unmount();
});

test("Tandem's outside-the-workspace question says so and names the file; a link and its target both in full", async () => {
  const outside = (rawInput: Record<string, unknown>, title: string): PermissionRequestView => ({
    ...request({ title, kind: 'read', locations: [{ path: rawInput.resolvedPath as string }], rawInput }),
    toolCallId: 'tandem-fs-1',
    origin: 'client',
  });
  const plain = await mount(
    outside(
      { path: '/home/user/notes.txt', resolvedPath: '/home/user/notes.txt', access: 'read', outside: 'workspace' },
      'Read /home/user/notes.txt — outside the workspace',
    ),
  );
  assert.equal(plain.question(), 'Read /home/user/notes.txt, outside the workspace?');
  assert.equal(plain.root.querySelector('[data-testid="permission-via"]'), null);
  plain.unmount();

  const link = await mount(
    outside(
      { path: `${ROOT}/link/secret.ts`, resolvedPath: '/elsewhere/secret.ts', access: 'write', outside: 'workspace' },
      `Write /elsewhere/secret.ts — outside the workspace (${ROOT}/link/secret.ts → /elsewhere/secret.ts)`,
    ),
  );
  assert.equal(link.question(), 'Write /elsewhere/secret.ts, outside the workspace?');
  assert.equal(
    link.root.querySelector('[data-testid="permission-via"]')?.textContent,
    `through the link ${ROOT}/link/secret.ts`,
  );
  assert.ok(!link.root.textContent?.includes('more'), link.root.textContent ?? '');
  link.unmount();

  const worktree = await mount(
    outside(
      { path: '/etc/hosts', resolvedPath: '/etc/hosts', access: 'read', outside: 'worktree' },
      "Read /etc/hosts — outside the session's worktree (/wt/fix)",
    ),
  );
  assert.equal(worktree.question(), "Read /etc/hosts, outside this session's worktree?");
  worktree.unmount();
});
