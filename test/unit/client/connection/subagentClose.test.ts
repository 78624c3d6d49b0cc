import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentClient } from '../../../../src/client/connection/agentClient';
import { MemoryLogger } from '../../../../src/common/logger';
import type { AgentScript, Step } from '../../../../src/demo/scriptTypes';

const AGENT = join(__dirname, '../../../fixtures/agents/scripted-agent.js');

// Child ids are the agent's to choose; one reused after its session was closed must not be taken
// for the old session's child (its messages would go to a session that is gone).
test('closing a session forgets its subagents: a child id announced again in another session shows there', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-subclose-'));
  const child = (text: string): Step[] => [
    { update: { sessionUpdate: 'subagent_update', sessionId: 'kid', title: 'Digger' } as never },
    {
      sessionId: 'kid',
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } as never,
    },
  ];
  const script: AgentScript = {
    prompts: [
      { match: 'one', steps: [...child('first dig'), { stream: 'one done' }] },
      { match: 'two', steps: [...child('second dig'), { stream: 'two done' }] },
    ],
  };
  const file = join(dir, 'script.json');
  writeFileSync(file, JSON.stringify(script));
  const c = new AgentClient({
    agent: { name: 'Scripted', command: process.execPath, args: [AGENT, file] },
    cwd: dir,
    logger: new MemoryLogger(),
    clientInfo: { name: 'tandem-test', version: '0' },
  });
  const rowText = (sessionId: string) => JSON.stringify(c.getSession(sessionId)?.snapshot().turns ?? []);
  try {
    await c.start();
    const first = c.session!.sessionId;
    await c.prompt('one');
    assert.ok(c.session!.state.toolCalls.get('subagent:kid'), "the child's row in the first session");
    const second = (await c.newSession()).sessionId;
    assert.notEqual(second, first);
    await c.closeSession(first);
    await c.prompt('two', second);
    assert.ok(c.getSession(second)!.state.toolCalls.get('subagent:kid'), "the child's row in the second session");
    assert.match(rowText(second), /second dig/);
  } finally {
    await c.shutdown();
  }
});
