// The MCP server over loopback with a real MCP client (@modelcontextprotocol/sdk Client +
// StreamableHTTPClientTransport), and the stdio bridge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { MemoryLogger } from '../../../src/common/logger';
import { McpToolServer } from '../../../src/tools/mcp/mcpServer';
import { MAX_MCP_SESSIONS } from '../../../src/tools/mcp/toolSlot';
import { ToolRegistry } from '../../../src/tools/registry';
import { DEFAULT_TOOLS_CONFIG } from '../../../src/tools/types';
import { ideGroup, postStatus } from './fixtures';
import { until } from '../../support/until';

async function setup() {
  const registry = new ToolRegistry();
  const opened: Array<{ path: string; line?: number }> = [];
  registry.register({ ...ideGroup(opened), systemPrompt: 'Use ShowMessage for important notifications.' });
  const server = new McpToolServer({ registry, config: () => DEFAULT_TOOLS_CONFIG, logger: new MemoryLogger() });
  await server.listen();
  return { registry, server, opened };
}

async function connect(url: string, token: string) {
  const client = new Client({ name: 'test-agent', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

test('real MCP client: list → call container → list_changed → list shows the group → call OpenFile', async () => {
  const { server, opened } = await setup();
  const slot = server.openSlot();
  slot.bind('sess-1');
  const client = await connect(slot.url, server.token);
  try {
    assert.equal(client.getServerVersion()?.name, 'tandem');
    assert.match(
      client.getInstructions() ?? '',
      /When the IDE tools are expanded: Use ShowMessage for important notifications\./,
    );
    let listChanged = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      listChanged++;
    });

    let tools = (await client.listTools()).tools;
    assert.deepEqual(
      tools.map((t) => t.name),
      ['IDE'],
    );
    assert.match(tools[0].description!, /^IDE — VS Code interaction tools \(3 tools\)/);

    const expanded = await client.callTool({ name: 'IDE', arguments: {} });
    assert.deepEqual(expanded.content, [
      { type: 'text', text: 'IDE expanded. Available functions: OpenFile, GetSelection, ShowMessage' },
    ]);
    await until(() => listChanged > 0, 2000, 'list_changed');
    assert.equal(listChanged, 1);

    tools = (await client.listTools()).tools;
    assert.deepEqual(
      tools.map((t) => t.name),
      ['OpenFile', 'GetSelection', 'ShowMessage'],
    );
    assert.deepEqual(tools[0].inputSchema.required, ['path']);

    const r = await client.callTool({ name: 'OpenFile', arguments: { path: 'src/a.ts', line: 7 } });
    assert.deepEqual(r.content, [{ type: 'text', text: 'Opened src/a.ts' }]);
    assert.deepEqual(opened, [{ path: 'src/a.ts', line: 7 }]);

    const bad = await client.callTool({ name: 'OpenFile', arguments: { line: 7 } });
    assert.equal(bad.isError, true);
    assert.deepEqual(bad.content, [
      { type: 'text', text: "Invalid arguments for tool OpenFile: must have required property 'path'" },
    ]);
    const sel = await client.callTool({ name: 'GetSelection', arguments: {} });
    assert.deepEqual(sel.content, [{ type: 'text', text: JSON.stringify({ path: 'a.ts', text: 'x' }, null, 2) }]);

    // Reset: back to the container, with list_changed.
    const before = listChanged;
    slot.reset();
    await until(() => listChanged > before, 2000, 'list_changed after reset');
    assert.deepEqual(
      (await client.listTools()).tools.map((t) => t.name),
      ['IDE'],
    );
  } finally {
    await client.close();
    server.dispose();
  }
});

test('each slot (ACP session) has its own state; a disposed slot answers with the fallback', async () => {
  const { server } = await setup();
  const a = server.openSlot();
  const b = server.openSlot();
  const ca = await connect(a.url, server.token);
  const cb = await connect(b.url, server.token);
  try {
    await ca.callTool({ name: 'IDE', arguments: {} });
    assert.deepEqual(
      (await ca.listTools()).tools.map((t) => t.name),
      ['OpenFile', 'GetSelection', 'ShowMessage'],
    );
    assert.deepEqual(
      (await cb.listTools()).tools.map((t) => t.name),
      ['IDE'],
    );
  } finally {
    await ca.close();
    await cb.close();
    server.dispose();
  }
});

test('refused: missing or wrong token (401), other Host, any Origin (403), unknown slot (404)', async () => {
  const { server } = await setup();
  const slot = server.openSlot();
  try {
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    assert.equal(await postStatus(slot.url, {}, init), 401);
    assert.equal(await postStatus(slot.url, { Authorization: 'Bearer nope' }, init), 401);
    assert.equal(await postStatus(slot.url, { Authorization: `Bearer ${server.token}x` }, init), 401);
    assert.equal(
      await postStatus(slot.url, { Authorization: `Bearer ${server.token}`, Host: 'evil.example:80' }, init),
      403,
    );
    assert.equal(
      await postStatus(slot.url, { Authorization: `Bearer ${server.token}`, Origin: 'http://127.0.0.1' }, init),
      403,
    );
    assert.equal(
      await postStatus(`${server.baseUrl}/mcp/nope`, { Authorization: `Bearer ${server.token}` }, init),
      404,
    );
    assert.equal(await postStatus(slot.url, { Authorization: `Bearer ${server.token}` }, init), 200);
    // The SDK client with a wrong token fails to connect.
    await assert.rejects(connect(slot.url, 'wrong'));
  } finally {
    server.dispose();
  }
});

test('a slot keeps only its newest MCP sessions: re-initializing agents cannot grow it without bound', async () => {
  const { server } = await setup();
  const slot = server.openSlot();
  slot.bind('s1');
  const clients: Client[] = [];
  try {
    for (let i = 0; i < MAX_MCP_SESSIONS + 4; i++) clients.push(await connect(slot.url, server.token));
    const newest = clients[clients.length - 1];
    assert.ok((await newest.listTools()).tools.length > 0, 'the newest session works');
    // The oldest was closed on the server: its next request is refused (an MCP client then re-initializes).
    await assert.rejects(clients[0].listTools());
    assert.ok((await clients[4].listTools()).tools.length > 0, 'the newest eight still work');
  } finally {
    for (const c of clients) await c.close().catch(() => undefined);
    server.dispose();
  }
});
