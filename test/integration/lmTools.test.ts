/// <reference types="mocha" />
// The Extensions client tool group in the real VS Code: a test extension
// (test/fixtures/lm-tool-extension, installed by run-integration.mjs) registers Language Model
// tools; Tandem offers them over its own MCP server, and a real MCP client calls one for a real
// agent session (vscode.lm.invokeTool behind the permission broker). The harness's user
// settings have chat.disableAIFeatures: true; vscode.lm.tools and invokeTool work regardless
// (VS Code's chat is off, its tools registry is not), so no setting is changed for this suite.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { until } from './helpers';
import { openToolsSession, type ToolsSession } from './toolsSession';

suite('client tools: Extensions group (other extensions’ Language Model tools)', function () {
  this.timeout(60_000);
  let s: ToolsSession;
  const exclude = () => vscode.workspace.getConfiguration('tandem.clientTools.extensionTools');

  suiteSetup(async function () {
    this.timeout(60_000);
    // The fixture's tools are contributed in its package.json: listed before it activates.
    await until(
      () => vscode.lm.tools.some((t) => t.name === 'tandemFixture_reverse'),
      20_000,
      'the fixture tool in vscode.lm.tools',
      100,
    );
    s = await openToolsSession('Extension tools agent');
  });
  suiteTeardown(async () => {
    await exclude().update('exclude', undefined, vscode.ConfigurationTarget.Global);
    await s?.close();
  });

  test('the fixture extension’s tool is listed with its own schema; VS Code’s own tools are left out by default', async () => {
    assert.equal(vscode.workspace.getConfiguration('chat').get('disableAIFeatures'), true);
    await s.client.callTool({ name: 'Extensions', arguments: {} });
    const tools = (await s.client.listTools()).tools;
    const reverse = tools.find((t) => t.name === 'tandemFixture_reverse');
    assert.ok(reverse, tools.map((t) => t.name).join(', '));
    assert.match(reverse.description ?? '', /^Reverses a text and counts its characters\./);
    assert.deepEqual(reverse.inputSchema.properties, { text: { type: 'string', description: 'The text to reverse.' } });
    assert.deepEqual(reverse.inputSchema.required, ['text']);
    assert.ok(!tools.some((t) => t.name.startsWith('vscode_')), 'vscode_* excluded by default');
  });

  test('a call runs vscode.lm.invokeTool after the permission prompt; a denied call does not run', async () => {
    s.asked.length = 0;
    s.answer = 'reject_once';
    const denied = await s.client.callTool({ name: 'tandemFixture_reverse', arguments: { text: 'Tandem' } });
    assert.equal(denied.isError, true);
    assert.equal(s.text(denied), 'The user denied permission to run tandemFixture_reverse.');
    s.answer = 'allow_once';
    const r = await s.client.callTool({ name: 'tandemFixture_reverse', arguments: { text: 'Tandem' } });
    assert.ok(!r.isError, s.text(r));
    assert.equal(s.text(r), 'reversed: mednaT (6 characters)');
    assert.deepEqual(s.asked, ['Extensions · tandemFixture_reverse', 'Extensions · tandemFixture_reverse']);
  });

  test('excluding a tag takes the tool out of the list, with list_changed', async () => {
    const before = (await s.client.listTools()).tools.map((t) => t.name);
    assert.ok(before.includes('tandemFixture_hidden'), before.join(', '));
    let changed = 0;
    s.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });
    await exclude().update('exclude', ['vscode_*', 'tandem-fixture-hidden'], vscode.ConfigurationTarget.Global);
    await until(() => changed > 0, 10_000, 'list_changed');
    const after = (await s.client.listTools()).tools.map((t) => t.name);
    assert.ok(!after.includes('tandemFixture_hidden'), after.join(', '));
    assert.ok(after.includes('tandemFixture_reverse'));
  });
});
