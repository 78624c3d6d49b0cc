// The Extensions group: other extensions' Language Model tools (vscode.lm.tools) as client tools,
// through a fake LmPort; the list following installs and uninstalls reaches a real MCP client.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { MemoryLogger } from '../../../src/common/logger';
import { invokeTool } from '../../../src/tools/invoke';
import {
  DEFAULT_EXCLUDE,
  LmToolsSync,
  isExcluded,
  lmToolGroup,
  toToolResult,
  type LmPart,
  type LmPort,
  type LmToolInfo,
} from '../../../src/tools/lmTools';
import { McpToolServer } from '../../../src/tools/mcp/mcpServer';
import { ToolRegistry } from '../../../src/tools/registry';
import { ToolState } from '../../../src/tools/toolState';
import { DEFAULT_TOOLS_CONFIG, type ToolResult } from '../../../src/tools/types';
import { ideGroup } from './fixtures';
import { until } from '../../support/until';

const reverse: LmToolInfo = {
  name: 'acme_reverse',
  description: 'Reverses a text.',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { text: { type: 'string', description: 'The text.' } },
    required: ['text'],
  },
  tags: ['acme', 'text'],
};

class FakeLm implements LmPort {
  list: LmToolInfo[] = [reverse];
  calls: Array<{ name: string; input: Record<string, unknown> }> = [];
  answer: LmPart[] = [{ type: 'text', text: 'olleh' }];
  tools() {
    return this.list;
  }
  async invoke(name: string, input: Record<string, unknown>) {
    this.calls.push({ name, input });
    return this.answer;
  }
}
const text = (r: ToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : JSON.stringify(c))).join('\n');

test('an lm tool keeps its own name, description and input schema (minus $schema), and every call asks', () => {
  const { group, skipped } = lmToolGroup([reverse], new FakeLm(), { exclude: [], taken: [] });
  assert.deepEqual(skipped, []);
  assert.equal(group!.name, 'Extensions');
  const t = group!.tools[0];
  assert.equal(t.name, 'acme_reverse');
  assert.equal(t.description, 'Reverses a text.');
  assert.deepEqual(t.parametersSchema, {
    type: 'object',
    properties: { text: { type: 'string', description: 'The text.' } },
    required: ['text'],
  });
  assert.equal(t.requiresPermission, true);
});

test('names models reject or other groups use are made unique; schemas that are not objects are left out', () => {
  const infos: LmToolInfo[] = [
    { name: 'my.ext/tool', description: 'dots', inputSchema: undefined, tags: [] },
    { name: 'OpenFile', description: 'clash', inputSchema: { properties: { a: { type: 'number' } } }, tags: [] },
    { name: 'listy', description: 'array input', inputSchema: { type: 'array' }, tags: [] },
    { name: 'x'.repeat(80), description: '', inputSchema: {}, tags: [] },
  ];
  const { group, skipped } = lmToolGroup(infos, new FakeLm(), { exclude: [], taken: ['IDE', 'OpenFile'] });
  assert.deepEqual(
    group!.tools.map((t) => [t.name, t.description]),
    [
      ['OpenFile_2', 'clash (VS Code tool OpenFile)'],
      ['my_ext_tool', 'dots (VS Code tool my.ext/tool)'],
      [
        'x'.repeat(64),
        `Language model tool ${'x'.repeat(80)} of an installed extension. (VS Code tool ${'x'.repeat(80)})`,
      ],
    ],
  );
  assert.deepEqual(group!.tools[0].parametersSchema, { type: 'object', properties: { a: { type: 'number' } } });
  assert.deepEqual(group!.tools[1].parametersSchema, { type: 'object', properties: {} });
  assert.deepEqual(skipped, ['listy: its input schema is not an object schema']);
  // The registry accepts the result next to the IDE group.
  const registry = new ToolRegistry();
  registry.register(ideGroup());
  assert.doesNotThrow(() => registry.register(group!));
});

test('the exclude setting leaves tools out by name, by tag, or by pattern; by default VS Code’s own tools', () => {
  const t = (name: string, tags: string[] = []): LmToolInfo => ({ name, description: 'd', inputSchema: {}, tags });
  assert.ok(isExcluded(t('vscode_renameSymbol'), DEFAULT_EXCLUDE));
  assert.ok(!isExcluded(t('renderMermaidDiagram'), DEFAULT_EXCLUDE));
  assert.ok(isExcluded(t('acme_reverse'), ['acme_reverse']));
  assert.ok(isExcluded(t('acme_reverse', ['acme']), ['acme']));
  assert.ok(isExcluded(t('acme_reverse'), ['acme_*']));
  assert.ok(isExcluded(t('anything'), ['*']));
  assert.ok(!isExcluded(t('acme.reverse'), ['acme_*']), 'a pattern is not a regular expression');
  assert.equal(lmToolGroup([t('a', ['secret'])], new FakeLm(), { exclude: ['secret'], taken: [] }).group, undefined);
});

