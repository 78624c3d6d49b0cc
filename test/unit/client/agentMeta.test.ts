// What Tandem asks of and reads from an agent's `_meta` channels beyond tool calls, end to end
// through AgentClient and a scripted agent shaped like claude-agent-acp 0.101.0: it advertises
// `subagent-transcript`, shows the identity `_auth/status_update` reports, and keeps what a turn
// spent from the prompt answer's `_meta.quota`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentClient } from '../../../src/client/connection/agentClient';
import { attachFeatures, type FeatureContext } from '../../../src/client/connection/feature';
import { capabilityPaths } from '../../../src/client/capabilities/capabilityReport';
import { ADVERTISED_USES } from '../../../src/client/capabilities/capabilityUses';
import { parseAuthStatus } from '../../../src/client/connection/agentStatus';
import { turnUsageOf } from '../../../src/client/connection/turnUsage';
import { MemoryLogger } from '../../../src/common/logger';
import type { AgentScript } from '../../../src/demo/scriptTypes';
import { TerminalsFeature } from '../../../src/client/terminals/terminals';
import { until } from '../../support/until';

const AGENT = join(__dirname, '../../fixtures/agents/scripted-agent.js');
const dir = mkdtempSync(join(tmpdir(), 'tandem-meta-'));
let n = 0;

function client(script: AgentScript) {
  const file = join(dir, `script-${n++}.json`);
  writeFileSync(file, JSON.stringify(script));
  const sent: { method?: string; params?: unknown }[] = [];
  const c = new AgentClient({
    agent: { name: 'Scripted', command: process.execPath, args: [AGENT, file] },
    cwd: dir,
    logger: new MemoryLogger(),
    clientInfo: { name: 'tandem-test', version: '0' },
    features: [new TerminalsFeature()],
    traffic: (direction, msg) => direction === 'out' && sent.push(msg as { method?: string }),
  });
  return { c, sent };
}

/** Runs `body` with the client, and always stops its agent (a failed assertion must not leave it running). */
async function withClient(script: AgentScript, body: (r: ReturnType<typeof client>) => Promise<void>) {
  const r = client(script);
  try {
    await body(r);
  } finally {
    await r.c.shutdown();
  }
}

/** claude-agent-acp 0.101.0's payload (auth-status.js) for a key from the environment. */
const apiKey = { authStatus: { kind: 'api_key', label: 'Anthropic API key', detail: 'ANTHROPIC_API_KEY' } };

test("initialize asks for subagents' transcripts, beside the terminal output channels", async () => {
  await withClient({}, async ({ c, sent }) => {
    await c.start();
    const init = sent.find((m) => m.method === 'initialize')?.params as { clientCapabilities: { _meta?: object } };
    assert.deepEqual(init.clientCapabilities._meta, {
      'subagent-transcript': true,
      terminal_output: true,
      terminal_output_delta: true,
    });
  });
});

test('what Tandem advertises by itself is explained in the capability report', () => {
  const caps = attachFeatures([], {} as FeatureContext, () => undefined);
  const offered = capabilityPaths(caps, '', 2).filter(([, v]) => v !== false);
  assert.deepEqual(
    offered.map(([p]) => p),
    ['_meta.subagent-transcript', 'subagents'],
  );
  for (const [p] of offered) assert.ok(ADVERTISED_USES[p], p);
});

test('the identity _auth/status_update reports reaches the agent status; a later one replaces it', async () => {
  const script: AgentScript = {
    initialize: { after: [{ notify: '_auth/status_update', params: apiKey }] },
    prompts: [
      {
        steps: [
          // Unusable (no label): ignored.
          { notify: '_auth/status_update', params: { authStatus: { kind: 'account' } } },
          { notify: '_auth/status_update', params: { authStatus: { kind: 'none', label: 'Not logged in' } } },
        ],
      },
    ],
  };
  await withClient(script, async ({ c }) => {
    await c.start();
    await until(() => c.agent.account !== undefined, 5000, 'the first status');
    assert.deepEqual(c.agent.account, { kind: 'api_key', label: 'Anthropic API key', detail: 'ANTHROPIC_API_KEY' });
    assert.equal(c.agent.state, 'ready');
    await c.prompt('hi');
    await until(() => c.agent.account?.kind === 'none', 5000, 'the signed-out status');
    assert.deepEqual(c.agent.account, { kind: 'none', label: 'Not logged in' });
  });
});

test("a subscription's plan, email and organization are kept; what says nothing usable is no status", () => {
  assert.deepEqual(
    parseAuthStatus({
      authStatus: {
        kind: 'account',
        label: 'Claude Max',
        account: { plan: 'max', email: 'ada@example.com', organization: 42 },
        vendor: { anything: true },
      },
    }),
    { kind: 'account', label: 'Claude Max', email: 'ada@example.com', plan: 'max' },
  );
  for (const params of [null, { authStatus: 'none' }, { authStatus: { kind: 'none' } }, { authStatus: { label: 'x' } }])
    assert.equal(parseAuthStatus(params), undefined, JSON.stringify(params));
});

test("a prompt answer's _meta.quota is what its turn spent", async () => {
  const quota = {
    token_count: {
      totalTokens: 60,
      inputTokens: 20,
      cachedInputTokens: 5,
      cachedWriteTokens: 0,
      outputTokens: 40,
      reasoningOutputTokens: 0,
    },
    model_usage: [{ model: 'claude-opus-5-5', token_count: { totalTokens: 90, inputTokens: 50, outputTokens: 40 } }],
  };
  const script: AgentScript = {
    handlers: {
      'session/prompt': {
        steps: [{ stream: 'Done.' }],
        result: {
          stopReason: 'end_turn',
          usage: { totalTokens: 999, inputTokens: 1, outputTokens: 1 },
          _meta: { quota },
        },
      },
    },
  };
  await withClient(script, async ({ c }) => {
    await c.start();
    await c.prompt('hi');
    assert.deepEqual(c.session!.snapshot().turns[0].usage, { total: 60, input: 20, output: 40, cachedRead: 5 });
  });
});

test('an answer without a usable quota reports no usage', () => {
  assert.equal(turnUsageOf({}), undefined);
  assert.equal(turnUsageOf({ _meta: { quota: { token_count: { totalTokens: 5 } } } }), undefined);
  assert.equal(turnUsageOf({ _meta: { quota: { token_count: { inputTokens: -1, outputTokens: 2 } } } }), undefined);
  assert.deepEqual(turnUsageOf({ _meta: { quota: { token_count: { inputTokens: 3, outputTokens: 4 } } } }), {
    total: 7,
    input: 3,
    output: 4,
  });
});
