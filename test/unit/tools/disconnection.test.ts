// The client-tools spec's disconnection strategies (tandem.clientTools.disconnection.strategy):
// through invokeTool, and failFast through the MCP server to a real MCP client.
import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MemoryLogger } from '../../../src/common/logger';
import { ClientDisconnectedError, RETRY_BASE_MS, awaitConnection } from '../../../src/tools/disconnection';
import { invokeTool, type InvokeEnv } from '../../../src/tools/invoke';
import { McpToolServer } from '../../../src/tools/mcp/mcpServer';
import { ToolRegistry } from '../../../src/tools/registry';
import { ToolState } from '../../../src/tools/toolState';
import { DEFAULT_TOOLS_CONFIG, type ToolResult, type ToolsConfig } from '../../../src/tools/types';
import { tool } from './fixtures';
import { until } from '../../support/until';
import { settleMicrotasks, withMockTimers } from '../../support/mockTimers';

const text = (r: ToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

function setup(config: ToolsConfig, handler = () => 'ran') {
  const r = new ToolRegistry();
  const runs: string[] = [];
  r.register({
    name: 'G',
    startCollapsed: false,
    tools: [
      tool('Work', () => {
        runs.push('Work');
        return handler();
      }),
    ],
  });
  const finished: string[] = [];
  const env: InvokeEnv = {
    state: new ToolState(r, () => config),
    config,
    observer: { started() {}, finished: (_id, res) => finished.push(text(res)) },
  };
  return { env, runs, finished };
}

test('fallbackMessage (the default): an error result with the configured text', async () => {
  assert.equal(DEFAULT_TOOLS_CONFIG.disconnection, 'fallbackMessage');
  const { env, runs } = setup(DEFAULT_TOOLS_CONFIG);
  const r = await invokeTool('Work', {}, { ...env, isDisconnected: () => true });
  assert.equal(r.isError, true);
  assert.equal(text(r), "Client disconnected. Tool 'Work' unavailable.");
  assert.deepEqual(runs, []);
});

test('failFast: the call itself fails at once (it throws), and the row shows the failure', async () => {
  const config = { ...DEFAULT_TOOLS_CONFIG, disconnection: 'failFast' as const };
  const { env, runs } = setup(config);
  await assert.rejects(
    invokeTool('Work', {}, { ...env, isDisconnected: () => true }),
    (e: Error) => e instanceof ClientDisconnectedError && e.message === "Client disconnected. Tool 'Work' unavailable.",
  );
  assert.deepEqual(runs, []);
  // Disconnected while the handler runs: the same, and the observer saw one answer.
  let disconnect!: () => void;
  const disconnected = new Promise<void>((r) => (disconnect = r));
  let finishLate!: (v: string) => void;
  const slow = setup(config, () => new Promise<string>((r) => (finishLate = r)) as unknown as string);
  const logs: string[] = [];
  const p = invokeTool('Work', {}, { ...slow.env, disconnected, log: (m) => logs.push(m) });
  await until(() => slow.runs.length === 1, 2000, 'the handler to start');
  disconnect();
  await assert.rejects(p, ClientDisconnectedError);
  finishLate('late');
  await until(() => logs.some((l) => l.includes('result dropped')), 2000, 'the late result to be dropped');
  assert.deepEqual(slow.finished, ["Client disconnected. Tool 'Work' unavailable."]);
});

test('retryWithBackoff: checks again after 250, 500, 1000 ms … and runs once VS Code can', async () => {
  const config = { ...DEFAULT_TOOLS_CONFIG, disconnection: 'retryWithBackoff' as const, maxRetries: 3 };
  const waits: number[] = [];
  let down = 2;
  const c = await awaitConnection(
    config,
    () => down > 0,
    async (ms) => {
      waits.push(ms);
      down--;
    },
  );
  assert.deepEqual(c, { connected: true, retries: 2 });
  assert.deepEqual(waits, [RETRY_BASE_MS, RETRY_BASE_MS * 2]);
  // Through invoke: VS Code is back at 300 ms; the call runs at the second check, 250 + 500 ms.
  await withMockTimers(async () => {
    const { env, runs } = setup(config);
    let gone = true;
    let r: ToolResult | undefined;
    const call = invokeTool('Work', {}, { ...env, isDisconnected: () => gone }).then((x) => (r = x));
    await settleMicrotasks();
    mock.timers.tick(250); // the first check: still gone
    await settleMicrotasks();
    mock.timers.tick(50);
    gone = false;
    mock.timers.tick(449);
    await settleMicrotasks();
    assert.deepEqual(runs, [], 'not run before the second check');
    assert.equal(r, undefined);
    mock.timers.tick(1);
    await call;
    assert.equal(text(r!), 'ran');
    assert.deepEqual(runs, ['Work']);
  });
});

test('retryWithBackoff gives up after maxRetries with the fallback message; 0 retries is fallbackMessage', async () => {
  const waits: number[] = [];
  const config = { ...DEFAULT_TOOLS_CONFIG, disconnection: 'retryWithBackoff' as const, maxRetries: 4 };
  const c = await awaitConnection(
    config,
    () => true,
    async (ms) => void waits.push(ms),
  );
  assert.deepEqual(c, { connected: false, retries: 4 });
  assert.deepEqual(waits, [250, 500, 1000, 2000]);
  const { env, runs } = setup({ ...config, maxRetries: 1 });
  const r = await invokeTool('Work', {}, { ...env, isDisconnected: () => true });
  assert.equal(text(r), "Client disconnected. Tool 'Work' unavailable. (checked again 1 time)");
  assert.deepEqual(runs, []);
  assert.deepEqual(await awaitConnection({ ...config, maxRetries: 0 }, () => true), { connected: false, retries: 0 });
  // Other strategies never wait.
  assert.deepEqual(
    await awaitConnection(
      DEFAULT_TOOLS_CONFIG,
      () => true,
      () => assert.fail('waited'),
    ),
    {
      connected: false,
      retries: 0,
    },
  );
});

test('retryWithBackoff never runs a started call twice: a disconnect mid-call ends it with the fallback', async () => {
  const config = { ...DEFAULT_TOOLS_CONFIG, disconnection: 'retryWithBackoff' as const };
  let disconnect!: () => void;
  const disconnected = new Promise<void>((r) => (disconnect = r));
  let finishLate!: (v: string) => void;
  const { env, runs } = setup(config, () => new Promise<string>((r) => (finishLate = r)) as unknown as string);
  const logs: string[] = [];
  const p = invokeTool('Work', {}, { ...env, disconnected, log: (m) => logs.push(m) });
  await until(() => runs.length === 1, 2000, 'the handler to start');
  disconnect();
  assert.equal(text(await p), "Client disconnected. Tool 'Work' unavailable.");
  finishLate('late');
  await until(() => logs.some((l) => l.includes('result dropped')), 2000, 'the late result to be dropped');
  assert.deepEqual(runs, ['Work']);
});

test('failFast over MCP: the agent gets a JSON-RPC error, not a result', async () => {
  const registry = new ToolRegistry();
  registry.register({ name: 'G', startCollapsed: false, tools: [tool('Work')] });
  const config: ToolsConfig = { ...DEFAULT_TOOLS_CONFIG, disconnection: 'failFast' };
  const server = new McpToolServer({ registry, config: () => config, logger: new MemoryLogger() });
  await server.listen();
  const slot = server.openSlot({ isAlive: () => false });
  slot.bind('gone-session');
  const client = new Client({ name: 'agent', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(slot.url), {
      requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
    }),
  );
  try {
    await assert.rejects(
      client.callTool({ name: 'Work', arguments: {} }),
      /Client disconnected\. Tool 'Work' unavailable\./,
    );
    // fallbackMessage: a result with isError instead.
    config.disconnection = 'fallbackMessage';
    const r = await client.callTool({ name: 'Work', arguments: {} });
    assert.equal(r.isError, true);
  } finally {
    await client.close();
    server.dispose();
  }
});
