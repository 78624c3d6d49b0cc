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
