// Secrets never reach the log, the trace-level traffic lines, "Show Traffic" or a traffic
// recording: an agent with secretEnv (values from SecretStorage), Tandem's MCP bearer token in
// session/new, and the user's own MCP servers with credentials in headers and env under names
// no heuristic would guess. A real session through the Controller with recording on.
import { state as vs, fakeContext, vscodeFake } from './fakeVscode';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { McpServer } from '@agentclientprotocol/sdk';
import { MemoryLogger } from '../../../src/common/logger';
import { redactSecrets } from '../../../src/acp/trafficRecorder';
import type { AgentScript } from '../../../src/demo/scriptTypes';
import { ClientToolsFeature } from '../../../src/tools/clientToolsFeature';
import { ToolRegistry } from '../../../src/tools/registry';
import { DEFAULT_TOOLS_CONFIG } from '../../../src/tools/types';
import { Controller } from '../../../src/vscode/agent/controller';
import { Traffic } from '../../../src/vscode/agent/traffic';
import { viewIntents } from './viewIntents';
import { ideGroup } from '../tools/fixtures';

const REPO = join(__dirname, '../../../..');
const AGENT = join(__dirname, '../../fixtures/agents/scripted-agent.js');

test('no secret in logs, trace lines, Show Traffic or the recorded JSONL', async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-sec-secrets-')));
  const ws = join(root, 'ws');
  mkdirSync(ws);
  const script: AgentScript = {
    initialize: { agentCapabilities: { mcpCapabilities: { http: true } } },
    prompts: [{ steps: [{ mcpTools: 'tandem', as: 'tools' }, { stream: 'tools: ${tools.names}' }] }],
  };
  const scriptFile = join(root, 'script.json');
  writeFileSync(scriptFile, JSON.stringify(script));
  const SECRET_ENV = { ANTHROPIC_API_KEY: 'sk-ant-secret-env-value-1111', DB_PASSPHRASE: 'passphrase-secret-env-2222' };
  const USER_HEADER = 'user-header-secret-3333';
  const USER_ENV = 'user-env-secret-4444';
  vs.folders = [ws];
  vs.isTrusted = true;
  vs.config = {
    'tandem.agents': [
      { name: 'Scripted', command: process.execPath, args: [AGENT, scriptFile], secretEnv: Object.keys(SECRET_ENV) },
    ],
    'tandem.defaultAgent': 'Scripted',
    'tandem.recordTraffic': true,
  };
  const context = fakeContext(REPO, join(root, 'storage')) as {
    secrets: { store(k: string, v: string): Promise<void> };
    globalStorageUri: unknown;
  };
  for (const [k, v] of Object.entries(SECRET_ENV)) await context.secrets.store(`tandem.agentSecret.Scripted.${k}`, v);

  const logger = new MemoryLogger();
  const traceLines: string[] = [];
  const channel = { logLevel: vscodeFake.LogLevel.Trace, trace: (s: string) => traceLines.push(s) };
  const traffic = new Traffic(channel as never, logger, context.globalStorageUri as never);
  const raw: string[] = [];
  const registry = new ToolRegistry();
  registry.register(ideGroup([]));
  const userServers: McpServer[] = [
    {
      type: 'http',
      name: 'web',
      url: 'http://127.0.0.1:9/mcp',
      headers: [{ name: 'X-Custom-Auth', value: USER_HEADER }],
    },
    { name: 'local', command: 'true', args: [], env: [{ name: 'OPENAI_KEY', value: USER_ENV }] },
  ];
  const tools = new ClientToolsFeature({
    registry,
    config: () => DEFAULT_TOOLS_CONFIG,
    logger,
    userServers: () => userServers,
  });
  const ctl = new Controller({
    context: context as never,
    logger,
    traffic: (d, m) => {
      raw.push(JSON.stringify(m));
      traffic.onMessage(d, m);
    },
    onWillConnect: (n) => traffic.startConnection(n),
  });
  ctl.registerFeatures(() => [tools]);
  const intents = viewIntents(ctl, context, logger);
  let shownDoc = '';
  (vscodeFake.workspace as Record<string, unknown>).openTextDocument = async (o: { content: string }) => {
    shownDoc = o.content;
    return {};
  };
  try {
    await ctl.start();
    assert.equal(ctl.agent.state, 'ready', ctl.agent.message);
    await intents.handle({ type: 'prompt', text: 'list your tools' });
    const snap = ctl.snapshot().session!;
    assert.match(
      JSON.stringify(snap.turns[0].items),
      /tools: .*Tandem|tools: .*IDE|tools: [A-Za-z]/,
      'the MCP server answered with the bearer token',
    );
    await traffic.show();
  } finally {
    await ctl.stop();
    ctl.dispose();
  }
  const file = traffic.recordingFile!;
  assert.ok(file, 'a recording was made');
  await (traffic as unknown as { recorder: { close(): Promise<void> } }).recorder.close();
  const recorded = readFileSync(file, 'utf8');
  // The wire really carried the secrets we look for (else the scan proves nothing).
  const token = /"Authorization","value":"Bearer ([^"]+)"/.exec(raw.join('\n'))?.[1];
  assert.ok(token && token.length >= 40, "Tandem's bearer token went out in session/new");
  assert.ok(
    raw.join('\n').includes(USER_HEADER) && raw.join('\n').includes(USER_ENV),
    "the user's MCP credentials went out to the agent",
  );
  assert.ok(recorded.includes('session/new') && recorded.includes('[redacted]'));
  const logs = logger.records.map((r) => `${r.message} ${JSON.stringify(r.args)}`).join('\n');
  const secrets = { ...SECRET_ENV, token, USER_HEADER, USER_ENV };
  for (const [name, value] of Object.entries(secrets)) {
    assert.ok(!logs.includes(value!), `${name} not in the log`);
    assert.ok(!traceLines.join('\n').includes(value!), `${name} not in the trace lines`);
    assert.ok(!shownDoc.includes(value!), `${name} not in Show Traffic`);
    assert.ok(!recorded.includes(value!), `${name} not in the recording`);
  }
  assert.ok(shownDoc.includes('session/new'), 'Show Traffic did show the traffic');
});

test('redactSecrets: every header and env value of an MCP server entry, whatever its name', () => {
  const msg = {
    method: 'session/new',
    params: {
      mcpServers: [
        { type: 'http', name: 'a', url: 'http://x', headers: [{ name: 'X-Anything', value: 'v1' }] },
        { name: 'b', command: 'c', args: ['--flag'], env: [{ name: 'PLAIN', value: 'v2' }] },
      ],
    },
  };
  const out = JSON.stringify(redactSecrets(msg));
  assert.ok(!out.includes('v1') && !out.includes('v2'), out);
  assert.ok(out.includes('X-Anything') && out.includes('PLAIN') && out.includes('--flag'), 'names and args are kept');
});

after(() => {
  vs.config = {};
});
