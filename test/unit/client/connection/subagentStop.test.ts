import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentClient } from '../../../../src/client/connection/agentClient';
import { MemoryLogger } from '../../../../src/common/logger';
import type { AgentScript } from '../../../../src/demo/scriptTypes';
import { until } from '../../../support/until';

const AGENT = join(__dirname, '../../../fixtures/agents/scripted-agent.js');

test("a subagent row's Stop sends session/cancel for the child only, and only while the agent allows it", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-substop-'));
  const announce = (state: object) => ({
    update: {
      sessionUpdate: 'subagent_update',
      sessionId: 'child-1',
      title: 'Digger',
      capabilities: { cancel: {} },
      state,
    } as never,
  });
  const script: AgentScript = {
    prompts: [
      {
        steps: [
          announce({ state: 'running' }),
          {
            sessionId: 'child-1',
            update: {
              sessionUpdate: 'tool_call',
              toolCallId: 'c1',
              title: 'dig',
              kind: 'execute',
              status: 'in_progress',
            },
          },
          { sleep: 1500 },
          announce({ state: 'idle', stopReason: 'cancelled' }),
          { stream: 'Root done.' },
        ],
      },
    ],
  };
  const file = join(dir, 'script.json');
  writeFileSync(file, JSON.stringify(script));
  const out: unknown[] = [];
  const c = new AgentClient({
    agent: { name: 'Scripted', command: process.execPath, args: [AGENT, file] },
    cwd: dir,
    logger: new MemoryLogger(),
    clientInfo: { name: 'tandem-test', version: '0' },
    traffic: (dir, m) => dir === 'out' && out.push(m),
  });
  try {
    await c.start();
    const init = out.find((m) => (m as { method?: string }).method === 'initialize') as {
      params: { clientCapabilities: { subagents?: object } };
    };
    assert.deepEqual(init.params.clientCapabilities.subagents, {}, 'subagents is advertised');
    const turn = c.prompt('go');
    const row = 'subagent:child-1';
    await until(() => c.session?.state.toolCalls.get('child-1/c1') !== undefined, 10_000, "the child's call");
    assert.equal(c.session!.state.toolCalls.get(row)?.status, 'in_progress');
    assert.equal(c.stopSubagent('child-1/c1'), false, 'a call of the child is not its row');
    assert.equal(c.stopSubagent(row), true);
    const cancels = () => out.filter((m) => (m as { method?: string }).method === 'session/cancel');
    await until(() => cancels().length > 0, 5000, 'session/cancel');
    assert.deepEqual(
      cancels().map((m) => (m as { params: unknown }).params),
      [{ sessionId: 'child-1' }],
    );
    await turn;
    const snap = c.session!.snapshot();
    assert.equal(snap.turns[0].stopReason, 'end_turn', "the root session's turn went on");
    assert.equal(snap.toolCalls[row].status, 'completed');
    assert.equal(c.stopSubagent(row), false, 'an idle child has nothing to stop');
  } finally {
    await c.shutdown();
  }
});
