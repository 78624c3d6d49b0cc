// Compatibility: real agents from npm (installed by test/compat/run.mjs into a cache dir
// outside the repo) against fake model servers on 127.0.0.1, driven through Tandem's real
// AgentClient with the real fs and terminal features (node-backed ports: no VS Code here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientCapabilities } from '@agentclientprotocol/sdk';
import type { Patch } from '../../src/shared/sessionModel';
import { fakeAnthropic, fakeGemini, type Step } from './fakeModels';
import { userPermissions } from './userPermissions';
import { CLAUDE_CODE_ACP, GEMINI_CLI, client, logTail, methods, workspace } from './agentHarness';

test(
  'claude-code-acp 0.16.2: read, edit, write a new file, run a command with live output',
  {
    skip: !existsSync(CLAUDE_CODE_ACP) && 'claude-code-acp not installed (run test/compat/run.mjs)',
    timeout: 120_000,
  },
  async () => {
    const { ws, home } = workspace();
    writeFileSync(join(ws, 'hello.txt'), 'hello world\nsecond line\n');
    const script: Step[] = [
      { tool: 'mcp__acp__Read', input: { file_path: join(ws, 'hello.txt') } },
      {
        tool: 'mcp__acp__Edit',
        input: { file_path: join(ws, 'hello.txt'), old_string: 'hello world', new_string: 'hello ACP' },
      },
      { tool: 'mcp__acp__Write', input: { file_path: join(ws, 'sub', 'new-file.txt'), content: 'brand new\n' } },
      {
        tool: 'mcp__acp__Bash',
        input: { command: 'echo live-1; sleep 1.5; echo live-2', timeout: 30000, description: 'Print two lines' },
      },
      { text: 'All done.' },
    ];
    const model = await fakeAnthropic(script);
    const { c, logger, tracker, traffic } = client(
      'Claude Code',
      process.execPath,
      [CLAUDE_CODE_ACP],
      {
        ANTHROPIC_BASE_URL: model.url,
        ANTHROPIC_API_KEY: 'dummy',
        HOME: home,
        IS_SANDBOX: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      },
      ws,
    );
    try {
      await c.start();
      assert.equal(c.agent.state, 'ready', `${c.agent.message}\n${logTail(logger)}`);
      // Live output: the first line must reach the store while the command still runs.
      const seen: { liveBeforeExit?: boolean } = {};
      c.onDidChangeSession(({ patches }: { patches: Patch[] }) => {
        for (const p of patches) {
          if (p.op === 'terminalOutput' && p.data.includes('live-1') && seen.liveBeforeExit === undefined) {
            const t = c.session!.state.terminals.get(p.terminalId);
            seen.liveBeforeExit = !t?.exited;
          }
        }
      });
      await c.prompt('Do the thing');
      const snap = c.session!.snapshot();
      const turn = snap.turns[0];
      assert.equal(turn.error, undefined, `turn failed: ${turn.error}\n${logTail(logger)}`);
      assert.equal(turn.stopReason, 'end_turn');
      const m = methods(traffic);
      assert.ok(m.includes('fs/read_text_file'), `fs/read_text_file used (saw ${[...new Set(m)].join(', ')})`);
      assert.ok(m.includes('fs/write_text_file'));
      assert.ok(m.includes('terminal/create'));
      // The Read result went back to the model.
      assert.match(JSON.stringify(model.requests[1]), /hello world/);
      assert.equal(readFileSync(join(ws, 'hello.txt'), 'utf8'), 'hello ACP\nsecond line\n');
      assert.equal(readFileSync(join(ws, 'sub', 'new-file.txt'), 'utf8'), 'brand new\n');
      const terms = Object.values(snap.terminals);
      assert.equal(terms.length, 1);
      assert.match(terms[0].output, /live-1\nlive-2\n/);
      assert.equal(terms[0].exitCode, 0);
      assert.equal(seen.liveBeforeExit, true, 'live-1 reached the view before the command ended');
      assert.match(JSON.stringify(model.requests[4]), /live-2/, 'the command output went back to the model');
      const changes = tracker.changes(snap.meta.sessionId, 0);
      assert.deepEqual(changes.map((x) => x.path).sort(), [join(ws, 'hello.txt'), join(ws, 'sub', 'new-file.txt')]);
      assert.equal(
        Buffer.from(changes.find((x) => x.path.endsWith('hello.txt'))!.before!).toString(),
        'hello world\nsecond line\n',
      );
      assert.equal(changes.find((x) => x.path.endsWith('new-file.txt'))!.before, null);
    } finally {
      await c.shutdown();
      await model.close();
    }
  },
);

