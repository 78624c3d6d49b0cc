// Tandem's MCP server (client tools) as an attacker on this machine or a web page would see it:
// bound to 127.0.0.1 only, a fresh 256-bit token per server that never appears in the URL,
// refusing a missing/wrong/partial token, a token in the query string, other Hosts (DNS
// rebinding: evil names, IP tricks) and any Origin. The basic 401/403/404 cases are in
// test/unit/tools/mcpServer.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { AddressInfo } from 'node:net';
import { MemoryLogger } from '../../../src/common/logger';
import { McpToolServer } from '../../../src/tools/mcp/mcpServer';
import { ToolRegistry } from '../../../src/tools/registry';
import { DEFAULT_TOOLS_CONFIG } from '../../../src/tools/types';
import { ideGroup, postStatus } from '../tools/fixtures';

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
});

const post = (url: string, headers: Record<string, string>, body = INIT) => postStatus(url, headers, body);

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host, port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    setTimeout(() => {
      s.destroy();
      resolve(false);
    }, 1000);
  });
}

async function server() {
  const registry = new ToolRegistry();
  registry.register(ideGroup([]));
  const s = new McpToolServer({ registry, config: () => DEFAULT_TOOLS_CONFIG, logger: new MemoryLogger() });
  await s.listen();
  return s;
}

test('binds 127.0.0.1 only: address() is loopback; other local addresses refuse the connection', async () => {
  const s = await server();
  try {
    const addr = (s as unknown as { http: { address(): AddressInfo } }).http.address();
    assert.equal(addr.address, '127.0.0.1');
    assert.equal(addr.family, 'IPv4');
    assert.match(s.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i && !i.internal && i.family === 'IPv4')
      .map((i) => i!.address);
    for (const ip of others) assert.equal(await canConnect(ip, addr.port), false, `not reachable on ${ip}`);
    assert.equal(await canConnect('127.0.0.1', addr.port), true);
  } finally {
    s.dispose();
  }
});

test('token: 256 bits, different per server, never in the slot URL', async () => {
  const a = await server();
  const b = await server();
  try {
    assert.ok(Buffer.from(a.token, 'base64url').length >= 32);
    assert.notEqual(a.token, b.token);
    const slot = a.openSlot();
    assert.ok(!slot.url.includes(a.token), 'the URL carries no secret');
  } finally {
    a.dispose();
    b.dispose();
  }
});

test('refused: token as query parameter, other auth schemes, a prefix of the token, rebinding hosts, any Origin', async () => {
  const s = await server();
  const slot = s.openSlot();
  const port = new URL(s.baseUrl).port;
  const ok = { Authorization: `Bearer ${s.token}` };
  try {
    assert.equal(await post(`${slot.url}?token=${s.token}`, {}), 401);
    assert.equal(await post(`${slot.url}?access_token=${s.token}`, {}), 401);
    assert.equal(
      await post(slot.url, { Authorization: `Basic ${Buffer.from(`x:${s.token}`).toString('base64')}` }),
      401,
    );
    assert.equal(await post(slot.url, { Authorization: s.token }), 401);
    assert.equal(await post(slot.url, { Authorization: `Bearer ${s.token.slice(0, -1)}` }), 401);
    assert.equal(await post(slot.url, { Authorization: 'Bearer ' }), 401);
    assert.equal(await post(slot.url, { Cookie: `token=${s.token}` }), 401);
    for (const host of [
      `evil.example:${port}`,
      `127.0.0.1.nip.io:${port}`,
      `localhost.evil.example:${port}`,
      `127.0.0.1:${Number(port) + 1}`,
      '127.0.0.1',
      `[::1]:${port}`,
      `0.0.0.0:${port}`,
    ]) {
      assert.equal(await post(slot.url, { ...ok, Host: host }), 403, `Host ${host}`);
    }
    for (const origin of [
      'null',
      `http://127.0.0.1:${port}`,
      `http://localhost:${port}`,
      'https://evil.example',
      'vscode-webview://abc',
    ]) {
      assert.equal(await post(slot.url, { ...ok, Origin: origin }), 403, `Origin ${origin}`);
    }
    assert.equal(await post(slot.url, { ...ok, Host: `localhost:${port}` }), 200);
    assert.equal(await post(slot.url, ok), 200);
  } finally {
    s.dispose();
  }
});
