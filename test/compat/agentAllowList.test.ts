// claude-code-acp's own allow-list: with an allow rule in the workspace's
// .claude/settings.local.json (what its "Always Allow" writes), it runs a matching command
// without any session/request_permission. Tandem cannot stop that, but marks the call and tells
// the user once, naming the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CLAUDE_SETTINGS_FILES,
  hasAllowRules,
  tandemWouldAllow,
  type AgentAllowListPort,
} from '../../src/client/permissions/agentAllowed';
import { PermissionsFeature } from '../../src/client/permissions/feature';
import { memoryMemento, RememberedDecisions } from '../../src/client/permissions/remembered';
import type { ToolCallView } from '../../src/shared/sessionModel';
import { fakeAnthropic } from './fakeModels';
import { userPermissions } from './userPermissions';
import { claudeCodeEnv } from './agentPaths';
import { CLAUDE_CODE_ACP, client, endedTurn, logTail, methods, workspace } from './agentHarness';
import { until } from '../support/until';

test(
  'claude-code-acp 0.16.2: a command its own settings allow runs without asking, and Tandem marks it and says so once',
  {
    skip: !existsSync(CLAUDE_CODE_ACP) && 'claude-code-acp not installed (run test/compat/run.mjs)',
    timeout: 120_000,
  },
  async () => {
    const { ws, home } = workspace();
    mkdirSync(join(ws, '.claude'));
    writeFileSync(
      join(ws, '.claude', 'settings.local.json'),
      JSON.stringify({ permissions: { allow: ['Bash(echo:*)'] } }),
    );
    const model = await fakeAnthropic([
      { tool: 'mcp__acp__Bash', input: { command: 'echo unasked', timeout: 30000, description: 'Say it' } },
      { text: 'Done.' },
    ]);
    const told: Array<{ call: ToolCallView; file: string | undefined }> = [];
    const port: AgentAllowListPort = {
      allowListFile: async (cwd) =>
        CLAUDE_SETTINGS_FILES.find(
          (f) => existsSync(join(cwd, f)) && hasAllowRules(readFileSync(join(cwd, f), 'utf8')),
        ),
      notify: (_agent, _session, call, file) => told.push({ call, file }),
    };
    const remembered = new RememberedDecisions(memoryMemento());
    const { c, logger, traffic } = client(
      'Claude Code',
      process.execPath,
      [CLAUDE_CODE_ACP],
      claudeCodeEnv(model, home),
      ws,
      (l) => {
        const perms = userPermissions(ws, l, () => 'reject_once');
        const watch = {
          wouldAllow: (facts: Parameters<typeof tandemWouldAllow>[0], agent: string) =>
            tandemWouldAllow(facts, agent, { rules: { user: [], workspace: [] }, remembered, roots: [ws] }),
          port,
        };
        return { broker: perms.broker, feature: new PermissionsFeature(perms.broker, watch) };
      },
    );
    try {
      await c.start();
      assert.equal(c.agent.state, 'ready', `${c.agent.message}\n${logTail(logger)}`);
      await endedTurn(c, logger, 'Say unasked');
      assert.ok(!methods(traffic).includes('session/request_permission'), 'the agent did not ask');
      assert.ok(methods(traffic).includes('terminal/create'), 'the command ran');
      await until(() => told.length > 0, 10_000, 'the message');
      const calls = Object.values(c.session!.snapshot().toolCalls);
      assert.equal(calls.length, 1);
      assert.equal(calls[0].permission?.by, 'agent');
      assert.equal(calls[0].permission?.rule, '.claude/settings.local.json');
      assert.deepEqual(
        told.map((t) => t.file),
        ['.claude/settings.local.json'],
      );
    } finally {
      await c.shutdown();
      await model.close();
    }
  },
);

test(
  'claude-code-acp 0.16.2: Tandem\'s "Always Allow" for one node command writes no agent-side rule, and another node command is asked again',
  {
    skip: !existsSync(CLAUDE_CODE_ACP) && 'claude-code-acp not installed (run test/compat/run.mjs)',
    timeout: 120_000,
  },
  async () => {
    const { ws, home } = workspace();
    const one = `node -e "console.log('one')"`;
    const model = await fakeAnthropic([
      { tool: 'mcp__acp__Bash', input: { command: one, timeout: 30000, description: 'One' } },
      { text: 'Ran one.' },
      { tool: 'mcp__acp__Bash', input: { command: one, timeout: 30000, description: 'One again' } },
      { text: 'Ran one again.' },
      {
        tool: 'mcp__acp__Bash',
        input: { command: `node -e "console.log('two')"`, timeout: 30000, description: 'Two' },
      },
      { text: 'Asked about two.' },
    ]);
    let perms!: ReturnType<typeof userPermissions>;
    const answers = ['allow_always', 'reject_once'];
    const { c, logger } = client(
      'Claude Code',
      process.execPath,
      [CLAUDE_CODE_ACP],
      claudeCodeEnv(model, home),
      ws,
      (l) => (perms = userPermissions(ws, l, () => answers.shift()!)),
    );
    try {
      await c.start();
      assert.equal(c.agent.state, 'ready', `${c.agent.message}\n${logTail(logger)}`);
      await endedTurn(c, logger, 'Run one');
      // claude-code-acp would write "mcp__acp__Bash" (every command) here had it heard "always".
      assert.ok(!existsSync(join(ws, '.claude', 'settings.local.json')), 'the agent kept no rule of its own');
      await endedTurn(c, logger, 'Run one again');
      assert.equal(perms.asked.length, 1, 'the same line: the agent asked, Tandem answered from memory (not shown)');
      const calls = Object.values(c.session!.snapshot().toolCalls);
      assert.deepEqual(
        calls.map((x) => x.permission?.by).sort(),
        ['remembered', 'user'],
        JSON.stringify(calls.map((x) => x.permission)),
      );
      await endedTurn(c, logger, 'Run two');
      assert.deepEqual(
        perms.asked.map((a) => a.kind),
        ['allow_always', 'reject_once'],
        'the other node command was shown to the user',
      );
    } finally {
      await c.shutdown();
      await model.close();
    }
  },
);
