/// <reference types="mocha" />
// The IDE tool group in the real VS Code, called through a real MCP client against Tandem's MCP
// server built on the extension's own registry (the one activate() returns).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { nullLogger } from '../../src/common/logger';
import { McpToolServer } from '../../src/tools/mcp/mcpServer';
import { activateTandem } from './helpers';
import { DEFAULT_TOOLS_CONFIG } from '../../src/tools/types';

suite('client tools: IDE group', () => {
  let server: McpToolServer;
  let client: Client;

  suiteSetup(async () => {
    const { api } = await activateTandem();
    assert.equal(typeof api.registerToolGroup, 'function');
    server = new McpToolServer({
      registry: api.clientTools.registry,
      config: () => ({ ...DEFAULT_TOOLS_CONFIG, expandedGroups: ['IDE'] }),
      logger: nullLogger,
    });
    await server.listen();
    const slot = server.openSlot();
    client = new Client({ name: 'integration', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(slot.url), {
        requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
      }),
    );
  });
  suiteTeardown(async () => {
    await client?.close();
    server?.dispose();
  });

  const text = (r: Awaited<ReturnType<Client['callTool']>>) =>
    (r.content as Array<{ text: string }>).map((c) => c.text).join('\n');

  test('the IDE group lists its tools', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const n of ['OpenFile', 'GetSelection', 'ShowMessage', 'GetOpenEditors'])
      assert.ok(names.includes(n), `${n} in ${names}`);
    // One diagnostics tool: the Workspace group's GetProblems.
    assert.ok(!names.includes('GetDiagnostics'), `${names}`);
  });

  test('OpenFile opens a workspace-relative file at the line', async () => {
    const r = await client.callTool({ name: 'OpenFile', arguments: { path: 'notes.txt', line: 2 } });
    assert.ok(!r.isError, text(r));
    const ed = vscode.window.activeTextEditor!;
    assert.ok(ed.document.uri.fsPath.endsWith('notes.txt'), ed.document.uri.fsPath);
    assert.equal(ed.selection.active.line, Math.min(1, ed.document.lineCount - 1));
  });

  test('GetSelection returns the real selection', async () => {
    const ed = vscode.window.activeTextEditor!;
    const line0 = ed.document.lineAt(0);
    ed.selection = new vscode.Selection(0, 0, 0, line0.text.length);
    const r = await client.callTool({ name: 'GetSelection', arguments: {} });
    const sel = JSON.parse(text(r)) as { path: string; text: string; start: { line: number }; isEmpty: boolean };
    assert.equal(sel.path, 'notes.txt');
    assert.equal(sel.text, line0.text);
    assert.equal(sel.start.line, 1);
    assert.equal(sel.isEmpty, line0.text.length === 0);
  });

  test('ShowMessage shows a notification (returns at once)', async () => {
    const r = await client.callTool({
      name: 'ShowMessage',
      arguments: { message: 'Hello from the Tandem integration test', severity: 'warning' },
    });
    assert.equal(text(r), 'Shown to the user (warning).');
    const bad = await client.callTool({ name: 'ShowMessage', arguments: { message: 'x', severity: 'loud' } });
    assert.equal(bad.isError, true);
  });

  test('OpenFile on a missing file is an error result', async () => {
    const r = await client.callTool({ name: 'OpenFile', arguments: { path: 'does-not-exist.txt' } });
    assert.equal(r.isError, true);
  });
});
