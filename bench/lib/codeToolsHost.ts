// P5, the part that needs the real VS Code (run by bench/codeTools.mjs as a tests module inside
// code-server's extension host): MCP round trips of Code · GoToDefinition (answered by the
// built-in TypeScript features on test/fixtures/code-intel) and of an Extensions tool (the
// fixture extension's tandemFixture_reverse, through vscode.lm.invokeTool), each against the same
// call made directly in the extension host (no MCP), and a bare HTTP echo on the same loopback
// in the same process, same run. Prints `TANDEM-BENCH {json}` and the TANDEM-RESULT line
// run-integration.mjs reads.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { nullLogger } from '../../src/common/logger';
import { McpToolServer } from '../../src/tools/mcp/mcpServer';
import type { TandemApi } from '../../src/api';
import { DEFAULT_TOOLS_CONFIG } from '../../src/tools/types';
import { until } from '../../test/support/until';
import { httpEcho, measure, summary } from './latency';

export async function run(): Promise<void> {
  const n = Number(process.env.TANDEM_BENCH_N) || 300;
  try {
    // Its test parts (src/api.ts): this module runs as the extension host's tests (ExtensionMode.Test).
    const { testing } = await vscode.extensions.getExtension<TandemApi>('tandem-dev.tandem')!.activate();
    if (!testing) throw new Error('Tandem did not return its test parts: is the extension host in test mode?');
    const ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
    cpSync(join(__dirname, '..', '..', '..', 'test', 'fixtures', 'code-intel'), join(ws, 'code-intel'), {
      recursive: true,
    });
    const report = vscode.Uri.file(join(ws, 'code-intel', 'report.ts'));
    const pos = new vscode.Position(8, 20);
    // Measure the project's answers, not the syntax server's while TypeScript loads.
    await until(
      async () => {
        const d = (await vscode.commands.executeCommand('vscode.executeDefinitionProvider', report, pos)) as Array<
          vscode.Location | vscode.LocationLink
        >;
        return d.some((l) => ('targetUri' in l ? l.targetUri : l.uri).fsPath.endsWith('shapes.ts'));
      },
      120_000,
      'TypeScript to load the fixture project',
      500,
    );
    await until(() => vscode.lm.tools.some((t) => t.name === 'tandemFixture_reverse'), 20_000, 'the lm tool', 100);

    const server = new McpToolServer({
      registry: testing.clientTools.registry,
      config: () => ({ ...DEFAULT_TOOLS_CONFIG, expandedGroups: ['Code', 'Extensions'] }),
      logger: nullLogger,
    });
    await server.listen();
    // The permission prompt answered at once: what is measured is the call's path, not a person.
    const slot = server.openSlot({ requestPermission: async () => 'allow' });
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(slot.url), {
        requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
      }),
    );
    const mcp = async (name: string, args: Record<string, unknown>) => {
      const r = await client.callTool({ name, arguments: args });
      if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
      return r;
    };
    const defArgs = { path: 'code-intel/report.ts', line: 9, symbol: 'rectangleArea' };
    const first = JSON.stringify((await mcp('GoToDefinition', defArgs)).content);
    if (!first.includes('code-intel/shapes.ts')) throw new Error(`GoToDefinition answered ${first}`);

    const result = {
      bench: 'P5 clientTools in the real VS Code (GoToDefinition, lm tool)',
      n,
      unit: 'ms',
      vscode: vscode.version,
      goToDefinition: {
        mcp: summary(await measure(() => mcp('GoToDefinition', defArgs), n)),
        direct: summary(
          await measure(async () => vscode.commands.executeCommand('vscode.executeDefinitionProvider', report, pos), n),
        ),
      },
      lmTool: {
        mcp: summary(await measure(() => mcp('tandemFixture_reverse', { text: 'Tandem' }), n)),
        direct: summary(
          await measure(
            async () =>
              vscode.lm.invokeTool('tandemFixture_reverse', {
                input: { text: 'Tandem' },
                toolInvocationToken: undefined,
              }),
            n,
          ),
        ),
      },
      httpEcho: { p50: 0, p99: 0 },
    };
    const echo = await httpEcho(first);
    result.httpEcho = summary(await measure(() => echo.roundTrip(), n));
    echo.close();
    await client.close();
    server.dispose();
    console.log(`TANDEM-BENCH ${JSON.stringify(result)}`);
    console.log(`TANDEM-RESULT ${JSON.stringify({ passed: 1, failed: 0, pending: 0 })}`);
  } catch (err) {
    console.log(`TANDEM-BENCH ${JSON.stringify({ error: err instanceof Error ? err.message : String(err) })}`);
    console.log(`TANDEM-RESULT ${JSON.stringify({ passed: 0, failed: 1, pending: 0 })}`);
    throw err;
  }
}
