// Compatibility: forking a session of claude-agent-acp 0.101.0 (against the fake Anthropic server,
// through Tandem's real AgentClient). Its initialize advertises sessionCapabilities.fork; the fork
// replays nothing (Tandem shows its own copy of the earlier turns), and a prompt in the fork reaches
// the model with the earlier conversation, while the source session goes on without the fork's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { forkSupported } from '../../src/client/connection/fork';
import { fakeAnthropic } from './fakeModels';
import { AGENT_NODE, startedClaudeAgent, logTail, workspace } from './agentHarness';
import { CLAUDE_AGENT_ACP_101 } from './agentPaths';

const skip =
  (!existsSync(CLAUDE_AGENT_ACP_101) && 'claude-agent-acp 0.101.0 not installed (run test/compat/run.mjs)') ||
  (!AGENT_NODE && 'claude-agent-acp needs Node ≥ 22: run through test/compat/run.mjs (TANDEM_AGENT_NODE)');

/** The user and assistant text of a Messages API request, in order. */
function texts(request: unknown): string {
  return JSON.stringify((request as { messages?: unknown[] }).messages ?? []);
}

test('claude-agent-acp 0.101.0: a fork continues the same conversation', { skip, timeout: 180_000 }, async () => {
  const { ws, home } = workspace();
  const model = await fakeAnthropic([{ text: 'Noted: the word is MANGO.' }, { text: 'It was MANGO.' }]);
  const { c, logger, traffic } = await startedClaudeAgent(model, home, ws);
  try {
    assert.equal(forkSupported(c.agentCapabilities), true, JSON.stringify(c.agentCapabilities?.sessionCapabilities));
    await c.prompt('Remember the word MANGO.');
    const source = c.session!;
    assert.equal(source.snapshot().turns[0].error, undefined, logTail(logger));

    const fork = await c.newSession(source.sessionId);
    assert.notEqual(fork.sessionId, source.sessionId);
    assert.equal(c.session, fork, 'the fork is the active session');
    // What it sent for the fork before answering: no replay of the conversation.
    const replayed = traffic.filter(
      (t) =>
        t.dir === 'in' &&
        t.msg.method === 'session/update' &&
        (t.msg.params as { sessionId?: string }).sessionId === fork.sessionId &&
        /_message_chunk/.test(JSON.stringify(t.msg.params)),
    );
    assert.deepEqual(replayed, [], 'claude-agent-acp replays nothing into a fork');
    assert.equal(fork.snapshot().turns.length, 1, "the fork shows Tandem's copy of the earlier turn");

    const before = model.requests.length;
    await c.prompt('What was the word?');
    const forkTurns = fork.snapshot().turns;
    assert.equal(forkTurns.length, 2);
    assert.equal(forkTurns[1].error, undefined, logTail(logger));
    assert.match(JSON.stringify(forkTurns[1].items), /It was MANGO\./);
    // (After a turn claude-agent-acp may ask the model for a prompt suggestion: pick the turn's own request.)
    const asked = model.requests.slice(before).map(texts);
    const seen = asked.find((t) => t.includes('What was the word?')) ?? '';
    assert.ok(seen, `the fork asked the model:\n${asked.join('\n')}`);
    assert.match(seen, /Remember the word MANGO\./, 'the earlier prompt is in the fork’s request');
    assert.match(seen, /Noted: the word is MANGO\./, 'and the earlier reply');
    assert.match(seen, /What was the word\?/);

    // The source goes on without the fork's turn.
    c.switchTo(source.sessionId);
    const mark = model.requests.length;
    await c.prompt('Anything else?', source.sessionId);
    const sourceSeen =
      model.requests
        .slice(mark)
        .map(texts)
        .find((t) => t.includes('Anything else?')) ?? '';
    assert.ok(sourceSeen, 'the source asked the model');
    assert.match(sourceSeen, /Remember the word MANGO\./);
    assert.doesNotMatch(sourceSeen, /What was the word\?/, 'the fork’s prompt is not in the source');
    assert.equal(source.snapshot().turns.length, 2);
    const sent = traffic.filter((t) => t.dir === 'out').map((t) => t.msg.method);
    assert.equal(sent.filter((m) => m === 'session/fork').length, 1);
  } finally {
    await c.shutdown();
    await model.close();
  }
});
