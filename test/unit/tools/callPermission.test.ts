// A client tool call and its permission prompts: the timeout measures VS Code's time, never the
// user's; a call that ends early withdraws the prompts it still has open.
import type { PermissionPort } from '../../../src/client/permissions/permissionPort';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestPermissionOutcome } from '@agentclientprotocol/sdk';
import { invokeTool, type InvokeEnv, type PermissionDecision } from '../../../src/tools/invoke';
import { ToolRegistry } from '../../../src/tools/registry';
import { ToolState } from '../../../src/tools/toolState';
import { DEFAULT_TOOLS_CONFIG, type Tool, type ToolResult } from '../../../src/tools/types';
import { until } from '../../support/until';
import { settleMicrotasks } from '../../support/mockTimers';
import { tool } from './fixtures';

/** Timeout of these calls: far shorter than the user takes to answer. */
const TIMEOUT_MS = 40;

function setup(tools: Tool[], extra: Partial<InvokeEnv> = {}) {
  const registry = new ToolRegistry();
  registry.register({ name: 'G', startCollapsed: false, tools });
  const config = { ...DEFAULT_TOOLS_CONFIG, timeoutMs: TIMEOUT_MS };
  const env: InvokeEnv = { state: new ToolState(registry, () => config), config, sessionId: 's1', ...extra };
  return env;
}
const text = (r: ToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : JSON.stringify(c))).join('\n');

/** A prompt the test answers; a withdrawn one (its signal aborted) resolves as cancelled, as the broker's does. */
function prompts() {
  const open: Array<{ signal?: AbortSignal; answer(d: PermissionDecision): void }> = [];
  const ask = (signal?: AbortSignal) =>
    new Promise<PermissionDecision>((resolve) => {
      open.push({ signal, answer: resolve });
      signal?.addEventListener('abort', () => resolve('cancelled'), { once: true });
    });
  return { open, ask };
}

test('the timeout starts after the permission answer: an Allow given after the timeout still runs the tool', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  const p = prompts();
  let ran = 0;
  const env = setup([tool('Wipe', () => `wiped ${++ran}`, { requiresPermission: true })], {
    requestPermission: (c) => p.ask(c.signal),
  });
  const call = invokeTool('Wipe', {}, env);
  await until(() => p.open.length === 1, 2000, 'the prompt');
  // The user takes longer than the whole timeout to answer.
  t.mock.timers.tick(TIMEOUT_MS * 3);
  await settleMicrotasks(); // a turn for a timeout to land
  assert.notEqual(p.open[0].signal?.aborted, true, 'the prompt is still up');
  p.open[0].answer('allow');
  const r = await call;
  assert.equal(text(r), 'wiped 1');
  assert.equal(r.isError, undefined);
});

test('the time after the answer still counts: a handler slower than the timeout times out', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  let started = false;
  const env = setup(
    [
      tool(
        'Slow',
        () => {
          started = true;
          return new Promise<string>(() => undefined); // never answers
        },
        { requiresPermission: true },
      ),
    ],
    { requestPermission: async () => 'allow' },
  );
  const call = invokeTool('Slow', {}, env);
  await until(() => started, 2000, 'the handler runs after the answer');
  t.mock.timers.tick(TIMEOUT_MS);
  assert.match(text(await call), /^Tool Slow timed out after 0\.04 s/);
});

test('a call whose session goes away while its prompt waits withdraws the prompt and gets the fallback', async () => {
  const p = prompts();
  let disconnect!: () => void;
  let ran = false;
  const env = setup(
    [
      tool(
        'Wipe',
        () => {
          ran = true;
          return 'wiped';
        },
        { requiresPermission: true },
      ),
    ],
    {
      requestPermission: (c) => p.ask(c.signal),
      disconnected: new Promise<void>((r) => (disconnect = r)),
    },
  );
  const call = invokeTool('Wipe', {}, env);
  await until(() => p.open.length === 1, 2000, 'the prompt');
  disconnect();
  assert.equal(text(await call), "Client disconnected. Tool 'Wipe' unavailable.");
  assert.equal(p.open[0].signal?.aborted, true, 'the prompt was withdrawn');
  assert.equal(ran, false);
});

test('a call the agent cancels while its prompt waits ends at once and withdraws the prompt', async () => {
  const p = prompts();
  const cancel = new AbortController();
  let ran = false;
  const env = setup(
    [
      tool(
        'Wipe',
        () => {
          ran = true;
          return 'wiped';
        },
        { requiresPermission: true },
      ),
    ],
    { requestPermission: (c) => p.ask(c.signal), signal: cancel.signal },
  );
  const call = invokeTool('Wipe', {}, env);
  await until(() => p.open.length === 1, 2000, 'the prompt');
  cancel.abort();
  const r = await call;
  assert.equal(text(r), 'The call to Wipe was cancelled by the agent.');
  assert.equal(r.isError, true);
  assert.equal(p.open[0].signal?.aborted, true, 'the prompt was withdrawn');
  assert.equal(ran, false);
});

/** A port for the questions handlers ask: records each, answered by the test or withdrawn. */
function questionPort() {
  const open: Array<{ sessionId: string; signal?: AbortSignal; answer(o: RequestPermissionOutcome): void }> = [];
  const port: PermissionPort = {
    request: (sessionId, _call, _options, signal) =>
      new Promise((resolve) => {
        open.push({ sessionId, signal, answer: resolve });
        signal?.addEventListener('abort', () => resolve({ outcome: 'cancelled' }), { once: true });
      }),
  };
  return { open, port };
}

const asking = tool('Peek', async (_a, ctx) => {
  if (!ctx.permission) return 'nobody to ask';
  const o = await ctx.permission.request('other-session', { toolCallId: 'q1', title: 'Read /etc/x' }, []);
  return o.outcome === 'selected' ? `answered ${o.optionId}` : 'cancelled';
});

test("a handler's question waits for the user without the timeout running, in the call's own session", async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  const q = questionPort();
  const env = setup([asking], { permission: q.port });
  const call = invokeTool('Peek', {}, env);
  await until(() => q.open.length === 1, 2000, 'the question');
  t.mock.timers.tick(TIMEOUT_MS * 3);
  await settleMicrotasks(); // a turn for a timeout to land
  q.open[0].answer({ outcome: 'selected', optionId: 'allow_once' });
  assert.equal(text(await call), 'answered allow_once');
  assert.equal(q.open[0].sessionId, 's1', 'asked in the session of the call, whatever the handler said');
});

test("a call the agent cancels withdraws its handler's open question", async () => {
  const q = questionPort();
  const cancel = new AbortController();
  const env = setup([asking], { permission: q.port, signal: cancel.signal });
  const call = invokeTool('Peek', {}, env);
  await until(() => q.open.length === 1, 2000, 'the question');
  cancel.abort();
  assert.equal(text(await call), 'The call to Peek was cancelled by the agent.');
  assert.equal(q.open[0].signal?.aborted, true);
});

test('without a session a handler has nobody to ask', async () => {
  const q = questionPort();
  const env = setup([asking], { permission: q.port, sessionId: undefined });
  assert.equal(text(await invokeTool('Peek', {}, env)), 'nobody to ask');
  assert.equal(q.open.length, 0);
});
