/// <reference types="mocha" />
// Compatibility through the REAL extension inside a real VS Code: real agents from npm
// (claude-code-acp 0.16.2, claude-agent-acp 0.100.0, gemini-cli 0.61.0, codex-acp 2.6.0; installed by test/compat/run.mjs into
// <test cache>/compat) are configured in `tandem.agents` and started by the extension's own
// Controller, so their fs/terminal requests hit the VS Code ports (WorkspaceEdit, undo), their
// permission prompts go to the extension's broker (answered here as a user would), and the client
// tools they call are the extension's `tandem` MCP server with the real IDE group handlers.
// Their models are fake servers on 127.0.0.1 inside this test (test/compat/fakeModels.ts).
//
// Runs in the compat layer: `node test/compat/run.mjs` installs the agents, then runs
// `run-integration.mjs --grep "compat:"` with TANDEM_COMPAT=1. Without TANDEM_COMPAT=1 (the plain
// integration layer) this suite is not registered, so the integration layer stays quick.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Controller } from '../../src/vscode/agent/controller';
import type { AgentChanges } from '../../src/vscode/changes/agentChanges';
import type { TandemPermissions } from '../../src/vscode/permissions/tandemPermissions';
import type { SessionSnapshot } from '../../src/shared/sessionModel';
import {
  fakeAnthropic,
  fakeGemini,
  fakeResponses,
  type FakeServer,
  type ResponsesStep,
  type Step,
} from '../compat/fakeModels';
import {
  AGENT_NODE,
  CACHE,
  CLAUDE_AGENT_ACP,
  CLAUDE_CODE_ACP,
  CODEX_ACP,
  GEMINI_CLI,
  claudeAgentEnv,
  claudeCodeEnv,
  codexArgs,
  codexEnv,
  codexHome,
  codexSandboxProblem,
} from '../compat/agentPaths';
import { activateTandem, runAccepting, until } from './helpers';

const NOT_INSTALLED = (what: string) =>
  `${what} is not installed in ${CACHE}: run node test/compat/run.mjs (it installs the pinned agents)`;

/** A throwaway HOME for an agent (Claude Code keeps its sessions under it). */
function freshHome(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), 'tandem-compat-home-')));
}

const claudeEnv = claudeCodeEnv;
const geminiEnv = (model: FakeServer, home: string): Record<string, string> => ({
  GOOGLE_GEMINI_BASE_URL: model.url,
  GEMINI_API_KEY: 'dummy',
  HOME: home,
  GEMINI_CLI_TRUST_WORKSPACE: 'true',
});

