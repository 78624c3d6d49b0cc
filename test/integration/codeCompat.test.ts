/// <reference types="mocha" />
// Compatibility of the Code group through the REAL extension: claude-code-acp 0.16.2 (fake
// Anthropic model server) gets Tandem's `tandem` MCP server, expands the collapsed Code group and
// calls FindReferences through the container ({function, arguments}: Claude Code never re-reads
// the tool list), answered by VS Code's TypeScript features on test/fixtures/code-intel; the
// references reach the model in its next request. The global client-tools instructions
// (tandem.clientTools.instructions) reach the model's system prompt.
//
// Runs in the compat layer (test/compat/run.mjs → run-integration.mjs --grep "compat:", with
// TANDEM_COMPAT=1); without TANDEM_COMPAT=1 this suite is not registered.
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { fakeAnthropic, type FakeServer } from '../compat/fakeModels';
import { CACHE, CLAUDE_CODE_ACP, claudeCodeEnv } from '../compat/agentPaths';
import { activateTandem, type TestedTandem, until } from './helpers';

const INSTRUCTIONS = 'Tandem compat: prefer the Code group for navigation.';

/** The text of the last tool_result in an Anthropic Messages request. */
function lastToolResult(request: unknown): string {
  const messages = (request as { messages?: Array<{ content?: unknown }> }).messages ?? [];
  for (const m of [...messages].reverse()) {
    if (!Array.isArray(m.content)) continue;
    for (const c of [...(m.content as Array<{ type: string; content?: unknown }>)].reverse()) {
      if (c.type !== 'tool_result') continue;
      if (typeof c.content === 'string') return c.content;
      return ((c.content as Array<{ text?: string }>) ?? []).map((x) => x.text ?? '').join('');
    }
  }
  throw new Error(`no tool_result in ${JSON.stringify(request).slice(0, 2000)}`);
}

