// The Code group and files outside the workspace: it asks the question fs/read_text_file asks
// (FileAccess) before opening one, asks to write one an edit reaches, and never hands the
// model the text of such a file in a preview or an error message.
import type { PermissionPort } from '../../../src/client/permissions/permissionPort';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as nodePath from 'node:path';
import type { PermissionOption, ToolCallUpdate } from '@agentclientprotocol/sdk';
import { FileAccess } from '../../../src/client/files/fileAccess';
import { codeToolGroup } from '../../../src/tools/code/codeTools';
import { invokeTool, type InvokeEnv } from '../../../src/tools/invoke';
import { ToolRegistry } from '../../../src/tools/registry';
import { ToolState } from '../../../src/tools/toolState';
import { DEFAULT_TOOLS_CONFIG, type ToolResult } from '../../../src/tools/types';
import { FakeCodePort, loc, ROOT } from './fakeCodePort';

const SECRET = 'export const token = "SECRET-42";';
const OUTSIDE = nodePath.resolve(ROOT, '../outside.ts');
/** `link` in the workspace is a symlink to a folder outside it. */
const LINK = nodePath.join(ROOT, 'link');
const ELSEWHERE = nodePath.resolve('/elsewhere');

function setup(o: { answer?: string; sessionId?: string; port?: FakeCodePort } = {}) {
  const port = (o.port ?? new FakeCodePort())
    .file('src/shapes.ts', 'export function area(w: number) {}\nconst t = area(1);')
    .file('../outside.ts', SECRET)
    .file('link/secret.ts', SECRET);
  port.links.set(LINK, ELSEWHERE);
  const registry = new ToolRegistry();
  registry.register({ ...codeToolGroup(port), startCollapsed: false });
  const questions: Array<{ sessionId: string; call: ToolCallUpdate; options: PermissionOption[] }> = [];
  const t = { answer: o.answer ?? 'reject_once' };
  const permission: PermissionPort = {
    request: async (sessionId, call, options) => {
      questions.push({ sessionId, call, options });
      return { outcome: 'selected', optionId: t.answer };
    },
  };
  const env: InvokeEnv = {
    state: new ToolState(registry, () => DEFAULT_TOOLS_CONFIG),
    config: DEFAULT_TOOLS_CONFIG,
    sessionId: 'sessionId' in o ? o.sessionId : 's1',
    requestPermission: async () => 'allow',
    permission,
  };
  const call = (name: string, args: Record<string, unknown>) => invokeTool(name, args, env);
  return { port, call, questions, t, permission };
}
const text = (r: ToolResult) =>
  r.content.map((c) => (c.type === 'text' ? c.text : c.type === 'json' ? JSON.stringify(c.json) : c.type)).join('\n');

test("a Code tool on a file outside the workspace asks fs/read_text_file's question first; denied, it fails without the file's text", async () => {
  const forms: Array<[string, string, RegExp]> = [
    ['../outside.ts', OUTSIDE, /^Read \/ws\/outside\.ts — outside the workspace$/],
    [OUTSIDE, OUTSIDE, /^Read \/ws\/outside\.ts — outside the workspace$/],
    [`file://${OUTSIDE}`, OUTSIDE, /^Read \/ws\/outside\.ts — outside the workspace$/],
    [
      'link/secret.ts',
      nodePath.join(LINK, 'secret.ts'),
      /^Read \/elsewhere\/secret\.ts — outside the workspace \(\/ws\/project\/link\/secret\.ts → \/elsewhere\/secret\.ts\)$/,
    ],
  ];
  for (const [path, absolute, title] of forms) {
    for (const [tool, args] of [
      ['DocumentSymbols', {}],
      ['GoToDefinition', { line: 1 }],
      ['TypeInfo', { line: 1, symbol: 'token' }],
    ] as const) {
      const { port, call, questions, permission } = setup();
      const r = await call(tool, { path, ...args });
      assert.equal(r.isError, true, `${tool} ${path}`);
      assert.match(text(r), /The user did not allow reading .*: it is outside the workspace folders/);
      assert.ok(!text(r).includes('SECRET'), text(r));
      assert.deepEqual(port.opened, [], 'the file was never opened');
      assert.deepEqual(port.asked, [], 'no provider was asked');
      assert.equal(questions.length, 1);
      assert.match(questions[0].call.title!, title);
      // The very question fs/read_text_file asks for that path (its call ids count on their own).
      const fs = new FileAccess({ fs: port, workspace: { folders: () => [ROOT] }, permission }, ROOT);
      await assert.rejects(fs.check('s1', absolute, await fs.realPath(absolute), 'read'));
      const [mine, theirs] = questions;
      assert.deepEqual(
        { ...mine, call: { ...mine.call, toolCallId: '' } },
        { ...theirs, call: { ...theirs.call, toolCallId: '' } },
      );
    }
  }
});