if (process.env.TANDEM_COMPAT === '1') {
  suite('compat: real agents through the real extension', function () {
    this.timeout(180_000);
    let ctl: Controller;
    let hands: AgentChanges;
    let permissions: TandemPermissions;
    let ws: string;
    let asked: Array<{ title: string; kinds: string[] }> = [];
    let unsub: { dispose(): void } | undefined;
    const models: FakeServer[] = [];
    const codexHomes: string[] = [];

    suiteSetup(async function () {
      this.timeout(60_000);
      const { api } = await activateTandem();
      ctl = api.controller;
      hands = api.changes;
      permissions = api.permissions;
      ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
      mkdirSync(join(ws, 'compat'), { recursive: true });
      // The user: every prompt the extension's broker queues is answered "allow once", a moment
      // after it was shown, through broker.answer (what a click in the view or the notification does).
      unsub = permissions.broker.onDidChange((ch) => {
        if (ch.type !== 'added') return;
        const { view, requestId } = ch.pending;
        asked.push({ title: view.toolCall.title ?? view.toolCallId, kinds: view.options.map((o) => o.kind) });
        const o =
          view.options.find((x) => x.kind === 'allow_once') ?? view.options.find((x) => x.kind.startsWith('allow'));
        setTimeout(() => {
          if (o) permissions.broker.answer(requestId, o.optionId);
        }, 50);
      });
    });

    setup(() => {
      asked = [];
    });

    teardown(async () => {
      await ctl?.stop();
      while (models.length) await models.pop()!.close();
    });

    suiteTeardown(async () => {
      unsub?.dispose();
      for (const h of codexHomes) rmSync(h, { recursive: true, force: true });
      await vscode.workspace.getConfiguration('tandem').update('agents', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    /** Configures one agent in tandem.agents (user settings) and starts it through the Controller. */
    async function startAgent(
      name: string,
      args: string[],
      env: Record<string, string>,
      command = process.execPath,
    ): Promise<void> {
      await vscode.workspace
        .getConfiguration('tandem')
        .update('agents', [{ name, command, args, env }], vscode.ConfigurationTarget.Global);
      await ctl.start(name);
      assert.equal(ctl.agent.state, 'ready', `${name} did not start: ${ctl.agent.message}`);
    }

    async function model(kind: 'anthropic' | 'gemini' | 'responses', script: ResponsesStep[]): Promise<FakeServer> {
      const m =
        kind === 'anthropic'
          ? await fakeAnthropic(script as Step[])
          : kind === 'gemini'
            ? await fakeGemini(script as Step[])
            : await fakeResponses(script);
      models.push(m);
      return m;
    }

    function lastTurn(): SessionSnapshot['turns'][number] {
      const turns = ctl.snapshot().session!.turns;
      return turns[turns.length - 1];
    }

    function assertTurnOk(m: FakeServer): void {
      const t = lastTurn();
      assert.equal(t.error, undefined, `turn failed: ${t.error}; unknown model paths: ${m.unknown.join(', ')}`);
    }

    /** The tool calls of the shown session, as the view gets them. */
    function toolRows(): Array<{ id: string; title: string; kind?: string; status: string; group?: string }> {
      return Object.values(ctl.snapshot().session!.toolCalls).map((t) => ({
        id: t.toolCallId,
        title: t.title,
        kind: t.kind,
        status: t.status,
        group: (t.meta?.tandem as { group?: string } | undefined)?.group,
      }));
    }

    test('claude-code-acp 0.16.2: reads, edits (the open editor shows it, undo works), writes a new file, runs a command with live output', async function () {
      if (!existsSync(CLAUDE_CODE_ACP)) {
        console.log(`[compat] skipped: ${NOT_INSTALLED('claude-code-acp 0.16.2')}`);
        this.skip();
      }
      const dir = join(ws, 'compat', 'claude');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, 'hello.txt');
      writeFileSync(file, 'hello world\nsecond line\n');
      // A file open with unsaved edits: fs/read_text_file must answer from the editor buffer.
      const dirty = join(dir, 'unsaved.txt');
      writeFileSync(dirty, 'on disk\n');
      const dirtyEditor = await vscode.window.showTextDocument(vscode.Uri.file(dirty), { preview: false });
      await dirtyEditor.edit((e) => e.replace(new vscode.Range(0, 0, 0, 7), 'unsaved buffer text'));
      assert.ok(dirtyEditor.document.isDirty);
      const m = await model('anthropic', [
        { tool: 'mcp__acp__Read', input: { file_path: dirty } },
        { tool: 'mcp__acp__Read', input: { file_path: file } },
        { tool: 'mcp__acp__Edit', input: { file_path: file, old_string: 'hello world', new_string: 'hello ACP' } },
        { tool: 'mcp__acp__Write', input: { file_path: join(dir, 'sub', 'new-file.txt'), content: 'brand new\n' } },
        {
          tool: 'mcp__acp__Bash',
          input: { command: 'echo live-1; sleep 1.5; echo live-2', timeout: 30000, description: 'Print two lines' },
        },
        { text: 'All done.' },
      ]);
      const editor = await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
      await startAgent('Claude Code', [CLAUDE_CODE_ACP], claudeEnv(m, freshHome()));

      let liveBeforeExit: boolean | undefined;
      const sub = ctl.onDidChangeSession((c) => {
        for (const p of c.patches) {
          if (p.op === 'terminalOutput' && p.data.includes('live-1') && liveBeforeExit === undefined) {
            liveBeforeExit = !ctl.current!.session!.state.terminals.get(p.terminalId)?.exited;
          }
        }
      });
      try {
        await ctl.current!.prompt('Read compat/claude/hello.txt, change the greeting, add a file and run a command');
      } finally {
        sub.dispose();
      }
      assertTurnOk(m);
      assert.equal(lastTurn().stopReason, 'end_turn');

      // Read: answered by VS Code (the unsaved buffer, not the disk), and the result reached the model.
      assert.match(
        JSON.stringify(m.requests[1]),
        /unsaved buffer text/,
        'the Read of an open file returned its unsaved buffer',
      );
      assert.doesNotMatch(JSON.stringify(m.requests[1]), /on disk/);
      assert.match(JSON.stringify(m.requests[2]), /hello world/, 'the Read result reached the model');
      // Edit: through a WorkspaceEdit — the open editor shows it at once, saved, on disk.
      assert.equal(editor.document.getText(), 'hello ACP\nsecond line\n');
      assert.equal(readFileSync(file, 'utf8'), 'hello ACP\nsecond line\n');
      // Write: a new file in a new folder.
      assert.equal(readFileSync(join(dir, 'sub', 'new-file.txt'), 'utf8'), 'brand new\n');
      const sid = ctl.current!.session!.sessionId;
      const changes = hands.tracker.changes(sid, 0);
      assert.deepEqual(
        changes.map((c) => c.path).sort(),
        [file, join(dir, 'sub', 'new-file.txt')].sort(),
        'both writes went through the client (review list)',
      );
      // Command: a client terminal, output live in the view before it exited.
      const terms = Object.values(ctl.snapshot().session!.terminals);
      assert.equal(terms.length, 1, 'one client terminal');
      assert.match(terms[0].output, /live-1\nlive-2\n/);
      assert.equal(terms[0].exitCode, 0);
      assert.equal(liveBeforeExit, true, 'live-1 reached the view while the command still ran');
      assert.match(JSON.stringify(m.requests[5]), /live-2/, 'the command output went back to the model');
      // Permission prompts went through the extension's broker (edit, write, command at least).
      assert.ok(asked.length >= 3, `prompts asked through the broker: ${JSON.stringify(asked)}`);
      const rows = toolRows();
      console.log(`[compat] claude prompts: ${JSON.stringify(asked)}`);
      console.log(`[compat] claude tool calls: ${JSON.stringify(rows.map((r) => [r.kind, r.status, r.title]))}`);
      assert.ok(rows.filter((r) => r.status === 'completed').length >= 5, `tool calls: ${JSON.stringify(rows)}`);
      // Undo: the agent's edit is an undoable edit of the document.
      await vscode.window.showTextDocument(editor.document, { preview: false });
      await vscode.commands.executeCommand('undo');
      await until(() => editor.document.getText() === 'hello world\nsecond line\n', 5000, 'undo of the agent edit');
      // Leave no dirty editors behind (closing them would ask to save).
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await vscode.window.showTextDocument(dirtyEditor.document, { preview: false });
      await vscode.commands.executeCommand('workbench.action.files.revert');
    });

    test('gemini-cli 0.61.0 --acp: edits a file (the open editor shows it) and creates one', async function () {
      if (!existsSync(GEMINI_CLI)) {
        console.log(`[compat] skipped: ${NOT_INSTALLED('gemini-cli 0.61.0')}`);
        this.skip();
      }
      const dir = join(ws, 'compat', 'gemini');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, 'edit-me.txt');
      writeFileSync(file, 'hello world\nsecond line\n');
      const m = await model('gemini', [
        {
          tool: 'replace',
          input: {
            file_path: file,
            old_string: 'hello world',
            new_string: 'hello ACP',
            instruction: 'Change the greeting.',
          },
        },
        { tool: 'write_file', input: { file_path: join(dir, 'new-file.txt'), content: 'brand new\n' } },
        { text: 'All done.' },
      ]);
      const editor = await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
      await startAgent('Gemini CLI', [GEMINI_CLI, '--acp'], geminiEnv(m, freshHome()));
      await ctl.current!.prompt('Edit compat/gemini/edit-me.txt and create new-file.txt');
      assertTurnOk(m);
      assert.equal(editor.document.getText(), 'hello ACP\nsecond line\n', 'the open editor shows the edit');
      assert.equal(readFileSync(file, 'utf8'), 'hello ACP\nsecond line\n');
      assert.equal(readFileSync(join(dir, 'new-file.txt'), 'utf8'), 'brand new\n');
      const changes = hands.tracker.changes(ctl.current!.session!.sessionId, 0);
      assert.deepEqual(
        changes.map((c) => c.path).sort(),
        [file, join(dir, 'new-file.txt')].sort(),
        'both writes went through the client',
      );
      console.log(`[compat] gemini prompts: ${JSON.stringify(asked)}`);
      console.log(`[compat] gemini tool calls: ${JSON.stringify(toolRows().map((r) => [r.kind, r.status, r.title]))}`);
      assert.ok(asked.length >= 2, `prompts asked through the broker: ${JSON.stringify(asked)}`);
    });

    const openMe = () => {
      const p = join(ws, 'compat', 'open-me.ts');
      writeFileSync(p, Array.from({ length: 12 }, (_, i) => `export const line${i + 1} = ${i + 1};`).join('\n') + '\n');
      return p;
    };

    test('claude-code-acp 0.16.2: expands the IDE group and calls OpenFile — the file opens in VS Code at the line', async function () {
      if (!existsSync(CLAUDE_CODE_ACP)) {
        console.log(`[compat] skipped: ${NOT_INSTALLED('claude-code-acp 0.16.2')}`);
        this.skip();
      }
      const target = openMe();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      // Claude Code never re-reads tools after list_changed: the model calls the container again
      // with {function, arguments}, as its description says (src/tools/invoke.ts).
      const m = await model('anthropic', [
        { tool: 'mcp__tandem__IDE', input: {} },
        {
          tool: 'mcp__tandem__IDE',
          input: { function: 'OpenFile', arguments: { path: 'compat/open-me.ts', line: 7 } },
        },
        { text: 'Opened it.' },
      ]);
      await startAgent('Claude Code', [CLAUDE_CODE_ACP], claudeEnv(m, freshHome()));
      await ctl.current!.prompt('Open compat/open-me.ts at line 7');
      assertTurnOk(m);
      const declared = (r: unknown) =>
        ((r as { tools?: Array<{ name: string }> }).tools ?? [])
          .map((x) => x.name)
          .filter((n) => n.startsWith('mcp__tandem__'));
      // Collapsed: the groups' containers (IDE, Code, Workspace, Extensions), none of IDE's functions.
      assert.ok(declared(m.requests[0]).includes('mcp__tandem__IDE'), 'collapsed: the container');
      assert.ok(!declared(m.requests[0]).includes('mcp__tandem__OpenFile'), 'collapsed: no function');
      assert.match(JSON.stringify(m.requests[1]), /IDE expanded\. Available functions: OpenFile/);
      assert.match(JSON.stringify(m.requests[2]), /Opened compat\/open-me\.ts at line 7/);
      const ed = vscode.window.activeTextEditor;
      assert.ok(ed, 'an editor is active');
      assert.equal(ed.document.uri.fsPath, target);
      assert.equal(ed.selection.active.line, 6, 'line 7 (1-based)');
      const rows = toolRows().filter((r) => r.group === 'IDE');
      console.log(
        `[compat] claude IDE tool calls: ${JSON.stringify(rows.map((r) => [r.status, r.title]))}; prompts: ${JSON.stringify(asked)}`,
      );
      assert.ok(rows.length >= 2, `client tool calls marked with their group: ${JSON.stringify(toolRows())}`);
    });

    test('gemini-cli 0.61.0 --acp: expands the IDE group and calls OpenFile — the file opens in VS Code at the line', async function () {
      if (!existsSync(GEMINI_CLI)) {
        console.log(`[compat] skipped: ${NOT_INSTALLED('gemini-cli 0.61.0')}`);
        this.skip();
      }
      const target = openMe();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      const m = await model('gemini', [
        { tool: 'mcp_tandem_IDE', input: {} },
        { tool: 'mcp_tandem_OpenFile', input: { path: 'compat/open-me.ts', line: 9 } },
        { text: 'Opened it.' },
      ]);
      await startAgent('Gemini CLI', [GEMINI_CLI, '--acp'], geminiEnv(m, freshHome()));
      await ctl.current!.prompt('Open compat/open-me.ts at line 9');
      assertTurnOk(m);
      assert.match(JSON.stringify(m.requests[1]), /IDE expanded\. Available functions: OpenFile/);
      assert.match(
        JSON.stringify(m.requests[2]),
        /Opened compat\/open-me\.ts at line 9/,
        `unknown model paths: ${m.unknown.join(', ')}`,
      );
      const ed = vscode.window.activeTextEditor;
      assert.ok(ed, 'an editor is active');
      assert.equal(ed.document.uri.fsPath, target);
      assert.equal(ed.selection.active.line, 8, 'line 9 (1-based)');
      const rows = toolRows().filter((r) => r.group === 'IDE');
      console.log(
        `[compat] gemini IDE tool calls: ${JSON.stringify(rows.map((r) => [r.status, r.title]))}; prompts: ${JSON.stringify(asked)}`,
      );
      assert.ok(rows.length >= 2, `client tool calls marked with their group: ${JSON.stringify(toolRows())}`);
    });

    test('codex-acp 2.6.0: runs a command, patches a file (the open editor shows it, Review Changes has it), opens a file through the IDE container', async function () {
      if (!existsSync(CODEX_ACP)) {
        console.log(`[compat] skipped: ${NOT_INSTALLED('codex-acp 2.6.0')}`);
        this.skip();
      }
      const sandbox = codexSandboxProblem();
      assert.equal(sandbox, undefined, sandbox);
      const dir = join(ws, 'compat', 'codex');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, 'edit-me.txt');
      writeFileSync(file, 'hello world\nsecond line\n');
      const target = openMe();
      // Codex writes the disk itself (no fs/*) and runs its commands itself (no terminal/*).
      const m = await model('responses', [
        { tool: 'exec_command', input: { cmd: 'sleep 0.3; echo codex-ran', yield_time_ms: 10000 } },
        {
          customTool: 'apply_patch',
          input:
            '*** Begin Patch\n*** Update File: compat/codex/edit-me.txt\n@@\n-hello world\n+hello ACP\n second line\n*** End Patch\n',
        },
        {
          tool: 'IDE',
          namespace: 'mcp__tandem',
          input: { function: 'OpenFile', arguments: { path: 'compat/open-me.ts', line: 5 } },
        },
        { text: 'All done.' },
      ]);
      const editor = await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
      const home = codexHome();
      codexHomes.push(home);
      await startAgent('Codex', codexArgs(), codexEnv(home, m));
      await ctl.current!.prompt('Run, patch compat/codex/edit-me.txt, open compat/open-me.ts at line 5');
      assertTurnOk(m);
      assert.equal(readFileSync(file, 'utf8'), 'hello ACP\nsecond line\n');
      await until(
        () => editor.document.getText() === 'hello ACP\nsecond line\n',
        10_000,
        'the open editor to show the patch',
      );
      const session = ctl.current!.session!.sessionId;
      const changes = hands.tracker.changes(session, 0);
      assert.deepEqual(
        changes.map((c) => [c.path, c.source]),
        [[file, 'diff']],
        'Review Changes has the patched file',
      );
      const snap = ctl.snapshot().session!;
      assert.ok(
        Object.values(snap.terminals).some((t) => t.output.includes('codex-ran') && t.exitCode === 0),
        `the command's output: ${JSON.stringify(snap.terminals)}`,
      );
      const ed = vscode.window.activeTextEditor;
      assert.ok(ed, 'an editor is active');
      assert.equal(ed.document.uri.fsPath, target);
      assert.equal(ed.selection.active.line, 4, 'line 5 (1-based)');
      const rows = toolRows();
      console.log(
        `[compat] codex prompts: ${JSON.stringify(asked)}; tool calls: ${JSON.stringify(rows.map((r) => [r.kind, r.status, r.group, r.title]))}`,
      );
      assert.equal(
        rows.filter((r) => r.group === 'IDE').length,
        1,
        'the client tool call shows once, marked with its group',
      );
      assert.ok(
        asked.length >= 2,
        `the patch and the MCP call were asked through the broker (Read Only mode): ${JSON.stringify(asked)}`,
      );
    });

    test('claude-agent-acp 0.100.0: edits a file itself (the open editor shows it, Review Changes has what it was), runs a command, opens a file through OpenFile', async function () {
      if (!existsSync(CLAUDE_AGENT_ACP)) {
        console.log(`[compat] skipped: ${NOT_INSTALLED('claude-agent-acp 0.100.0')}`);
        this.skip();
      }
      const dir = join(ws, 'compat', 'claude-agent');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, 'edit-me.txt');
      writeFileSync(file, 'hello world\nsecond line\n');
      const target = openMe();
      // It writes the disk and runs commands itself (no fs/*, no terminal/*), and re-reads the
      // tools after list_changed: the model calls OpenFile directly once IDE has expanded.
      const m = await model('anthropic', [
        { tool: 'Edit', input: { file_path: file, old_string: 'hello world', new_string: 'hello ACP' } },
        { tool: 'Bash', input: { command: 'echo claude-agent-ran', timeout: 30000, description: 'Say it ran' } },
        { tool: 'mcp__tandem__IDE', input: {} },
        { tool: 'mcp__tandem__OpenFile', input: { path: 'compat/open-me.ts', line: 4 } },
        { text: 'All done.' },
      ]);
      const editor = await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
      // Node ≥ 22: the harness's Node 24 (VS Code's extension host runs on it too).
      await startAgent(
        'Claude Agent',
        [CLAUDE_AGENT_ACP],
        claudeAgentEnv(m, freshHome()),
        AGENT_NODE || process.execPath,
      );
      await ctl.current!.prompt(
        'Edit compat/claude-agent/edit-me.txt, run a command, open compat/open-me.ts at line 4',
      );
      assertTurnOk(m);
      assert.equal(lastTurn().stopReason, 'end_turn');
      assert.equal(readFileSync(file, 'utf8'), 'hello ACP\nsecond line\n');
      await until(
        () => editor.document.getText() === 'hello ACP\nsecond line\n',
        10_000,
        'the open editor to show the edit',
      );
      const changes = hands.tracker.changes(ctl.current!.session!.sessionId, 0);
      assert.deepEqual(
        changes.map((c) => [c.path, c.source, c.before && Buffer.from(c.before).toString()]),
        [[file, 'diff', 'hello world\nsecond line\n']],
        'Review Changes has the file as it was before the edit',
      );
      const snap = ctl.snapshot().session!;
      assert.ok(
        Object.values(snap.terminals).some((t) => t.output.includes('claude-agent-ran') && t.exitCode === 0),
        `the command's output: ${JSON.stringify(snap.terminals)}`,
      );
      const ed = vscode.window.activeTextEditor;
      assert.ok(ed, 'an editor is active');
      assert.equal(ed.document.uri.fsPath, target);
      assert.equal(ed.selection.active.line, 3, 'line 4 (1-based)');
      const rows = toolRows();
      console.log(
        `[compat] claude-agent prompts: ${JSON.stringify(asked)}; tool calls: ${JSON.stringify(rows.map((r) => [r.kind, r.status, r.group, r.title]))}`,
      );
      assert.equal(
        rows.filter((r) => r.group === 'IDE').length,
        2,
        'each client tool call shows once, marked with its group',
      );
      // Manual mode: the edit and both MCP calls were asked through the broker (a plain echo is not).
      assert.deepEqual(
        asked.map((a) => a.title),
        ['Edit compat/claude-agent/edit-me.txt', 'mcp__tandem__IDE', 'mcp__tandem__OpenFile'],
      );
    });

    test('claude-code-acp 0.16.2: session/list and session/load reopen a past session with its tool calls (Open Session… QuickPick)', async function () {
      if (!existsSync(CLAUDE_CODE_ACP)) {
        console.log(`[compat] skipped: ${NOT_INSTALLED('claude-code-acp 0.16.2')}`);
        this.skip();
      }
      const file = join(ws, 'compat', 'history.txt');
      writeFileSync(file, 'remember this line\n');
      const m = await model('anthropic', [
        { tool: 'mcp__acp__Read', input: { file_path: file } },
        { text: 'It says: remember this line.' },
      ]);
      // Same throwaway HOME for both connections: Claude Code keeps sessions in ~/.claude/projects.
      // Its own agent name, so the local history of the other cases does not mix in the picker.
      const name = 'Claude Code (history)';
      const env = claudeEnv(m, freshHome());
      await startAgent(name, [CLAUDE_CODE_ACP], env);
      const first = ctl.current!.session!.sessionId;
      await ctl.current!.prompt('compat history: read compat/history.txt');
      assertTurnOk(m);
      const before = toolRows();
      assert.equal(before.length, 1, `one tool call in the first session: ${JSON.stringify(before)}`);

      // A new connection (as after a window reload): the past session is not open any more.
      // (start() only shows an agent that runs: agents run side by side; restart() reconnects.)
      await ctl.restart();
      assert.equal(ctl.agent.state, 'ready', ctl.agent.message);
      assert.notEqual(ctl.current!.session!.sessionId, first, 'a fresh session on the new connection');
      assert.ok(ctl.current!.canReopen(), 'claude-code-acp advertises loadSession');
      const listed = await ctl.current!.listSessions();
      assert.ok(
        listed.some((s) => s.sessionId === first),
        `session/list has the past session: ${JSON.stringify(listed)}`,
      );
      const entry = listed.find((s) => s.sessionId === first)!;
      assert.equal(entry.cwd, ws);
      assert.match(entry.title ?? '', /compat history/);

      // "Tandem: Open Session…": the QuickPick lists it; accepting it loads and replays it.
      await runAccepting('tandem.openSession');
      await until(() => ctl.current?.session?.sessionId === first, 30_000, 'the past session reopened');
      const snap = ctl.snapshot().session!;
      assert.equal(snap.meta.sessionId, first);
      const after = toolRows();
      console.log(
        `[compat] session/list: ${JSON.stringify(listed.map((x) => [x.sessionId === first ? 'first' : x.sessionId, x.title]))}`,
      );
      console.log(`[compat] before: ${JSON.stringify(before)}; replayed: ${JSON.stringify(after)}`);
      for (const t of before) {
        const r = after.find((x) => x.id === t.id);
        assert.ok(r, `tool call ${t.id} (${t.title}) replayed: ${JSON.stringify(after)}`);
        assert.equal(r.kind, t.kind);
      }
      const text = JSON.stringify(snap.turns);
      assert.match(text, /compat history: read compat\/history\.txt/, 'the user message replayed');
      assert.match(text, /It says: remember this line\./, 'the agent reply replayed');
    });
  });
}
