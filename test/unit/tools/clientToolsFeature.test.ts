// The per-connection glue: mcpServers entries (http / stdio bridge), the tool-call tree rows
// (synthetic, or the agent's own call annotated), permission through the PermissionPort.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { McpServer, PermissionOption, ToolCallUpdate } from '@agentclientprotocol/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SessionStore } from '../../../src/session/store';
import { ToolRegistry } from '../../../src/tools/registry';
import { attachedToolsFeature, ideGroup, tool } from './fixtures';

function setup(permission?: (sid: string, call: ToolCallUpdate, options: PermissionOption[]) => string | undefined) {
  const registry = new ToolRegistry();
  registry.register(ideGroup());
  const asked: ToolCallUpdate[] = [];
  const t = attachedToolsFeature(
    registry,
    {
      request: async (sid, call, options) => {
        asked.push(call);
        const id = permission?.(sid, call, options);
        return id ? { outcome: 'selected', optionId: id } : { outcome: 'cancelled' };
      },
    },
    {
      bridge: { command: process.execPath, args: [join(__dirname, '../../../src/tools/mcp/bridge.js')] },
      userServers: () => [
        { name: 'mine', command: 'x', args: [], env: [] },
        { type: 'http', name: 'web', url: 'http://h', headers: [] },
      ],
    },
  );
  return { ...t, asked };
}

async function httpClient(entry: McpServer) {
  assert.ok('type' in entry && entry.type === 'http');
  const headers = Object.fromEntries(entry.headers.map((h) => [h.name, h.value]));
  const client = new Client({ name: 'agent', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers } }));
  return client;
}

test('http agent: entry named tandem with bearer header; calls show in the tool-call tree marked with their group', async () => {
  const t = setup();
  try {
    const set = await t.feature.mcpServers({ mcpCapabilities: { http: true } }, t.ctx);
    assert.deepEqual(
      set.servers.map((s) => s.name),
      ['tandem', 'mine', 'web'],
    );
    const entry = set.servers[0] as Extract<McpServer, { type: 'http' }>;
    assert.match(entry.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp\/s1-/);
    assert.match(entry.headers[0].value, /^Bearer [A-Za-z0-9_-]{43}$/);
    set.opened!('sess-1');
    const store = new SessionStore('sess-1');
    t.stores.set('sess-1', store);
    const client = await httpClient(entry);
    await client.callTool({ name: 'IDE', arguments: {} });
    await client.callTool({ name: 'OpenFile', arguments: { path: 'src/a.ts', line: 4 } });
    const calls: Array<{ id: string; title: string; status: string; group: unknown }> = [];
    store.state.toolCalls.forEach((c) =>
      calls.push({
        id: c.toolCallId,
        title: c.title,
        status: c.status,
        group: (c.meta?.tandem as { group?: string })?.group,
      }),
    );
    calls.sort((a, b) => a.id.localeCompare(b.id));
    assert.deepEqual(calls, [
      { id: 'tandem-tool-1', title: 'IDE · expand group', status: 'completed', group: 'IDE' },
      { id: 'tandem-tool-2', title: 'IDE · OpenFile src/a.ts:4', status: 'completed', group: 'IDE' },
    ]);

    // The agent reported the MCP call itself: that row is annotated, no duplicate row.
    store.dispatch({
      type: 'update',
      at: 1,
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: 'toolu_1',
        title: 'mcp__tandem__GetSelection',
        status: 'in_progress',
        rawInput: {},
      },
    });
    await client.callTool({ name: 'GetSelection', arguments: {} });
    const own = store.state.toolCalls.get('toolu_1')!;
    assert.deepEqual(own.meta, {
      tandem: { group: 'IDE', tool: 'GetSelection', kind: 'tool', args: {}, clientTool: true },
    });
    let n = 0;
    store.state.toolCalls.forEach(() => n++);
    assert.equal(n, 3);

    // A call proxied through the container (Claude Code with a stale tool list) names the
    // container, not the tool: that row is the call's too.
    store.dispatch({
      type: 'update',
      at: 2,
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: 'toolu_2',
        title: 'mcp__tandem__IDE',
        status: 'in_progress',
        rawInput: { function: 'ShowMessage', arguments: { message: 'hi' } },
      },
    });
    await client.callTool({ name: 'IDE', arguments: { function: 'ShowMessage', arguments: { message: 'hi' } } });
    assert.deepEqual(store.state.toolCalls.get('toolu_2')!.meta, {
      tandem: { group: 'IDE', tool: 'ShowMessage', kind: 'tool', args: { message: 'hi' }, clientTool: true },
    });
    n = 0;
    store.state.toolCalls.forEach(() => n++);
    assert.equal(n, 4, 'no synthetic row for the proxied call');

    // codex-acp wraps the input as {server, tool, arguments} and titles it "mcp.tandem.IDE" (2.6.0;
    // 0.16.0 said "Tool: tandem/IDE").
    store.dispatch({
      type: 'update',
      at: 3,
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: 'call_3',
        title: 'mcp.tandem.IDE',
        kind: 'execute',
        status: 'in_progress',
        _meta: { is_mcp_tool_call: true },
        rawInput: {
          server: 'tandem',
          tool: 'IDE',
          arguments: { function: 'OpenFile', arguments: { path: 'src/b.ts' } },
        },
      },
    });
    await client.callTool({ name: 'IDE', arguments: { function: 'OpenFile', arguments: { path: 'src/b.ts' } } });
    assert.deepEqual(store.state.toolCalls.get('call_3')!.meta, {
      is_mcp_tool_call: true,
      tandem: { group: 'IDE', tool: 'OpenFile', kind: 'tool', args: { path: 'src/b.ts' }, clientTool: true },
    });
    n = 0;
    store.state.toolCalls.forEach(() => n++);
    assert.equal(n, 5, "no synthetic row for codex's proxied call");
    await client.close();
  } finally {
    t.dispose();
  }
});