test('allowed, the call answers; "Allow for this session" is not asked again in that session', async () => {
  const { port, call, questions, t } = setup({ answer: 'allow_always' });
  port.answers.documentSymbols = [{ name: 'token', kind: 'Constant', location: loc('../outside.ts', 0, 13, 5) }];
  const first = await call('DocumentSymbols', { path: '../outside.ts' });
  assert.match(text(first), /"name":"token"/);
  t.answer = 'reject_once';
  const again = await call('DocumentSymbols', { path: OUTSIDE });
  assert.match(text(again), /"name":"token"/);
  assert.equal(questions.length, 1);
  assert.equal(questions[0].sessionId, 's1');
  // Another session of the same tools is asked again.
  const other = setup({ answer: 'reject_once', sessionId: 's2', port });
  assert.equal((await other.call('DocumentSymbols', { path: OUTSIDE })).isError, true);
  assert.deepEqual(
    other.questions.map((q) => q.sessionId),
    ['s2'],
  );
});

test('an allowed file outside the workspace never has its line text in an error message', async () => {
  const { call } = setup({ answer: 'allow_once' });
  for (const args of [{ line: 1 }, { line: 1, symbol: 'nothere' }, { line: 1, column: 999 }]) {
    const r = await call('GoToDefinition', { path: '../outside.ts', ...args });
    assert.equal(r.isError, true);
    assert.match(text(r), /the line is not shown \(the file is outside the workspace\)/);
    assert.ok(!text(r).includes('SECRET'), text(r));
  }
  // Inside the workspace the line is still quoted, so the agent can correct the call.
  const inside = await call('GoToDefinition', { path: 'src/shapes.ts', line: 2 });
  assert.match(text(inside), /the line is "const t = area\(1\);"/);
});

test('locations in files outside the workspace are listed without their line text, and nobody is asked', async () => {
  const { port, call, questions } = setup();
  port.answers.definitions = [
    loc('src/shapes.ts', 0, 16, 4),
    loc('../outside.ts', 0, 13, 5),
    loc('link/secret.ts', 0, 13),
  ];
  const r = await call('GoToDefinition', { path: 'src/shapes.ts', line: 2, symbol: 'area' });
  const defs = (r.content[0] as { json: { definitions: Array<{ path: string; text?: string }> } }).json.definitions;
  assert.deepEqual(
    defs.map((d) => [d.path, d.text]),
    [
      [OUTSIDE, undefined],
      ['link/secret.ts', undefined],
      ['src/shapes.ts', 'export function area(w: number) {}'],
    ],
  );
  assert.equal(questions.length, 0);
});

test('an edit that reaches a file outside the workspace asks to write it; denied, nothing is applied', async () => {
  const { port, call, questions } = setup();
  port.answers.rename = {
    files: [
      { uri: `file://${ROOT}/src/shapes.ts`, path: nodePath.join(ROOT, 'src/shapes.ts'), edits: 2 },
      { uri: `file://${OUTSIDE}`, path: OUTSIDE, edits: 1 },
    ],
    ref: 'edit',
  };
  const r = await call('Rename', { path: 'src/shapes.ts', line: 1, symbol: 'area', newName: 'surface' });
  assert.equal(r.isError, true);
  assert.match(text(r), /^The user did not allow writing \/ws\/outside\.ts: .* Nothing was changed\.$/);
  assert.deepEqual(port.applied, []);
  assert.deepEqual(
    questions.map((q) => [q.call.title, q.call.kind]),
    [['Write /ws/outside.ts — outside the workspace', 'edit']],
  );
});

test('a URI of another scheme is refused without being opened', async () => {
  const { port, call } = setup({ answer: 'allow_once' });
  const r = await call('DocumentSymbols', { path: 'vscode-userdata://host/User/settings.json' });
  assert.equal(r.isError, true);
  assert.match(text(r), /is not a file path/);
  assert.deepEqual(port.opened, []);
});

test('with nobody to ask (no session yet), a file outside the workspace is refused', async () => {
  const { port, call, questions } = setup({ answer: 'allow_once', sessionId: undefined });
  const r = await call('DocumentSymbols', { path: '../outside.ts' });
  assert.match(text(r), /outside the workspace folders, and there is no permission prompt/);
  assert.deepEqual([port.opened, questions], [[], []]);
});