if (process.env.TANDEM_COMPAT === '1') {
  suite('compat: claude-code-acp uses the Code group through the real extension', function () {
    this.timeout(180_000);
    let api: TestedTandem;
    let model: FakeServer | undefined;
    let unsub: { dispose(): void } | undefined;

    suiteSetup(async function () {
      this.timeout(120_000);
      ({ api } = await activateTandem());
      const ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
      cpSync(join(__dirname, '..', '..', '..', 'test', 'fixtures', 'code-intel'), join(ws, 'code-intel'), {
        recursive: true,
      });
      // TypeScript answers from a syntax-only server until the project has loaded: wait until a
      // cross-file definition resolves, so the agent's call gets the project's answer.
      const report = vscode.Uri.file(join(ws, 'code-intel', 'report.ts'));
      await vscode.window.showTextDocument(report);
      await until(
        async () => {
          const d = (await vscode.commands.executeCommand(
            'vscode.executeDefinitionProvider',
            report,
            new vscode.Position(8, 20),
          )) as Array<vscode.Location | vscode.LocationLink>;
          return d.some((l) => ('targetUri' in l ? l.targetUri : l.uri).fsPath.endsWith('shapes.ts'));
        },
        90_000,
        'TypeScript to load the fixture project',
        500,
      );
      unsub = api.permissions.broker.onDidChange((ch) => {
        if (ch.type !== 'added') return;
        const o = ch.pending.view.options.find((x) => x.kind === 'allow_once');
        if (o) setTimeout(() => api.permissions.broker.answer(ch.pending.requestId, o.optionId), 20);
      });
    });
    suiteTeardown(async () => {
      unsub?.dispose();
      await api?.controller.stop();
      await model?.close();
      const c = vscode.workspace.getConfiguration('tandem');
      await c.update('agents', undefined, vscode.ConfigurationTarget.Global);
      await c.update('clientTools.instructions', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    test('claude-code-acp 0.16.2: expands Code, calls FindReferences; the references are in the next model request', async function () {
      if (!existsSync(CLAUDE_CODE_ACP)) {
        console.log(`[compat] skipped: claude-code-acp 0.16.2 is not installed in ${CACHE} (run test/compat/run.mjs)`);
        this.skip();
      }
      model = await fakeAnthropic([
        { tool: 'mcp__tandem__Code', input: {} },
        {
          tool: 'mcp__tandem__Code',
          input: {
            function: 'FindReferences',
            arguments: { path: 'code-intel/report.ts', line: 9, symbol: 'rectangleArea' },
          },
        },
        { text: 'rectangleArea is used in report.ts and shapes.ts.' },
      ]);
      const c = vscode.workspace.getConfiguration('tandem');
      await c.update('clientTools.instructions', INSTRUCTIONS, vscode.ConfigurationTarget.Global);
      const home = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-compat-home-')));
      await c.update(
        'agents',
        [
          {
            name: 'Claude Code (Code group)',
            command: process.execPath,
            args: [CLAUDE_CODE_ACP],
            env: claudeCodeEnv(model, home),
          },
        ],
        vscode.ConfigurationTarget.Global,
      );
      await api.controller.start('Claude Code (Code group)');
      assert.equal(api.controller.agent.state, 'ready', api.controller.agent.message);
      await api.controller.current!.prompt('Where is rectangleArea used?');
      const turns = api.controller.snapshot().session!.turns;
      assert.equal(turns.at(-1)!.error, undefined, `turn failed; unknown model paths: ${model.unknown.join(', ')}`);
      const declared = (r: unknown) =>
        ((r as { tools?: Array<{ name: string }> }).tools ?? [])
          .map((x) => x.name)
          .filter((n) => n.startsWith('mcp__tandem__'));
      console.log(`[compat] tandem tools per request: ${JSON.stringify(model.requests.map(declared))}`);
      assert.ok(declared(model.requests[0]).includes('mcp__tandem__Code'), 'Code is offered collapsed');
      assert.ok(!declared(model.requests[0]).includes('mcp__tandem__FindReferences'));
      assert.match(
        JSON.stringify(model.requests[1]),
        /Code expanded\. Available functions: GoToDefinition, FindReferences/,
      );
      // The result of FindReferences, as the model reads it in its next request.
      const result = JSON.parse(lastToolResult(model.requests[2])) as {
        total: number;
        references: Array<{ path: string; line: number }>;
      };
      assert.deepEqual(
        result.references.map((r) => `${r.path}:${r.line}`),
        ['code-intel/report.ts:2', 'code-intel/report.ts:9', 'code-intel/shapes.ts:8', 'code-intel/shapes.ts:14'],
      );
      assert.equal(result.total, 4);
      // The global instructions are in the system prompt (MCP server instructions).
      assert.ok(
        JSON.stringify((model.requests[0] as { system?: unknown }).system).includes(INSTRUCTIONS),
        'the client-tools instructions reach the system prompt',
      );
      const rows = Object.values(api.controller.snapshot().session!.toolCalls).filter(
        (t) => (t.meta?.tandem as { group?: string } | undefined)?.group === 'Code',
      );
      console.log(`[compat] Code tool calls: ${JSON.stringify(rows.map((r) => [r.status, r.title]))}`);
      assert.equal(rows.length, 2, 'both calls show once, marked with the Code group');
      // The FindReferences row links the places and carries the list the user reads (the agent's content is its JSON).
      const refs = rows.find((r) => (r.meta?.tandem as { tool?: string }).tool === 'FindReferences')!;
      assert.deepEqual(
        refs.locations.map((l) => `${l.path.slice(l.path.indexOf('code-intel/'))}:${l.line}`),
        ['code-intel/report.ts:2', 'code-intel/report.ts:9', 'code-intel/shapes.ts:8', 'code-intel/shapes.ts:14'],
      );
      assert.match(String((refs.meta?.tandem as { rowText?: string }).rowText), /^4 references in 2 files\n/);
    });

    test('claude-code-acp 0.16.2: a Rename through the container is asked once, and not again by Tandem', async function () {
      if (!existsSync(CLAUDE_CODE_ACP)) this.skip();
      await api.controller.stop();
      await model?.close();
      model = await fakeAnthropic([
        { tool: 'mcp__tandem__Code', input: {} },
        {
          tool: 'mcp__tandem__Code',
          input: {
            function: 'Rename',
            arguments: { path: 'code-intel/shapes.ts', line: 12, symbol: 'totalArea', newName: 'sumOfAreas' },
          },
        },
        { text: 'Renamed.' },
      ]);
      const home = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-compat-home-')));
      const c = vscode.workspace.getConfiguration('tandem');
      const agent = { name: 'Claude Code (Rename)', command: process.execPath, args: [CLAUDE_CODE_ACP] };
      await c.update('agents', [{ ...agent, env: claudeCodeEnv(model, home) }], vscode.ConfigurationTarget.Global);
      const prompts: Array<{ origin: string; title: string; toolCallId: string }> = [];
      const seen = api.permissions.broker.onDidChange((ch) => {
        if (ch.type === 'added')
          prompts.push({
            origin: ch.pending.origin,
            title: ch.pending.view.toolCall.title ?? '',
            toolCallId: ch.pending.view.toolCallId,
          });
      });
      try {
        await api.controller.start(agent.name);
        await api.controller.current!.prompt('Rename totalArea to sumOfAreas.');
        const turn = api.controller.snapshot().session!.turns.at(-1)!;
        assert.equal(turn.error, undefined, `turn failed; unknown model paths: ${model.unknown.join(', ')}`);
        console.log(`[compat] prompts: ${JSON.stringify(prompts)}`);
        const calls = Object.values(api.controller.snapshot().session!.toolCalls);
        const rename = calls.find((r) => (r.meta?.tandem as { tool?: string } | undefined)?.tool === 'Rename');
        assert.ok(rename, 'the Rename call has its row');
        assert.equal(prompts.filter((p) => p.toolCallId === rename.toolCallId).length, 1, 'one question for the call');
        assert.match(
          readFileSync(join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'code-intel', 'shapes.ts'), 'utf8'),
          /function sumOfAreas\(/,
        );
      } finally {
        seen.dispose();
      }
    });
  });
}