const claudeEnv = (model: { url: string }, home: string) => ({
  ANTHROPIC_BASE_URL: model.url,
  ANTHROPIC_API_KEY: 'dummy',
  HOME: home,
  IS_SANDBOX: '1',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_AUTOUPDATER: '1',
});

test(
  'claude-code-acp 0.16.2 + Tandem permissions: a rejected edit leaves the file untouched and the tool call failed',
  {
    skip: !existsSync(CLAUDE_CODE_ACP) && 'claude-code-acp not installed (run test/compat/run.mjs)',
    timeout: 120_000,
  },
  async () => {
    const { ws, home } = workspace();
    const file = join(ws, 'keep.txt');
    writeFileSync(file, 'original line\nsecond line\n');
    const model = await fakeAnthropic([
      { tool: 'mcp__acp__Edit', input: { file_path: file, old_string: 'original line', new_string: 'CHANGED' } },
      { text: 'Edited.' },
    ]);
    let perms!: ReturnType<typeof userPermissions>;
    const { c, logger, tracker, traffic } = client(
      'Claude Code',
      process.execPath,
      [CLAUDE_CODE_ACP],
      claudeEnv(model, home),
      ws,
      (l) => (perms = userPermissions(ws, l, () => 'reject_once')),
    );
    try {
      await c.start();
      assert.equal(c.agent.state, 'ready', `${c.agent.message}\n${logTail(logger)}`);
      await c.prompt('Change the first line of keep.txt');
      const snap = c.session!.snapshot();
      assert.equal(snap.turns[0].error, undefined, `turn failed: ${snap.turns[0].error}\n${logTail(logger)}`);
      // Asked once, through the broker, with the agent's options; the user rejected.
      assert.equal(perms.asked.length, 1, `prompts: ${JSON.stringify(perms.asked)}\n${logTail(logger)}`);
      assert.deepEqual(perms.asked[0].kinds, ['allow_always', 'allow_once', 'reject_once']);
      assert.equal(readFileSync(file, 'utf8'), 'original line\nsecond line\n', 'the file is untouched');
      assert.ok(!methods(traffic).includes('fs/write_text_file'), 'no write reached the client');
      assert.equal(tracker.changes(snap.meta.sessionId, 0).length, 0);
      const calls = Object.values(snap.toolCalls);
      assert.equal(calls.length, 1, JSON.stringify(calls.map((x) => x.title)));
      assert.equal(calls[0].status, 'failed', `tool call status: ${calls[0].status}`);
      assert.deepEqual(
        { outcome: calls[0].permission?.outcome, kind: calls[0].permission?.optionKind, by: calls[0].permission?.by },
        { outcome: 'selected', kind: 'reject_once', by: 'user' },
        'the decision is recorded on the tool call',
      );
      assert.equal(snap.permissions.length, 0, 'nothing left pending');
      assert.match(
        logger.records.map((r) => r.message).join('\n'),
        /Permission .* → Reject \[reject_once\], by the user/,
        'audit log line',
      );
    } finally {
      await c.shutdown();
      await model.close();
    }
  },
);

