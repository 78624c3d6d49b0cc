// Compatibility: the `_meta` channels of claude-agent-acp 0.101.0 beyond tool calls, against the
// fake Anthropic server through Tandem's real AgentClient. Tandem advertises `subagents` (the
// draft RFD): a subagent runs as a child session, shown as an Agent row of the turn with its
// prompt, its Read and its own message under it, not in the agent's answer. The prompt's
// answer carries what the turn spent (`_meta.quota`), usage_update the context, and
// `_auth/status_update` who the agent works as (an API key from the environment here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ItemView } from '../../src/shared/sessionModel';
import { stoppableChild, type SubagentMeta } from '../../src/shared/subagentRow';
import { until } from '../support/until';
import { fakeAnthropic, type Lane } from './fakeModels';
import { AGENT_NODE, endedTurn, logTail, startedClaudeAgent, workspace } from './agentHarness';
import { CLAUDE_AGENT_ACP_101 } from './agentPaths';

const skip =
  (!existsSync(CLAUDE_AGENT_ACP_101) && 'claude-agent-acp 0.101.0 not installed (run test/compat/run.mjs)') ||
  (!AGENT_NODE && 'claude-agent-acp needs Node ≥ 22: run through test/compat/run.mjs (TANDEM_AGENT_NODE)');

const text = (i: ItemView) => ('blocks' in i ? i.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('') : '');

test(
  "claude-agent-acp 0.101.0: a subagent's message shows under its Agent call; usage and account reach the view",
  { skip, timeout: 180_000 },
  async () => {
    const { ws, home } = workspace();
    writeFileSync(join(ws, 'a.txt'), 'alpha\n');
    // The subagent is a conversation of its own with the model: its own script.
    const sub: Lane = {
      when: /Find the alpha file/,
      requests: [],
      script: [
        { tool: 'Read', input: { file_path: join(ws, 'a.txt') } },
        { text: 'SUBAGENT-REPORT: a.txt says alpha.' },
      ],
    };
    const model = await fakeAnthropic(
      [
        {
          tool: 'Agent',
          input: {
            description: 'Find alpha',
            prompt: 'Find the alpha file and report what it says',
            subagent_type: 'general-purpose',
          },
        },
        { text: 'MAIN-ANSWER: the subagent reported.' },
      ],
      [sub],
    );
    const { c, logger, traffic } = await startedClaudeAgent(model, home, ws);
    try {
      // Manual mode: the default "auto" mode asks a classifier model the fake does not serve, and
      // denies the Agent call; here the harness answers the permission requests.
      await c.setMode('default');
      await endedTurn(c, logger, 'Use a subagent');
      const session = c.session!;
      const items = () => session.snapshot().turns.flatMap((t) => t.items);
      const report = () => items().find((i) => i.kind === 'subagent' && /SUBAGENT-REPORT/.test(text(i)));
      await until(() => report() !== undefined, 30_000, "the subagent's report", 100).catch(() => undefined);
      const snap = session.snapshot();
      const agent = Object.values(snap.toolCalls).find((t) => t.name === 'Agent');
      assert.ok(
        agent,
        `the Agent call: ${JSON.stringify(Object.values(snap.toolCalls).map((t) => [t.name, t.title]))}`,
      );
      const found = report();
      assert.ok(
        found && found.kind === 'subagent',
        `the subagent's report, as a subagent item: ${JSON.stringify(items().map((i) => [i.kind, text(i).slice(0, 60)]))}\n${logTail(logger)}`,
      );
      assert.equal(found.parentId, agent.toolCallId, 'under the Agent call');
      // Tandem advertises clientCapabilities.subagents: the subagent runs as a child session, its
      // row made from the subagent_update (the Agent call itself is not sent), its prompt under it.
      assert.match(agent.toolCallId, /^subagent:/);
      assert.equal(agent.title, 'Find alpha');
      assert.equal(agent.status, 'completed');
      assert.ok(
        items().some((i) => i.kind === 'subagent' && i.role === 'user' && /Find the alpha file/.test(text(i))),
        "the subagent's prompt is under its row",
      );
      assert.ok(
        !items().some((i) => i.kind === 'agent' && /SUBAGENT-REPORT/.test(text(i))),
        "the subagent's report is not in the agent's answer",
      );
      assert.ok(
        items().some((i) => i.kind === 'agent' && /MAIN-ANSWER/.test(text(i))),
        "the agent's answer is",
      );
      const read = Object.values(snap.toolCalls).find((t) => t.kind === 'read');
      assert.equal(read?.parentId, agent.toolCallId, "the subagent's Read is under the Agent call too");

      // What the turn spent, from the answer's _meta.quota; the context from usage_update.
      const usage = snap.turns[0].usage;
      assert.ok(
        usage &&
          usage.total > 0 &&
          usage.total === usage.input + usage.output + (usage.cachedRead ?? 0) + (usage.cachedWrite ?? 0),
        JSON.stringify(usage),
      );
      const answer = traffic.find(
        (t) => t.dir === 'in' && (t.msg as { result?: { stopReason?: string } }).result?.stopReason !== undefined,
      );
      assert.ok(JSON.stringify(answer?.msg).includes('"quota"'), 'the answer carried _meta.quota');
      assert.ok(snap.meta.usage && snap.meta.usage.size > 0 && snap.meta.usage.used <= snap.meta.usage.size);

      // Who the agent works as: the API key of its environment.
      assert.deepEqual(c.agent.account, { kind: 'api_key', label: 'Anthropic API key', detail: 'ANTHROPIC_API_KEY' });

      // After a restart the session reopens with the subagent's row and what was under it: the
      // agent replays the child session too (its subagent-replay.js).
      await c.shutdown();
      const again = await startedClaudeAgent(model, home, ws);
      try {
        const replay = (await again.c.loadSession(snap.meta.sessionId)).snapshot();
        const calls = Object.values(replay.toolCalls);
        const row = calls.find((t) => t.name === 'Agent');
        assert.ok(row, `the row again: ${JSON.stringify(calls.map((t) => [t.toolCallId, t.title, t.parentId]))}`);
        assert.equal(row.title, 'Find alpha');
        assert.equal(calls.find((t) => t.kind === 'read')?.parentId, row.toolCallId, 'the Read under it again');
        const replayed = replay.turns.flatMap((t) => t.items);
        assert.ok(
          replayed.some(
            (i) => i.kind === 'subagent' && i.parentId === row.toolCallId && /SUBAGENT-REPORT/.test(text(i)),
          ),
          `the report under it again: ${JSON.stringify(replayed.map((i) => [i.kind, text(i).slice(0, 40)]))}`,
        );
      } finally {
        await again.c.shutdown();
      }
    } finally {
      await c.shutdown();
      await model.close();
    }
  },
);

