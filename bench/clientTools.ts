// P5: MCP round trip of a GetSelection-like client tool call over loopback — the real SDK Client
// + StreamableHTTPClientTransport against Tandem's MCP server (auth, slot lookup, invocation,
// ajv validation, JSON result) — against a bare HTTP echo server (keep-alive, JSON body in/out)
// on the same loopback in the same run. Budget: p50 < 5 ms. Prints one JSON line.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { nullLogger } from '../src/common/logger';
import { McpToolServer } from '../src/tools/mcp/mcpServer';
import { ToolRegistry } from '../src/tools/registry';
import { DEFAULT_TOOLS_CONFIG } from '../src/tools/types';
import { httpEcho, measure, pct } from './lib/latency';

const N = Number(process.argv[2]) || 2000;

async function main() {
  const selection = {
    path: 'src/app.ts',
    languageId: 'typescript',
    start: { line: 12, column: 5 },
    end: { line: 14, column: 1 },
    isEmpty: false,
    text: 'const x = compute();\nreturn x;\n',
  };
  const registry = new ToolRegistry();
  registry.register({
    name: 'IDE',
    startCollapsed: false,
    tools: [
      {
        name: 'GetSelection',
        description: 'Selection',
        parametersSchema: { type: 'object', properties: {}, additionalProperties: false },
        handler: () => ({ content: [{ type: 'json', json: selection }] }),
      },
    ],
  });
  const server = new McpToolServer({ registry, config: () => DEFAULT_TOOLS_CONFIG, logger: nullLogger });
  await server.listen();
  const slot = server.openSlot();
  slot.bind('bench');
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(slot.url), {
      requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
    }),
  );
  const mcp = await measure(() => client.callTool({ name: 'GetSelection', arguments: {} }), N);

  // Baseline: bare HTTP echo of a JSON-RPC-sized body on loopback, keep-alive.
  const echo = await httpEcho(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: JSON.stringify(selection, null, 2) }] },
    }),
  );
  const http = await measure(() => echo.roundTrip(), N);

  await client.close();
  server.dispose();
  echo.close();
  const p50 = pct(mcp, 50);
  console.log(
    JSON.stringify({
      bench: 'P5 clientTools MCP round trip (GetSelection-like)',
      n: N,
      unit: 'ms',
      mcp: { p50, p99: pct(mcp, 99) },
      httpEcho: { p50: pct(http, 50), p99: pct(http, 99) },
      overheadP50: +(p50 - pct(http, 50)).toFixed(3),
      budgetP50: 5,
      withinBudget: p50 < 5,
    }),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
