/// <reference types="mocha" />
// The agent's hands inside a real VS Code: a scripted ACP agent (configured in tandem.agents)
// runs through the extension's own Controller, so fs/terminal requests hit the real features
// with the VS Code ports. Checks: undo after an agent write, the review diff editor, revert
// restoring bytes exactly, follow-along opening the right line, live terminal output.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activateTandem, configureScriptedAgent, until } from './helpers';
import type { Controller } from '../../src/vscode/agent/controller';
import type { TestedTandem } from './helpers';

suite('agent hands (fs, terminals, follow-along, review)', () => {
  let ctl: Controller;
  let hands: TestedTandem;
  let ws: string;
  const write = (name: string) => join(ws, 'hands', name);

  suiteSetup(async function () {
    this.timeout(60_000);
    const { api, extensionPath } = await activateTandem();
    ctl = api.controller;
    hands = api;
    ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
    mkdirSync(join(ws, 'hands'), { recursive: true });
    const sid = '${sessionId}';
    const script = {
      name: 'hands',
      prompts: [
        {
          match: 'write undo',
          steps: [
            {
              request: 'fs/write_text_file',
              params: { sessionId: sid, path: write('undo.txt'), content: 'agent\n' },
              as: 'w',
            },
          ],
        },
        {
          match: 'write crlf',
          steps: [
            {
              request: 'fs/write_text_file',
              params: { sessionId: sid, path: write('crlf.txt'), content: 'x\ny\n' },
              as: 'a',
            },
            {
              request: 'fs/write_text_file',
              params: { sessionId: sid, path: write('mixed.txt'), content: 'z\n' },
              as: 'b',
            },
            {
              request: 'fs/write_text_file',
              params: { sessionId: sid, path: write('deep/new.txt'), content: 'new\n' },
              as: 'c',
            },
          ],
        },
        {
          match: 'follow',
          steps: [
            {
              update: {
                sessionUpdate: 'tool_call',
                toolCallId: 'f1',
                title: 'Read hello.ts',
                kind: 'read',
                status: 'completed',
                locations: [{ path: join(ws, 'src', 'hello.ts'), line: 3 }],
              },
            },
          ],
        },
        {
          match: 'term',
          steps: [
            {
              request: 'terminal/create',
              params: { sessionId: sid, command: 'echo live-1; sleep 2; echo live-2' },
              as: 't',
            },
            {
              update: {
                sessionUpdate: 'tool_call',
                toolCallId: 'c1',
                title: 'run',
                kind: 'execute',
                status: 'in_progress',
                content: [{ type: 'terminal', terminalId: '${t.terminalId}' }],
              },
            },
            { request: 'terminal/wait_for_exit', params: { sessionId: sid, terminalId: '${t.terminalId}' }, as: 'x' },
            { request: 'terminal/release', params: { sessionId: sid, terminalId: '${t.terminalId}' }, as: 'r' },
          ],
        },
      ],
    };
    await configureScriptedAgent(extensionPath, 'Hands', script);
    await ctl.start('Hands');
    assert.equal(ctl.agent.state, 'ready', ctl.agent.message);
  });

  suiteTeardown(async () => {
    await vscode.workspace
      .getConfiguration()
      .update('tandem.followAgent', undefined, vscode.ConfigurationTarget.Global);
    await ctl?.stop();
  });

  test('an agent write is an undoable edit the open editor shows at once', async () => {
    const uri = vscode.Uri.file(write('undo.txt'));
    await vscode.workspace.fs.writeFile(uri, Buffer.from('user\n'));
    const editor = await vscode.window.showTextDocument(uri, { preview: false });
    await ctl.current!.prompt('write undo');
    assert.equal(editor.document.getText(), 'agent\n');
    assert.equal(editor.document.isDirty, false, 'saved');
    assert.equal(readFileSync(uri.fsPath, 'utf8'), 'agent\n');
    await vscode.window.showTextDocument(editor.document, { preview: false });
    await vscode.commands.executeCommand('undo');
    await until(() => editor.document.getText() === 'user\n', 5000, 'undo');
  });

  test('review: the diff editor opens on the snapshot; revert restores bytes exactly (CRLF, mixed, created)', async () => {
    const crlf = Buffer.from('a\r\nb\r\nc'); // CRLF, no final newline
    const mixed = Buffer.from('\ufeffm1\r\nm2\nm3\r\n'); // BOM + mixed line endings
    writeFileSync(write('crlf.txt'), crlf);
    writeFileSync(write('mixed.txt'), mixed);
    await ctl.current!.prompt('write crlf');
    const sid = ctl.current!.session!.sessionId;
    const turn = ctl.current!.session!.state.turns.length - 1;
    const changes = hands.changes.tracker.changes(sid, turn);
    assert.deepEqual(
      changes.map((c) => c.path).sort(),
      [write('crlf.txt'), write('deep/new.txt'), write('mixed.txt')].sort(),
    );
    assert.equal(readFileSync(write('deep/new.txt'), 'utf8'), 'new\n', 'parent folders created');

    const c = changes.find((x) => x.path === write('crlf.txt'))!;
    await hands.changes.review.openDiff(c);
    await until(
      () => {
        const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
        return (
          input instanceof vscode.TabInputTextDiff &&
          input.original.scheme === 'tandem-snapshot' &&
          input.modified.fsPath === write('crlf.txt')
        );
      },
      5000,
      'the diff editor',
    );
    const left = vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === 'tandem-snapshot');
    assert.ok(left, 'snapshot side visible');
    assert.equal(left.document.getText().replace(/\r\n/g, '\n'), 'a\nb\nc');

    await hands.changes.review.revertTurn(sid, turn);
    assert.deepEqual([...readFileSync(write('crlf.txt'))], [...crlf], 'crlf.txt bytes');
    assert.deepEqual([...readFileSync(write('mixed.txt'))], [...mixed], 'mixed.txt bytes');
    await until(
      async () => {
        try {
          await vscode.workspace.fs.stat(vscode.Uri.file(write('deep/new.txt')));
          return false;
        } catch {
          return true;
        }
      },
      5000,
      'created file deleted',
    );
    assert.ok(hands.changes.tracker.changes(sid, turn).every((x) => x.state === 'reverted'));
  });

  test('follow-along opens the tool call location at the right line', async () => {
    await vscode.workspace.getConfiguration().update('tandem.followAgent', true, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const revealed = new Promise<{ path: string; line?: number }>((resolve) => {
      const d = hands.follow.onDidReveal((e) => {
        d.dispose();
        resolve(e);
      });
    });
    await ctl.current!.prompt('follow');
    const r = await revealed;
    assert.equal(r.path, join(ws, 'src', 'hello.ts'));
    const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
    assert.ok(editor, 'an editor is open');
    assert.equal(editor.document.uri.fsPath, join(ws, 'src', 'hello.ts'));
    assert.equal(editor.selection.active.line, 2, 'line 3 (1-based)');
  });

  test("a terminal's output reaches the session view live, and opens in a terminal", async function () {
    this.timeout(30_000);
    const seen: string[] = [];
    let liveBeforeExit: boolean | undefined;
    const sub = ctl.onDidChangeSession((c) => {
      for (const p of c.patches) {
        if (p.op === 'terminalOutput') {
          seen.push(p.data);
          if (liveBeforeExit === undefined && p.data.includes('live-1'))
            liveBeforeExit = !ctl.current!.session!.state.terminals.get(p.terminalId)!.exited;
        }
      }
    });
    const done = ctl.current!.prompt('term');
    await until(() => liveBeforeExit !== undefined, 10_000, 'live output');
    assert.equal(liveBeforeExit, true, 'live-1 posted to the view while the command ran');
    const [t] = Object.values(ctl.current!.session!.snapshot().terminals);
    const term = await hands.terminals.mirror.show(t.terminalId);
    assert.ok(term, 'mirror terminal opened');
    await done;
    sub.dispose();
    const view = ctl.current!.session!.snapshot().terminals[t.terminalId];
    assert.equal(view.output, 'live-1\nlive-2\n');
    assert.equal(view.exitCode, 0);
    assert.equal(view.released, true);
    term!.dispose();
  });
});
