// Compatibility: Edit and resend's fork at a message with claude-agent-acp 0.101.0 (against the
// fake Anthropic server, through Tandem's real AgentClient). It names its replies (message ids on
// the chunks), and a session/fork with `_meta.jetbrains.air.fork {messageId}` keeps the
// conversation up to that reply only: the fork's next model request has the first turn and nothing
// of the later ones, while the source keeps every turn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { rewindCaps } from '../../src/client/connection/rewind';
import { editWay } from '../../src/session/rewind';
import { fakeAnthropic } from './fakeModels';
import { AGENT_NODE, startedClaudeAgent, logTail, workspace } from './agentHarness';
import { CLAUDE_AGENT_ACP_101 } from './agentPaths';

const skip =
  (!existsSync(CLAUDE_AGENT_ACP_101) && 'claude-agent-acp 0.101.0 not installed (run test/compat/run.mjs)') ||
  (!AGENT_NODE && 'claude-agent-acp needs Node ≥ 22: run through test/compat/run.mjs (TANDEM_AGENT_NODE)');

const texts = (request: unknown) => JSON.stringify((request as { messages?: unknown[] }).messages ?? []);

test(
  'claude-agent-acp 0.101.0: a fork at the reply before prompt 2 keeps turn 1 and drops turns 2 and 3',
  { skip, timeout: 180_000 },
  async () => {
    const { ws, home } = workspace();
    // (The fake answers by the number of replies in the request: the fork's one kept reply gets REPLY-TWO again.)
    const model = await fakeAnthropic([{ text: 'REPLY-ONE' }, { text: 'REPLY-TWO' }, { text: 'REPLY-THREE' }]);
    const { c, logger } = await startedClaudeAgent(model, home, ws);
    try {
      for (const p of ['Prompt alpha-1.', 'Prompt beta-2.', 'Prompt gamma-3.']) await c.prompt(p);
      const source = c.session!;
      assert.deepEqual(
        source.snapshot().turns.map((t) => t.error),
        [undefined, undefined, undefined],
        logTail(logger),
      );
      const way = editWay(rewindCaps(c.initializeResult), source.state, 1);
      assert.equal(way.kind, 'fork', `claude-agent-acp forks at messages: ${JSON.stringify(way)}`);
      const messageId = way.kind === 'fork' ? way.messageId : undefined;
      assert.match(messageId ?? '', /^msg_/, 'the reply of turn 1 is named by its API message id');

      const fork = await c.newSession(source.sessionId, undefined, { turn: 1, messageId });
      assert.deepEqual(
        fork.snapshot().turns.map((t) => !!t.rewound),
        [false, true, true],
      );
      const mark = model.requests.length;
      await c.prompt('Prompt omega-2.', fork.sessionId);
      assert.equal(fork.snapshot().turns[3].error, undefined, logTail(logger));
      const seen =
        model.requests
          .slice(mark)
          .map(texts)
          .find((t) => t.includes('omega-2')) ?? '';
      assert.ok(seen, 'the fork asked the model');
      assert.match(seen, /alpha-1/, 'turn 1 is kept');
      assert.match(seen, /REPLY-ONE/);
      for (const gone of ['beta-2', 'gamma-3', 'REPLY-TWO', 'REPLY-THREE'])
        assert.doesNotMatch(seen, new RegExp(gone), `${gone} was rewound`);
      assert.equal(source.snapshot().turns.length, 3, 'the source keeps every turn');
    } finally {
      await c.shutdown();
      await model.close();
    }
  },
);
