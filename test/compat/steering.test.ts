// Compatibility: steering a running turn of claude-agent-acp 0.101.0 (against the fake Anthropic
// server, through Tandem's real AgentClient). Its initialize advertises `_meta.steering.supported`;
// `_session/steering` while a command runs answers `injected`, and the steered text reaches the
// model within the same turn (no second session/prompt).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { steeringSupported } from '../../src/client/connection/steering';
import { until } from '../support/until';
import { fakeAnthropic } from './fakeModels';
import { AGENT_NODE, startedClaudeAgent, logTail, workspace } from './agentHarness';
import { CLAUDE_AGENT_ACP_101 } from './agentPaths';

const skip =
  (!existsSync(CLAUDE_AGENT_ACP_101) && 'claude-agent-acp 0.101.0 not installed (run test/compat/run.mjs)') ||
  (!AGENT_NODE && 'claude-agent-acp needs Node ≥ 22: run through test/compat/run.mjs (TANDEM_AGENT_NODE)');

test('claude-agent-acp 0.101.0: steering adds a prompt to the running turn', { skip, timeout: 120_000 }, async () => {
  const { ws, home } = workspace();
  const model = await fakeAnthropic([
    { tool: 'Bash', input: { command: 'sleep 4; echo slept', timeout: 30000, description: 'Wait a bit' } },
    { text: 'Done, and bananas noted.' },
    { text: 'Still done.' },
  ]);
  const { c, logger, traffic } = await startedClaudeAgent(model, home, ws);
  try {
    assert.equal(steeringSupported(c.initializeResult), true, JSON.stringify(c.initializeResult?._meta));
    const turn = c.prompt('Run the command');
    const session = c.session!;
    await until(
      () => Object.values(session.snapshot().toolCalls).some((t) => t.kind === 'execute'),
      60_000,
      'the command starts',
    );
    const outcome = await c.steer(session.sessionId, [{ type: 'text', text: 'Also mention bananas.' }]);
    assert.equal(outcome, 'injected');
    await turn;
    const snap = session.snapshot();
    assert.equal(snap.turns.length, 1, 'one turn');
    assert.equal(snap.turns[0].error, undefined, `${snap.turns[0].error}\n${logTail(logger)}`);
    assert.ok(
      model.requests.some((r) => JSON.stringify(r).includes('Also mention bananas.')),
      'the steered text reached the model',
    );
    const sent = traffic.filter((t) => t.dir === 'out').map((t) => t.msg.method);
    assert.equal(sent.filter((m) => m === 'session/prompt').length, 1, 'no second session/prompt');
    assert.equal(sent.filter((m) => m === '_session/steering').length, 1);
    // It does not echo the steered prompt: Tandem shows it in the turn itself (queuedPrompts.ts).
    const echoed = traffic.some(
      (t) =>
        t.dir === 'in' &&
        JSON.stringify(t.msg).includes('user_message_chunk') &&
        JSON.stringify(t.msg).includes('bananas'),
    );
    assert.equal(echoed, false);
  } finally {
    await c.shutdown();
    await model.close();
  }
});