test(
  'claude-code-acp 0.16.2 + Tandem permissions: an allowed command runs',
  {
    skip: !existsSync(CLAUDE_CODE_ACP) && 'claude-code-acp not installed (run test/compat/run.mjs)',
    timeout: 120_000,
  },
  async () => {
    const { ws, home } = workspace();
    const model = await fakeAnthropic([
      {
        tool: 'mcp__acp__Bash',
        input: { command: 'echo allowed > ran.txt && echo it-ran', timeout: 30000, description: 'Write a marker' },
      },
      { text: 'Ran it.' },
    ]);
    let perms!: ReturnType<typeof userPermissions>;
    const { c, logger, traffic } = client(
      'Claude Code',
      process.execPath,
      [CLAUDE_CODE_ACP],
      claudeEnv(model, home),
      ws,
      (l) => (perms = userPermissions(ws, l, () => 'allow_once')),
    );
    try {
      await c.start();
      assert.equal(c.agent.state, 'ready', `${c.agent.message}\n${logTail(logger)}`);
      await c.prompt('Run the marker command');
      const snap = c.session!.snapshot();
      assert.equal(snap.turns[0].error, undefined, `turn failed: ${snap.turns[0].error}\n${logTail(logger)}`);
      assert.equal(snap.turns[0].stopReason, 'end_turn');
      assert.equal(perms.asked.length, 1, `prompts: ${JSON.stringify(perms.asked)}\n${logTail(logger)}`);
      assert.equal(perms.asked[0].kind, 'allow_once');
      assert.ok(methods(traffic).includes('terminal/create'), 'the command ran in a client terminal');
      assert.equal(readFileSync(join(ws, 'ran.txt'), 'utf8'), 'allowed\n', 'the command ran');
      const terms = Object.values(snap.terminals);
      assert.equal(terms.length, 1);
      assert.match(terms[0].output, /it-ran/);
      assert.equal(terms[0].exitCode, 0);
      const calls = Object.values(snap.toolCalls);
      assert.equal(calls.length, 1);
      assert.equal(calls[0].status, 'completed');
      assert.equal(calls[0].permission?.optionKind, 'allow_once');
      assert.equal(calls[0].permission?.by, 'user');
      assert.match(JSON.stringify(model.requests[1]), /it-ran/, 'the output went back to the model');
    } finally {
      await c.shutdown();
      await model.close();
    }
  },
);

test(
  'gemini-cli 0.61.0 --acp: edit a file and create a new one',
  { skip: !existsSync(GEMINI_CLI) && 'gemini-cli not installed (run test/compat/run.mjs)', timeout: 120_000 },
  async () => {
    const { ws, home } = workspace();
    writeFileSync(join(ws, 'edit-me.txt'), 'hello world\nsecond line\n');
    const script: Step[] = [
      {
        tool: 'replace',
        input: {
          file_path: join(ws, 'edit-me.txt'),
          old_string: 'hello world',
          new_string: 'hello ACP',
          instruction: 'Change the greeting.',
        },
      },
      { tool: 'write_file', input: { file_path: join(ws, 'new-file.txt'), content: 'brand new\n' } },
      { text: 'All done.' },
    ];
    const model = await fakeGemini(script);
    const { c, logger, tracker, traffic } = client(
      'Gemini CLI',
      process.execPath,
      [GEMINI_CLI, '--acp'],
      {
        GOOGLE_GEMINI_BASE_URL: model.url,
        GEMINI_API_KEY: 'dummy',
        HOME: home,
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
      },
      ws,
    );
    try {
      await c.start();
      assert.equal(c.agent.state, 'ready', `${c.agent.message}\n${logTail(logger)}`);
      await c.prompt('Edit and create');
      const snap = c.session!.snapshot();
      const turn = snap.turns[0];
      assert.equal(turn.error, undefined, `turn failed: ${turn.error}\n${logTail(logger)}`);
      const m = methods(traffic);
      assert.ok(
        m.includes('fs/write_text_file'),
        `fs/write_text_file used (saw ${[...new Set(m)].join(', ')}); unknown model paths: ${model.unknown.join(', ')}`,
      );
      assert.equal(readFileSync(join(ws, 'edit-me.txt'), 'utf8'), 'hello ACP\nsecond line\n');
      assert.equal(readFileSync(join(ws, 'new-file.txt'), 'utf8'), 'brand new\n');
      const changes = tracker.changes(snap.meta.sessionId, 0);
      assert.deepEqual(changes.map((x) => x.path).sort(), [join(ws, 'edit-me.txt'), join(ws, 'new-file.txt')]);
    } finally {
      await c.shutdown();
      await model.close();
    }
  },
);

export type { ClientCapabilities };
