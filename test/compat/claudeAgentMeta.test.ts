// Compatibility: the `_meta` channels of claude-agent-acp 0.101.0 beyond tool calls, against the
// fake Anthropic server through Tandem's real AgentClient. Tandem advertises
// `subagent-transcript`: a subagent's own message then arrives too, marked with its Agent call,
// and shows under that call with the subagent's Read, not in the agent's answer. The prompt's
// answer carries what the turn spent (`_meta.quota`), usage_update the context, and
// `_auth/status_update` who the agent works as (an API key from the environment here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ItemView } from '../../src/shared/sessionModel';
import { until } from '../support/until';
import { fakeAnthropic, type Lane } from './fakeModels';
import { AGENT_NODE, claudeAgentEnv, endedTurn, logTail, startedClient, workspace } from './agentHarness';
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
    const { c, logger, traffic } = await startedClient(
      'Claude Agent',
      AGENT_NODE,
      [CLAUDE_AGENT_ACP_101],
      claudeAgentEnv(model, home),
      ws,
    );
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
    } finally {
      await c.shutdown();
      await model.close();
    }
  },
);
