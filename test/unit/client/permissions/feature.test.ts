// The permissions feature on a real connection to the scripted agent: the wire answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentClient } from '../../../../src/client/connection/agentClient';
import { PermissionBroker } from '../../../../src/client/permissions/broker';
import { PermissionsFeature } from '../../../../src/client/permissions/feature';
import { memoryMemento, RememberedDecisions } from '../../../../src/client/permissions/remembered';
import { MemoryLogger } from '../../../../src/common/logger';
import type { AgentScript, Step } from '../../../../src/demo/scriptTypes';
import { until } from '../../../support/until';

const AGENT = join(__dirname, '../../../fixtures/agents/scripted-agent.js');
const dir = mkdtempSync(join(tmpdir(), 'tandem-perm-'));
let n = 0;

const OPTIONS = [
  { optionId: 'allow_always', name: 'Always Allow', kind: 'allow_always' },
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];
const ask = (id: string, command: string, as: string): Step[] => [
  {
    update: {
      sessionUpdate: 'tool_call',
      toolCallId: id,
      title: command,
      kind: 'execute',
      status: 'pending',
      rawInput: { command },
    },
  } as Step,
  {
    request: 'session/request_permission',
    params: {
      sessionId: '${sessionId}',
      toolCall: { toolCallId: id, title: command, rawInput: { command } },
      options: OPTIONS,
    },
    as,
    wait: false,
  } as Step,
];

function setup(script: AgentScript) {
  const file = join(dir, `script-${n++}.json`);
  writeFileSync(file, JSON.stringify(script));
  const logger = new MemoryLogger();
  const broker = new PermissionBroker({
    rules: () => ({ user: [], workspace: [] }),
    roots: () => [dir],
    remembered: new RememberedDecisions(memoryMemento()),
    logger,
  });
  const out: Array<{ id?: unknown; result?: unknown }> = [];
  const c = new AgentClient({
    agent: { name: 'Scripted', command: process.execPath, args: [AGENT, file] },
    cwd: dir,
    logger,
    clientInfo: { name: 't', version: '0' },
    features: [new PermissionsFeature(broker)],
    traffic: (d, m) => {
      if (d === 'out') out.push(m as never);
    },
  });
  return { c, broker, out, logger };
}

test('session/cancel answers every pending prompt {outcome: cancelled} at once, on the wire', async () => {
  const t = setup({ prompts: [{ steps: [...ask('t1', 'ls', 'a'), ...ask('t2', 'pwd', 'b'), { hang: true }] }] });
  await t.c.start();
  const turn = t.c.prompt('go');
  await until(() => t.c.session!.state.permissions.length === 2);
  t.c.cancel();
  await turn;
  await until(() => t.out.filter((m) => JSON.stringify(m.result ?? null).includes('cancelled')).length >= 2);
  const answers = t.out.filter((m) => m.result && typeof m.result === 'object' && 'outcome' in (m.result as object));
  assert.deepEqual(
    answers.map((m) => m.result),
    [{ outcome: { outcome: 'cancelled' } }, { outcome: { outcome: 'cancelled' } }],
  );
  const s = t.c.session!.state;
  assert.equal(s.permissions.length, 0);
  assert.equal(s.toolCalls.get('t1')!.permission?.by, 'cancelled');
  assert.equal(s.toolCalls.get('t2')!.permission?.by, 'cancelled');
  await t.c.shutdown();
});

test('an answer travels as {outcome: {outcome: selected, optionId}}; agent exit cancels what is pending', async () => {
  const t = setup({
    prompts: [
      { steps: [...ask('t1', 'ls', 'a'), { await: 'a' }, ...ask('t2', 'pwd', 'b'), { sleep: 300 }, { crash: 1 }] },
    ],
  });
  await t.c.start();
  const turn = t.c.prompt('go');
  await until(() => t.broker.pending().length === 1);
  assert.equal(t.broker.answer(t.broker.pending()[0].requestId, 'allow'), true);
  await until(() => t.broker.pending().length === 1 && t.broker.pending()[0].view.toolCallId === 't2');
  const selected = t.out.find((m) => JSON.stringify(m.result ?? null).includes('selected'));
  assert.deepEqual(selected?.result, { outcome: { outcome: 'selected', optionId: 'allow' } });
  await turn;
  await until(() => t.broker.pending().length === 0);
  assert.equal(t.c.session!.state.toolCalls.get('t2')!.permission?.by, 'cancelled');
  await t.c.shutdown();
});

test('closing a session resolves its prompts as cancelled; a second session leaves them alone', async () => {
  const t = setup({ prompts: [{ steps: [...ask('t1', 'ls', 'a'), { hang: true }] }] });
  await t.c.start();
  const first = t.c.session!.sessionId;
  void t.c.prompt('go');
  await until(() => t.broker.pending().length === 1);
  await t.c.newSession();
  assert.equal(t.broker.pending().length, 1, 'sessions run side by side');
  await t.c.closeSession(first);
  assert.equal(t.broker.pending().length, 0);
  await t.c.shutdown();
});
