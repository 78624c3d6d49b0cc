// Compatibility of client tools: real agents (claude-code-acp 0.16.2, claude-agent-acp 0.100.0,
// gemini-cli 0.61.0, codex-acp 2.6.0) get Tandem's `tandem` MCP server in session/new through the real AgentClient +
// ClientToolsFeature, expand the collapsed IDE group (container tool) and call OpenFile (a recording fake IDE
// handler: no VS Code here; the VS Code handler is covered by test/integration/ideTools.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentClient } from '../../src/client/connection/agentClient';
import { MemoryLogger } from '../../src/common/logger';
import { ClientToolsFeature } from '../../src/tools/clientToolsFeature';
import { ToolRegistry } from '../../src/tools/registry';
import { DEFAULT_TOOLS_CONFIG } from '../../src/tools/types';
import { clientToolTitleText, type ClientCallFacts } from '../../src/shared/clientToolTitle';
import { fakeAnthropic, fakeGemini, fakeResponses, type Step } from './fakeModels';
import {
  AGENT_NODE,
  CLAUDE_AGENT_ACP,
  CLAUDE_CODE_ACP,
  CODEX_ACP,
  GEMINI_CLI,
  claudeAgentEnv,
  codexArgs,
  codexEnv,
  codexHome,
} from './agentPaths';
import { userPermissions } from './userPermissions';

function setup(name: string, command: string, args: string[], env: Record<string, string>) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-compat-tools-')));
  const ws = join(root, 'project');
  const home = join(root, 'home');
  mkdirSync(ws);
  mkdirSync(home);
  const opened: Array<{ path: string; line?: number }> = [];
  const registry = new ToolRegistry();
  registry.register({
    name: 'IDE',
    description: 'VS Code interaction tools',
    tools: [
      {
        name: 'OpenFile',
        description: 'Open a file in the editor at an optional 1-based line',
        parametersSchema: {
          type: 'object',
          properties: { path: { type: 'string' }, line: { type: 'integer', minimum: 1 } },
          required: ['path'],
          additionalProperties: false,
        },
        handler: (a) => {
          opened.push({ path: a.path as string, line: a.line as number | undefined });
          return `Opened ${a.path} at line ${a.line ?? 1}.`;
        },
      },
      {
        name: 'GetSelection',
        description: "Get the user's current selection",
        parametersSchema: { type: 'object', properties: {} },
        handler: () => 'No active editor.',
      },
      {
        name: 'ShowMessage',
        description: 'Show a message',
        parametersSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
        handler: () => 'shown',
      },
    ],
  });
  const logger = new MemoryLogger();
  // The real permission pipeline, the user allowing once: gemini-cli asks before MCP calls.
  const perms = userPermissions(ws, logger, () => 'allow_once');
  const tools = new ClientToolsFeature({
    registry,
    config: () => DEFAULT_TOOLS_CONFIG,
    logger,
    bridge: { command: process.execPath, args: [join(__dirname, '../../src/tools/mcp/bridge.js')] },
  });
  const traffic: Array<{ dir: string; msg: { method?: string; params?: { mcpServers?: unknown[] } } }> = [];
  const c = new AgentClient({
    agent: { name, command, args, env: { ...env, HOME: home }, cwd: ws },
    cwd: ws,
    logger,
    features: [tools, perms.feature],
    traffic: (dir, msg) => traffic.push({ dir, msg: msg as { method?: string } }),
    clientInfo: { name: 'tandem-compat', version: '0' },
  });
  return { c, ws, opened, logger, traffic, perms };
}

function mcpEntry(
  traffic: Array<{ dir: string; msg: { method?: string; params?: { mcpServers?: unknown[] } } }>,
): unknown {
  return traffic.find((t) => t.dir === 'out' && t.msg.method === 'session/new')?.msg.params?.mcpServers?.[0];
}
function logTail(logger: MemoryLogger): string {
  return logger.records
    .slice(-30)
    .map((r) => `${r.level}: ${r.message}`)
    .join('\n');
}
type ToolRow = { title: string; status: string; group?: string; shown?: string; permission?: string };
function toolRows(c: AgentClient): ToolRow[] {
  const out: ToolRow[] = [];
  c.session!.state.toolCalls.forEach((t) => {
    const tandem = t.meta?.tandem as ClientCallFacts | undefined;
    out.push({
      title: t.title,
      status: t.status,
      group: tandem?.group,
      // What the view titles the row by once Tandem has seen the call.
      shown: tandem && clientToolTitleText(tandem),
      permission: t.permission?.optionKind,
    });
  });
  return out;
}