test('permission-required tool asks through the PermissionPort with the group in _meta', async () => {
  let answer: string | undefined = 'reject_once';
  const t = setup(() => answer);
  try {
    const set = await t.feature.mcpServers({ mcpCapabilities: { http: true } }, t.ctx);
    set.opened!('s');
    t.stores.set('s', new SessionStore('s'));
    const client = await httpClient(set.servers[0]);
    let r = await client.callTool({ name: 'Wipe', arguments: {} });
    assert.deepEqual(r.content, [{ type: 'text', text: 'The user denied permission to run Wipe.' }]);
    answer = 'allow_once';
    r = await client.callTool({ name: 'Wipe', arguments: {} });
    assert.deepEqual(r.content, [{ type: 'text', text: 'wiped' }]);
    answer = undefined;
    r = await client.callTool({ name: 'Wipe', arguments: {} });
    assert.match((r.content as Array<{ text: string }>)[0].text, /cancelled/);
    assert.equal(t.asked.length, 3);
    assert.equal(t.asked[0].title, 'Danger · Wipe');
    assert.deepEqual(t.asked[0]._meta, { tandem: { group: 'Danger', tool: 'Wipe', args: {} } });
    await client.close();
  } finally {
    t.dispose();
  }
});

test('stdio agent: the bridge entry relays to the HTTP server (list_changed included)', async () => {
  const t = setup();
  try {
    const set = await t.feature.mcpServers({ mcpCapabilities: { http: false } }, t.ctx);
    assert.deepEqual(
      set.servers.map((s) => s.name),
      ['tandem', 'mine'],
      'http user server dropped',
    );
    const e = set.servers[0] as Extract<McpServer, { command: string }>;
    set.opened!('s');
    t.stores.set('s', new SessionStore('s'));
    const client = new Client({ name: 'agent', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: e.command,
        args: e.args,
        env: Object.fromEntries(e.env.map((v) => [v.name, v.value])),
        stderr: 'inherit',
      }),
    );
    const { ToolListChangedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const changed = new Promise<void>((r) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => r()),
    );
    assert.deepEqual(
      (await client.listTools()).tools.map((x) => x.name),
      ['IDE', 'Wipe'],
    );
    const r = await client.callTool({ name: 'IDE', arguments: {} });
    assert.deepEqual(r.content, [
      { type: 'text', text: 'IDE expanded. Available functions: OpenFile, GetSelection, ShowMessage' },
    ]);
    await changed;
    assert.deepEqual(
      (await client.listTools()).tools.map((x) => x.name),
      ['OpenFile', 'GetSelection', 'ShowMessage', 'Wipe'],
    );
    await client.close();
  } finally {
    t.dispose();
  }
});

test('a replaced session: calls on its slot get the disconnection fallback', async () => {
  const t = setup();
  try {
    const a = await t.feature.mcpServers({ mcpCapabilities: { http: true } }, t.ctx);
    a.opened!('a');
    t.stores.set('a', new SessionStore('a'));
    const client = await httpClient(a.servers[0]);
    await client.callTool({ name: 'IDE', arguments: {} });
    t.stores.delete('a');
    const r = await client.callTool({ name: 'OpenFile', arguments: { path: 'x' } });
    assert.deepEqual(r.content, [{ type: 'text', text: "Client disconnected. Tool 'OpenFile' unavailable." }]);
    await client.close().catch(() => undefined);
  } finally {
    t.dispose();
  }
});

test("sessions open side by side keep their own tools; a worktree session's calls are scoped to its folder", async () => {
  const registry = new ToolRegistry();
  registry.register({
    name: 'Where',
    startCollapsed: false,
    tools: [tool('WhereAmI', (_a, ctx) => ctx.place?.cwd ?? 'the workspace')],
  });
  const t = attachedToolsFeature(registry, { request: async () => ({ outcome: 'cancelled' }) });
  const http = { mcpCapabilities: { http: true } };
  try {
    const home = await t.feature.mcpServers(http, t.ctx);
    home.opened!('home');
    t.stores.set('home', new SessionStore('home'));
    const wt = await t.feature.mcpServers(http, t.ctx, { cwd: '/wt/fix', label: 'tandem/fix' });
    assert.equal(wt.servers[0].name, 'tandem');
    wt.opened!('wt');
    t.stores.set('wt', new SessionStore('wt'));
    const a = await httpClient(home.servers[0]);
    const b = await httpClient(wt.servers[0]);
    const where = async (c: Client) =>
      ((await c.callTool({ name: 'WhereAmI', arguments: {} })).content as Array<{ text: string }>)[0].text;
    assert.equal(await where(a), 'the workspace');
    assert.equal(await where(b), '/wt/fix');
    // Closing the worktree session releases its slot; the other session's tools stay.
    t.closed.fire('wt');
    await assert.rejects(where(b));
    assert.equal(await where(a), 'the workspace');
    await Promise.all([a.close(), b.close()].map((p) => p.catch(() => undefined)));
  } finally {
    t.dispose();
  }
});
