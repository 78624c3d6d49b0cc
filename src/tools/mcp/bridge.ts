// stdio ↔ Streamable HTTP bridge, bundled as dist/mcp-bridge.js: for agents whose
// `mcpCapabilities.http` is false, Tandem passes a stdio MCP server entry that runs this script;
// it relays JSON-RPC lines between the agent (stdin/stdout) and Tandem's loopback MCP server.
// Env: TANDEM_MCP_URL (the slot URL), TANDEM_MCP_TOKEN (the connection's bearer token).
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';

export interface BridgeOptions {
  url: string;
  token: string;
  stdin?: Readable;
  stdout?: Writable;
  onError?(err: Error): void;
}

/** Starts relaying; resolves once both sides are open. The returned close() ends both. */
export async function startBridge(o: BridgeOptions): Promise<{ close(): Promise<void>; closed: Promise<void> }> {
  const http = new StreamableHTTPClientTransport(new URL(o.url), {
    requestInit: { headers: { Authorization: `Bearer ${o.token}` } },
  });
  const stdio = new StdioServerTransport(o.stdin, o.stdout);
  let done!: () => void;
  const closed = new Promise<void>((r) => {
    done = r;
  });
  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    await Promise.allSettled([http.close(), stdio.close()]);
    done();
  };
  const report = (err: Error) => {
    (o.onError ?? ((e) => process.stderr.write(`[tandem-mcp-bridge] ${e.message}\n`)))(err);
  };

  stdio.onmessage = (m: JSONRPCMessage) => {
    http.send(m).catch((err: Error) => {
      report(err);
      // Answer a request that could not be relayed so the agent does not wait forever.
      if ('id' in m && 'method' in m)
        void stdio.send({
          jsonrpc: '2.0',
          id: m.id,
          error: { code: -32000, message: `Tandem is not reachable: ${err.message}` },
        });
    });
  };
  http.onmessage = (m: JSONRPCMessage) => {
    // Later requests carry the negotiated protocol version header, as the SDK Client would.
    const result = (m as { result?: { protocolVersion?: unknown; serverInfo?: unknown } }).result;
    if (result && typeof result.protocolVersion === 'string' && result.serverInfo)
      http.setProtocolVersion(result.protocolVersion);
    void stdio.send(m);
  };
  http.onerror = report;
  stdio.onerror = report;
  stdio.onclose = () => {
    void close();
  };
  http.onclose = () => {
    void close();
  };
  await http.start();
  await stdio.start();
  o.stdin?.once('end', () => {
    void close();
  });
  return { close, closed };
}

function main(): void {
  const url = process.env.TANDEM_MCP_URL;
  const token = process.env.TANDEM_MCP_TOKEN;
  if (!url || !token) {
    process.stderr.write('tandem-mcp-bridge: TANDEM_MCP_URL and TANDEM_MCP_TOKEN must be set\n');
    process.exit(2);
  }
  startBridge({ url, token, stdin: process.stdin, stdout: process.stdout })
    .then((b) => b.closed.then(() => process.exit(0)))
    .catch((err: Error) => {
      process.stderr.write(`tandem-mcp-bridge: ${err.message}\n`);
      process.exit(1);
    });
  process.stdin.once('end', () => setTimeout(() => process.exit(0), 50));
}

if (require.main === module) main();