test(
  "claude-code-acp 0.16.2: expands the IDE group and calls OpenFile over Tandem's MCP server",
  {
    skip: !existsSync(CLAUDE_CODE_ACP) && 'claude-code-acp not installed (run test/compat/run.mjs)',
    timeout: 120_000,
  },
  async () => {
    // Claude Code never re-reads an MCP server's tools after list_changed (anthropics/claude-code#13646):
    // the tools it declares stay ["mcp__tandem__IDE"]. The container's description tells the model to
    // call it again with {function, arguments}; the model here does what that description says.
    const script: Step[] = [
      { tool: 'mcp__tandem__IDE', input: {} },
      { tool: 'mcp__tandem__IDE', input: { function: 'OpenFile', arguments: { path: 'src/a.ts', line: 3 } } },
      { text: 'Opened it.' },
    ];
    const model = await fakeAnthropic(script);
    const t = setup('Claude Code', process.execPath, [CLAUDE_CODE_ACP], {
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'dummy',
      IS_SANDBOX: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
    });
    try {
      await t.c.start();
      assert.equal(t.c.agent.state, 'ready', `${t.c.agent.message}\n${logTail(t.logger)}`);
      console.log(
        '[compat] claude mcp entry:',
        JSON.stringify(mcpEntry(t.traffic)).replace(/Bearer [^"]+/, 'Bearer …'),
      );
      await t.c.prompt('Open src/a.ts at line 3');
      const turn = t.c.session!.snapshot().turns[0];
      assert.equal(turn.error, undefined, `turn failed: ${turn.error}\n${logTail(t.logger)}`);
      const declared = (r: unknown) =>
        ((r as { tools?: Array<{ name: string }> }).tools ?? [])
          .map((x) => x.name)
          .filter((n) => n.startsWith('mcp__tandem__'));
      console.log('[compat] claude tools per request:', JSON.stringify(model.requests.map(declared)));
      assert.deepEqual(declared(model.requests[0]), ['mcp__tandem__IDE'], 'collapsed: only the container');
      assert.match(
        JSON.stringify(model.requests[1]),
        /IDE expanded\. Available functions: OpenFile, GetSelection, ShowMessage/,
      );
      assert.match(JSON.stringify(model.requests[0]), /call this again with/, 'the container explains the proxy call');
      assert.deepEqual(t.opened, [{ path: 'src/a.ts', line: 3 }]);
      assert.match(JSON.stringify(model.requests[2]), /Opened src\/a.ts at line 3\./);
      console.log('[compat] claude tool rows:', JSON.stringify(toolRows(t.c)));
      // Claude Code reports both calls itself (the second through the container): each shows once,
      // its own row marked with the group.
      assert.deepEqual(
        toolRows(t.c).map((r) => [r.title, r.status, r.group]),
        [
          ['mcp__tandem__IDE', 'completed', 'IDE'],
          ['mcp__tandem__IDE', 'completed', 'IDE'],
        ],
      );
    } finally {
      await t.c.shutdown();
      await model.close();
    }
  },
);

test(
  "claude-agent-acp 0.100.0: expands the IDE group and calls OpenFile over Tandem's MCP server",
  {
    skip:
      (!existsSync(CLAUDE_AGENT_ACP) && 'claude-agent-acp not installed (run test/compat/run.mjs)') ||
      (!AGENT_NODE && 'needs Node ≥ 22 (TANDEM_AGENT_NODE, set by test/compat/run.mjs)'),
    timeout: 120_000,
  },
  async () => {
    // Unlike claude-code-acp, it re-reads the tools after list_changed: the model gets OpenFile itself.
    const model = await fakeAnthropic([
      { tool: 'mcp__tandem__IDE', input: {} },
      { tool: 'mcp__tandem__OpenFile', input: { path: 'src/a.ts', line: 3 } },
      { text: 'Opened it.' },
    ]);
    const t = setup('Claude Agent', AGENT_NODE, [CLAUDE_AGENT_ACP], claudeAgentEnv(model, ''));
    try {
      await t.c.start();
      assert.equal(t.c.agent.state, 'ready', `${t.c.agent.message}\n${logTail(t.logger)}`);
      await t.c.prompt('Open src/a.ts at line 3');
      const turn = t.c.session!.snapshot().turns[0];
      assert.equal(turn.error, undefined, `turn failed: ${turn.error}\n${logTail(t.logger)}`);
      const declared = (r: unknown) =>
        ((r as { tools?: Array<{ name: string }> }).tools ?? [])
          .map((x) => x.name)
          .filter((n) => n.startsWith('mcp__tandem__'))
          .sort();
      console.log('[compat] claude-agent tools per request:', JSON.stringify(model.requests.map(declared)));
      assert.deepEqual(declared(model.requests[0]), ['mcp__tandem__IDE'], 'collapsed: only the container');
      assert.match(
        JSON.stringify(model.requests[1]),
        /IDE expanded\. Available functions: OpenFile, GetSelection, ShowMessage/,
      );
      // It re-reads the list in the background: the request right after the expansion may still
      // have only the container, a later one has the tools.
      assert.ok(
        model.requests.slice(1).some((r) => declared(r).includes('mcp__tandem__OpenFile')),
        'the expanded tools reach the model',
      );
      assert.deepEqual(t.opened, [{ path: 'src/a.ts', line: 3 }]);
      assert.match(JSON.stringify(model.requests[2]), /Opened src\/a.ts at line 3\./);
      // Manual mode: it asks before each MCP call, through Tandem's broker.
      assert.deepEqual(
        t.perms.asked.map((a) => a.title),
        ['mcp__tandem__IDE', 'mcp__tandem__OpenFile'],
      );
      const rows = toolRows(t.c);
      console.log('[compat] claude-agent tool rows:', JSON.stringify(rows));
      assert.deepEqual(
        rows.map((r) => [r.status, r.group]),
        [
          ['completed', 'IDE'],
          ['completed', 'IDE'],
        ],
        'each call once, marked with its group',
      );
    } finally {
      await t.c.shutdown();
      await model.close();
    }
  },
);

test(
  "gemini-cli 0.61.0 --acp: expands the IDE group and calls OpenFile over Tandem's MCP server",
  { skip: !existsSync(GEMINI_CLI) && 'gemini-cli not installed (run test/compat/run.mjs)', timeout: 120_000 },
  async () => {
    const script: Step[] = [
      { tool: 'mcp_tandem_IDE', input: {} },
      { tool: 'mcp_tandem_OpenFile', input: { path: 'src/a.ts', line: 3 } },
      { text: 'Opened it.' },
    ];
    const model = await fakeGemini(script);
    const t = setup('Gemini CLI', process.execPath, [GEMINI_CLI, '--acp'], {
      GOOGLE_GEMINI_BASE_URL: model.url,
      GEMINI_API_KEY: 'dummy',
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
    });
    try {
      await t.c.start();
      assert.equal(t.c.agent.state, 'ready', `${t.c.agent.message}\n${logTail(t.logger)}`);
      console.log(
        '[compat] gemini mcp entry:',
        JSON.stringify(mcpEntry(t.traffic)).replace(/Bearer [^"]+|"TANDEM_MCP_TOKEN","value":"[^"]+"/, '…'),
      );
      await t.c.prompt('Open src/a.ts at line 3');
      const turn = t.c.session!.snapshot().turns[0];
      assert.equal(turn.error, undefined, `turn failed: ${turn.error}\n${logTail(t.logger)}`);
      const declared = (r: unknown) =>
        ((r as { tools?: Array<{ functionDeclarations?: Array<{ name: string }> }> }).tools ?? [])
          .flatMap((x) => x.functionDeclarations ?? [])
          .map((d) => d.name)
          .filter((n) => /tandem|^(IDE|OpenFile|GetSelection|ShowMessage)$/.test(n));
      console.log('[compat] gemini tools per request:', JSON.stringify(model.requests.map(declared)));
      assert.match(
        JSON.stringify(model.requests[1]),
        /IDE expanded\. Available functions: OpenFile, GetSelection, ShowMessage/,
      );
      assert.deepEqual(t.opened, [{ path: 'src/a.ts', line: 3 }], `unknown model paths: ${model.unknown.join(', ')}`);
      assert.match(JSON.stringify(model.requests[2]), /Opened src\/a.ts at line 3\./);
      const rows = toolRows(t.c);
      assert.deepEqual(
        t.perms.asked.map((a) => a.title),
        ['IDE (tandem MCP Server)', 'OpenFile (tandem MCP Server)'],
        'asked through the broker',
      );
      console.log('[compat] gemini tool rows:', JSON.stringify(rows));
      // gemini-cli asks permission (no tool_call) and reports only the result: the answered request is
      // the row Tandem's MCP call finds, so each call shows once, marked with its group.
      assert.deepEqual(rows.map((r) => [r.title, r.status, r.group]).sort(), [
        ['IDE (tandem MCP Server)', 'completed', 'IDE'],
        ['OpenFile (tandem MCP Server)', 'completed', 'IDE'],
      ]);
    } finally {
      await t.c.shutdown();
      await model.close();
    }
  },
);

test(
  "codex-acp 2.6.0: expands the IDE group and calls OpenFile over Tandem's MCP server",
  { skip: !existsSync(CODEX_ACP) && 'codex-acp not installed (run test/compat/run.mjs)', timeout: 120_000 },
  async () => {
    // Codex declares an MCP server's tools as a namespace (`mcp__tandem`) and, like Claude Code, does
    // not re-read them after list_changed: the second call goes through the container.
    const model = await fakeResponses([
      { tool: 'IDE', namespace: 'mcp__tandem', input: {} },
      {
        tool: 'IDE',
        namespace: 'mcp__tandem',
        input: { function: 'OpenFile', arguments: { path: 'src/a.ts', line: 3 } },
      },
      { text: 'Opened it.' },
    ]);
    const home = codexHome();
    const t = setup('Codex', process.execPath, codexArgs(), codexEnv(home, model));
    try {
      await t.c.start();
      assert.equal(t.c.agent.state, 'ready', `${t.c.agent.message}\n${logTail(t.logger)}`);
      console.log('[compat] codex mcp entry:', JSON.stringify(mcpEntry(t.traffic)).replace(/Bearer [^"]+/, 'Bearer …'));
      await t.c.prompt('Open src/a.ts at line 3');
      const turn = t.c.session!.snapshot().turns[0];
      assert.equal(turn.error, undefined, `turn failed: ${turn.error}\n${logTail(t.logger)}`);
      const declared = (r: unknown) =>
        ((r as { tools?: Array<{ type: string; name?: string; tools?: Array<{ name: string }> }> }).tools ?? [])
          .filter((x) => x.type === 'namespace' && x.name === 'mcp__tandem')
          .flatMap((x) => x.tools ?? [])
          .map((x) => x.name);
      console.log('[compat] codex tools per request:', JSON.stringify(model.requests.map(declared)));
      assert.deepEqual(declared(model.requests[0]), ['IDE'], 'collapsed: only the container');
      assert.match(
        JSON.stringify(model.requests[1]),
        /IDE expanded\. Available functions: OpenFile, GetSelection, ShowMessage/,
      );
      assert.deepEqual(t.opened, [{ path: 'src/a.ts', line: 3 }], `unknown model paths: ${model.unknown.join(', ')}`);
      assert.match(JSON.stringify(model.requests[2]), /Opened src\/a.ts at line 3\./);
      // Codex asks before each MCP call, through Tandem's broker, about the call itself (its id).
      assert.deepEqual(
        t.perms.asked.map((a) => a.title),
        ['mcp.tandem.IDE', 'mcp.tandem.IDE'],
      );
      const rows = toolRows(t.c);
      console.log('[compat] codex tool rows:', JSON.stringify(rows));
      // Codex reports both calls itself ({server, tool, arguments}): each shows once, marked with its
      // group and titled in Tandem's words, its approval folded into it (no row of its own).
      assert.deepEqual(
        rows.map((r) => [r.shown, r.status, r.permission]),
        [
          ['IDE · expand group', 'completed', 'allow_once'],
          ['IDE · OpenFile src/a.ts:3', 'completed', 'allow_once'],
        ],
      );
    } finally {
      await t.c.shutdown();
      await model.close();
      rmSync(home, { recursive: true, force: true });
    }
  },
);
