/// <reference types="mocha" />
// "Tandem: Show Agent Capabilities" in the real VS Code: a scripted agent declares capabilities,
// writes a file through fs/write_text_file and reports a tool call with `_meta`; the command's
// document lists that call, that update kind, that key and what the agent declared, and follows
// the next turn while it is open.
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activateTandem, configureScriptedAgent, until } from './helpers';
import type { Controller } from '../../src/vscode/agent/controller';

suite('Show Agent Capabilities', () => {
  let ctl: Controller;

  suiteSetup(async function () {
    this.timeout(60_000);
    const { api, extensionPath } = await activateTandem();
    ctl = api.controller;
    const dir = join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'caps');
    mkdirSync(dir, { recursive: true });
    await configureScriptedAgent(extensionPath, 'Caps', {
      name: 'caps',
      // Its own session ids: the change tracker is extension-wide, and other suites' scripted agents
      // also open sess-1 (this agent's writes would show among their changes).
      newSession: { sessionId: 'caps-${n}' },
      initialize: {
        agentCapabilities: {
          loadSession: true,
          sessionCapabilities: { fork: {} },
          promptCapabilities: { image: true },
        },
        agentInfo: { name: 'caps-agent', title: 'Caps Agent', version: '2.0' },
        _meta: { steering: { supported: true } },
      },
      defaultPrompt: {
        steps: [
          {
            update: {
              sessionUpdate: 'tool_call',
              toolCallId: 'w-${turn}',
              title: 'Write out.txt',
              kind: 'edit',
              status: 'pending',
              _meta: { capsProbe: { toolName: 'Write' } },
            },
          },
          {
            request: 'fs/write_text_file',
            params: { sessionId: '${sessionId}', path: join(dir, 'out-${turn}.txt'), content: 'turn ${turn}\n' },
            as: 'w',
          },
          { update: { sessionUpdate: 'tool_call_update', toolCallId: 'w-${turn}', status: 'completed' } },
        ],
      },
    });
    await ctl.start('Caps');
    assert.equal(ctl.agent.state, 'ready', ctl.agent.message);
  });

  suiteTeardown(async () => {
    await ctl?.stop();
  });

  test("the report lists the agent's fs/write_text_file call, its tool_call update, its `_meta` key and what it declared; it follows the next turn", async () => {
    await ctl.current!.prompt('write a file');
    const uri = await vscode.commands.executeCommand<vscode.Uri>('tandem.showAgentCapabilities', 'Caps');
    assert.ok(uri, 'a report was opened');
    const doc = await vscode.workspace.openTextDocument(uri);
    const text = doc.getText();
    assert.match(text, /^# Caps Agent: capabilities$/m);
    assert.match(text, /^\| `fs\/write_text_file` \| 1 \| 0 \|/m);
    assert.match(text, /^\| `tool_call` \| 1 \|/m);
    assert.match(text, /^\| `capsProbe\.toolName` \| 1 \| tool_call \|$/m);
    assert.match(text, /^\| `agentCapabilities\.sessionCapabilities\.fork` \| yes \|/m);
    assert.match(text, /^\| `agentCapabilities\.promptCapabilities\.image` \| yes \|/m);
    assert.match(text, /^\| `_meta\.steering\.supported` \| yes \|/m);
    assert.match(text, /^- \*\*Checkpoints:\*\* from Tandem's own writes/m);
    assert.match(text, /^- \*\*Permissions:\*\* asked before 0 of 1 call that ran/m);
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));
    assert.ok(
      tabs.some((l) => l.includes('Caps capabilities.md')),
      `the report is shown: ${tabs.join(', ')}`,
    );

    await ctl.current!.prompt('write another');
    await until(() => /^\| `fs\/write_text_file` \| 2 \| 0 \|/m.test(doc.getText()), 10_000, 'the open report follows');
  });
});
