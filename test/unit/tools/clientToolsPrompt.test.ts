// The permission prompt of a client tool call as the agent's MCP client drives it: what it
// offers, and how it goes away when the call ends before the user answered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { McpServer, PermissionOption, RequestPermissionOutcome } from '@agentclientprotocol/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SessionStore } from '../../../src/session/store';
import { ToolRegistry } from '../../../src/tools/registry';
import { until } from '../../support/until';
import { attachedToolsFeature } from './fixtures';

interface Prompt {
  options: PermissionOption[];
  signal?: AbortSignal;
  outcome?: RequestPermissionOutcome;
  answer(o: RequestPermissionOutcome): void;
}

function setup() {
  const prompts: Prompt[] = [];
  const { feature, ctx, stores, closed, dispose } = attachedToolsFeature(new ToolRegistry(), {
    // Like the broker: a pending prompt whose signal aborts is withdrawn, resolved as cancelled.
    request: (_sid, _call, options, signal) =>
      new Promise((resolve) => {
        const p: Prompt = { options, signal, answer: (o) => resolve((p.outcome ??= o)) };
        prompts.push(p);
        signal?.addEventListener('abort', () => p.answer({ outcome: 'cancelled' }), { once: true });
      }),
  });
  const open = async (sessionId: string) => {
    const set = await feature.mcpServers({ mcpCapabilities: { http: true } }, ctx);
    set.opened!(sessionId);
    stores.set(sessionId, new SessionStore(sessionId));
    const entry = set.servers[0] as Extract<McpServer, { type: 'http' }>;
    const client = new Client({ name: 'agent', version: '1' });
    const headers = Object.fromEntries(entry.headers.map((h) => [h.name, h.value]));
    await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers } }));
    return client;
  };
  return { feature, prompts, open, closed, stores, dispose };
}

test('the client-tool prompt offers Allow and Deny, and no "Always allow" nothing would remember', async () => {
  const t = setup();
  try {
    const client = await t.open('s');
    const call = client.callTool({ name: 'Wipe', arguments: {} });
    await until(() => t.prompts.length === 1, 5000, 'the prompt');
    assert.deepEqual(
      t.prompts[0].options.map((o) => o.kind),
      ['allow_once', 'reject_once'],
    );
    t.prompts[0].answer({ outcome: 'selected', optionId: 'allow_once' });
    assert.deepEqual((await call).content, [{ type: 'text', text: 'wiped' }]);
    await client.close();
  } finally {
    t.dispose();
  }
});

test("the agent cancelling its MCP call withdraws the call's pending prompt", async () => {
  const t = setup();
  try {
    const client = await t.open('s');
    const abort = new AbortController();
    const call = client.callTool({ name: 'Wipe', arguments: {} }, undefined, { signal: abort.signal });
    await until(() => t.prompts.length === 1, 5000, 'the prompt');
    abort.abort();
    await assert.rejects(call);
    await until(() => t.prompts[0].signal?.aborted === true, 5000, 'the prompt withdrawn');
    assert.deepEqual(t.prompts[0].outcome, { outcome: 'cancelled' });
    await client.close();
  } finally {
    t.dispose();
  }
});

test("a session closed while its call waits for permission: the call's prompt is withdrawn, another session's stays", async () => {
  const t = setup();
  try {
    const client = await t.open('a');
    const next = await t.open('b');
    // The closed session's MCP connection closes with its slot: the call gets no answer to await.
    const call = client.callTool({ name: 'Wipe', arguments: {} }).catch(() => undefined);
    const other = next.callTool({ name: 'Wipe', arguments: {} });
    await until(() => t.prompts.length === 2, 5000, 'the prompts');
    t.stores.delete('a');
    t.closed.fire('a');
    await until(() => t.prompts.some((p) => p.signal?.aborted === true), 5000, 'the prompt withdrawn');
    assert.equal(t.prompts.filter((p) => p.outcome?.outcome === 'cancelled').length, 1, 'only the closed one');
    t.prompts.find((p) => !p.outcome)!.answer({ outcome: 'selected', optionId: 'allow_once' });
    assert.deepEqual((await other).content, [{ type: 'text', text: 'wiped' }]);
    await Promise.all([client.close().catch(() => undefined), next.close()]);
    await call;
  } finally {
    t.dispose();
  }
});