test(
  "claude-agent-acp 0.101.0: Stop on a subagent's row ends the subagent's work; the agent's turn goes on",
  { skip, timeout: 180_000 },
  async () => {
    const { ws, home } = workspace();
    writeFileSync(join(ws, 'a.txt'), 'alpha\n');
    // The subagent's model holds its second answer back: it is still working when Stop comes.
    const sub: Lane = {
      when: /Dig slowly/,
      requests: [],
      script: [
        { tool: 'Read', input: { file_path: join(ws, 'a.txt') } },
        { text: 'SLOW-REPORT: never wanted.', delayMs: 60_000 },
      ],
    };
    const model = await fakeAnthropic(
      [
        { tool: 'Agent', input: { description: 'Dig', prompt: 'Dig slowly', subagent_type: 'general-purpose' } },
        { text: 'MAIN-ANSWER: went on without it.' },
      ],
      [sub],
    );
    const { c, logger, traffic } = await startedClaudeAgent(model, home, ws);
    try {
      await c.setMode('default');
      const turn = c.prompt('Use a slow subagent');
      const row = () => Object.values(c.session!.snapshot().toolCalls).find((t) => t.name === 'Agent');
      // Working, and the agent lets Tandem stop it: the Read came back and the model holds the rest.
      await until(
        () => sub.requests.length >= 2 && stoppableChild(row()) !== undefined,
        60_000,
        'the subagent at work',
        100,
      ).catch(() => assert.fail(`${JSON.stringify(row())}\n${logTail(logger)}`));
      const child = stoppableChild(row())!;
      assert.equal(c.stopSubagent(row()!.toolCallId), true);
      const cancel = traffic.find((t) => t.dir === 'out' && (t.msg as { method?: string }).method === 'session/cancel');
      assert.deepEqual((cancel?.msg as { params?: unknown }).params, { sessionId: child }, 'the child only');
      await turn;
      const snap = c.session!.snapshot();
      assert.equal(snap.turns[0].stopReason, 'end_turn', "the agent's turn was not cancelled");
      const stopped = row()!;
      assert.equal(stopped.status, 'completed', JSON.stringify(stopped.meta));
      assert.equal(stopped.interrupted, true, 'shown as interrupted, not done');
      assert.equal(stoppableChild(stopped), undefined, 'nothing left to stop');
      assert.deepEqual((stopped.meta?.tandem as { subagent: SubagentMeta }).subagent.state, {
        state: 'idle',
        stopReason: 'cancelled',
      });
      assert.ok(!JSON.stringify(snap.turns).includes('SLOW-REPORT'), "the subagent's held answer never came");
    } finally {
      await c.shutdown();
      await model.close();
    }
  },
);