test('calling an lm tool goes through the permission prompt; denied, the tool never runs', async () => {
  const lm = new FakeLm();
  const registry = new ToolRegistry();
  registry.register({ ...lmToolGroup(lm.list, lm, { exclude: [], taken: [] }).group!, startCollapsed: false });
  const state = new ToolState(registry, () => DEFAULT_TOOLS_CONFIG);
  let decision: 'allow' | 'deny' = 'deny';
  const asked: Array<{ group: string; tool: string; args: unknown }> = [];
  const env = {
    state,
    config: DEFAULT_TOOLS_CONFIG,
    requestPermission: async (c: { group: string; tool: { name: string }; args: unknown }) => {
      asked.push({ group: c.group, tool: c.tool.name, args: c.args });
      return decision;
    },
  };
  const denied = await invokeTool('acme_reverse', { text: 'hello' }, env);
  assert.equal(text(denied), 'The user denied permission to run acme_reverse.');
  assert.deepEqual(lm.calls, []);
  decision = 'allow';
  const r = await invokeTool('acme_reverse', { text: 'hello' }, env);
  assert.equal(text(r), 'olleh');
  assert.deepEqual(lm.calls, [{ name: 'acme_reverse', input: { text: 'hello' } }]);
  assert.deepEqual(asked, [
    { group: 'Extensions', tool: 'acme_reverse', args: { text: 'hello' } },
    { group: 'Extensions', tool: 'acme_reverse', args: { text: 'hello' } },
  ]);
  // The tool's own schema is checked before anything runs.
  const bad = await invokeTool('acme_reverse', { text: 3 }, env);
  assert.equal(text(bad), 'Invalid arguments for tool acme_reverse: /text must be string');
});

test('lm results: text, images, JSON and other data become tool content', () => {
  const png = new Uint8Array([137, 80, 78, 71]);
  assert.deepEqual(
    toToolResult([
      { type: 'text', text: 'a' },
      { type: 'data', mimeType: 'image/png', data: png },
      { type: 'data', mimeType: 'application/json', data: new TextEncoder().encode('{"x":1}') },
      { type: 'data', mimeType: 'application/zip', data: png },
    ]).content,
    [
      { type: 'text', text: 'a' },
      { type: 'image', mimeType: 'image/png', data: 'iVBORw==' },
      { type: 'text', text: '{"x":1}' },
      { type: 'binary', mimeType: 'application/zip', data: 'iVBORw==' },
    ],
  );
  assert.equal(text(toToolResult([])), '(The tool returned nothing.)');
});

test('the Extensions group follows installs and uninstalls: a real MCP client gets list_changed and the new list', async () => {
  const lm = new FakeLm();
  const registry = new ToolRegistry();
  registry.register(ideGroup());
  let exclude: string[] = [];
  const logger = new MemoryLogger();
  const sync = new LmToolsSync(registry, lm, () => exclude, logger);
  sync.sync();
  const config = { ...DEFAULT_TOOLS_CONFIG, collapse: false };
  const server = new McpToolServer({ registry, config: () => config, logger });
  await server.listen();
  const slot = server.openSlot();
  const client = new Client({ name: 'test-agent', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(slot.url), {
      requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
    }),
  );
  let changed = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changed++;
  });
  const names = async () => (await client.listTools()).tools.map((t) => t.name);
  try {
    assert.deepEqual(await names(), ['OpenFile', 'GetSelection', 'ShowMessage', 'acme_reverse']);
    const listed = (await client.listTools()).tools.find((t) => t.name === 'acme_reverse')!;
    assert.deepEqual(listed.inputSchema.required, ['text']);
    // Nothing changed: a re-read sends nothing.
    sync.sync();
    // An extension is installed: its tool joins the group.
    lm.list = [...lm.list, { name: 'acme_count', description: 'Counts.', inputSchema: undefined, tags: ['acme'] }];
    sync.sync();
    await until(() => changed === 1, 2000, 'the first list_changed');
    assert.deepEqual(await names(), ['OpenFile', 'GetSelection', 'ShowMessage', 'acme_count', 'acme_reverse']);
    // The user excludes a tag; then the extension is uninstalled: the group goes away.
    exclude = ['text'];
    sync.sync();
    await until(() => changed === 2, 2000, 'the second list_changed');
    assert.deepEqual(await names(), ['OpenFile', 'GetSelection', 'ShowMessage', 'acme_count']);
    lm.list = [];
    sync.sync();
    await until(() => changed === 3, 2000, 'the third list_changed');
    assert.deepEqual(await names(), ['OpenFile', 'GetSelection', 'ShowMessage']);
    assert.equal(registry.get('Extensions'), undefined);
  } finally {
    await client.close();
    server.dispose();
    sync.dispose();
  }
});
