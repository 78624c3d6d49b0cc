// Compatibility: claude-agent-acp 0.100.0 (the successor of claude-code-acp: the Claude Agent SDK
// with Claude Code as a native binary) against the fake Anthropic server, through Tandem's real
// AgentClient. Unlike claude-code-acp it runs Read/Edit/Write/Bash itself (no fs/*, no
// terminal/*): command output arrives in tool-call _meta, and Review Changes comes from its diffs
// and its own copy of each file before the edit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeAnthropic, type Lane } from './fakeModels';
import { until } from '../support/until';
import { userPermissions } from './userPermissions';
import {
  AGENT_NODE,
  CLAUDE_AGENT_ACP,
  assertRunsToolsItself,
  claudeAgentEnv,
  client,
  endedTurn,
  logTail,
  workspace,
} from './agentHarness';

const skip =
  (!existsSync(CLAUDE_AGENT_ACP) && 'claude-agent-acp not installed (run test/compat/run.mjs)') ||
  (!AGENT_NODE && 'claude-agent-acp needs Node ≥ 22: run through test/compat/run.mjs (TANDEM_AGENT_NODE)');

test('claude-agent-acp 0.100.0: read, edit, write a new file, run a command', { skip, timeout: 120_000 }, async () => {
  const { ws, home } = workspace();
  writeFileSync(join(ws, 'hello.txt'), 'hello world\nsecond line\n');
  const model = await fakeAnthropic([
    { tool: 'Read', input: { file_path: join(ws, 'hello.txt') } },
    { tool: 'Edit', input: { file_path: join(ws, 'hello.txt'), old_string: 'hello world', new_string: 'hello ACP' } },
    { tool: 'Write', input: { file_path: join(ws, 'sub', 'new-file.txt'), content: 'brand new\n' } },
    {
      tool: 'Bash',
      input: { command: 'echo out-1; sleep 0.5; echo out-2', timeout: 30000, description: 'Print two lines' },
    },
    { text: 'All done.' },
  ]);
  const { c, logger, tracker, traffic } = client(
    'Claude Agent',
    AGENT_NODE,
    [CLAUDE_AGENT_ACP],
    claudeAgentEnv(model, home),
    ws,
  );
  try {
    await c.start();
    assert.equal(c.agent.state, 'ready', `${c.agent.message}\n${logTail(logger)}`);
    // "Accept edits": the edits need no prompt (the command's is answered by the test's autoAllow).
    await c.setMode('acceptEdits');
    const { snap, turn } = await endedTurn(c, logger, 'Do the thing');
    assert.deepEqual(model.unknown, []);
    assertRunsToolsItself(traffic);
    assert.equal(readFileSync(join(ws, 'hello.txt'), 'utf8'), 'hello ACP\nsecond line\n');
    assert.equal(readFileSync(join(ws, 'sub', 'new-file.txt'), 'utf8'), 'brand new\n');
    // In the order the turn shows them.
    const calls = turn.items.flatMap((it) => (it.kind === 'tool' ? [snap.toolCalls[it.toolCallId]] : []));
    assert.deepEqual(
      calls.map((x) => [x.kind, x.status]),
      [
        ['read', 'completed'],
        ['edit', 'completed'],
        ['edit', 'completed'],
        ['execute', 'completed'],
      ],
    );
    assert.match(JSON.stringify(calls[0].content), /hello world/, 'the read shows what it read');
    // The edits show as diffs; the new file has no old text.
    const diffOf = (i: number) =>
      calls[i].content.find((x) => x.type === 'diff') as
        { path: string; oldText?: string | null; newText: string } | undefined;
    assert.equal(diffOf(1)?.path, join(ws, 'hello.txt'));
    assert.equal(diffOf(2)?.path, join(ws, 'sub', 'new-file.txt'));
    assert.equal(diffOf(2)?.oldText ?? null, null);
    // The command's output arrives in _meta.terminal_output into an agent-side terminal. (0.100.0
    // sends it once, when the command has finished: its Bash has no live output to stream.)
    const run = calls[3];
    const term = snap.terminals[run.agentTerminalId!];
    assert.ok(term, `agent terminal of ${JSON.stringify(run)}`);
    assert.deepEqual(run.content, [{ type: 'terminal', terminalId: run.agentTerminalId }]);
    assert.equal(term.output, 'out-1\nout-2');
    assert.equal(term.exitCode, 0);
    assert.match(JSON.stringify(model.requests[4]), /out-1\\nout-2/, 'the command output went back to the model');
    // Review Changes: it wrote the disk itself, so the changes come from its diffs.
    const changes = tracker.changes(snap.meta.sessionId, 0);
    assert.deepEqual(
      changes.map((x) => [x.path, x.source, x.before && Buffer.from(x.before).toString(), x.applied]).sort(),
      [
        [join(ws, 'hello.txt'), 'diff', 'hello world\nsecond line\n', true],
        [join(ws, 'sub', 'new-file.txt'), 'diff', null, true],
      ],
    );
    // usage_update: context used/size and the turn's cost, for the view's usage line.
    assert.equal(snap.meta.usage?.size, 1_000_000);
    assert.equal(snap.meta.usage?.cost?.currency, 'USD');
    assert.ok((snap.meta.usage?.cost?.amount ?? 0) > 0);
  } finally {
    await c.shutdown();
    await model.close();
  }
});

test(
  'claude-agent-acp 0.100.0 + Tandem permissions (Manual mode): a rejected edit leaves the file untouched',
  { skip, timeout: 120_000 },
  async () => {
    const { ws, home } = workspace();
    const file = join(ws, 'keep.txt');
    writeFileSync(file, 'original line\nsecond line\n');
    const model = await fakeAnthropic([
      { tool: 'Edit', input: { file_path: file, old_string: 'original line', new_string: 'CHANGED' } },
      { text: 'Could not edit.' },
    ]);
    let perms!: ReturnType<typeof userPermissions>;
    const { c, logger, tracker } = client(
      'Claude Agent',
      AGENT_NODE,
      [CLAUDE_AGENT_ACP],
      claudeAgentEnv(model, home),
      ws,
      (l) => (perms = userPermissions(ws, l, () => 'reject_once')),
    );
    try {
      await c.start();
      assert.equal(c.agent.state, 'ready', `${c.agent.message}\n${logTail(logger)}`);
      assert.equal(c.session!.snapshot().meta.currentModeId, 'default', 'a new session starts in Manual mode');
      await c.prompt('Change the first line of keep.txt');
      const snap = c.session!.snapshot();
      assert.equal(snap.turns[0].error, undefined, `turn failed: ${snap.turns[0].error}\n${logTail(logger)}`);
      assert.equal(perms.asked.length, 1, `prompts: ${JSON.stringify(perms.asked)}\n${logTail(logger)}`);
      assert.ok(perms.asked[0].kinds.includes('reject_once'), `options: ${perms.asked[0].kinds.join(', ')}`);
      assert.equal(readFileSync(file, 'utf8'), 'original line\nsecond line\n', 'the file is untouched');
      assert.equal(tracker.changes(snap.meta.sessionId, 0).length, 0, 'nothing to review');
      const calls = Object.values(snap.toolCalls);
      assert.equal(calls.length, 1, JSON.stringify(calls.map((x) => x.title)));
      assert.equal(calls[0].kind, 'edit');
      assert.equal(calls[0].status, 'failed', `tool call status: ${calls[0].status}`);
      assert.deepEqual(
        { kind: calls[0].permission?.optionKind, by: calls[0].permission?.by },
        { kind: 'reject_once', by: 'user' },
      );
      assert.equal(snap.permissions.length, 0, 'nothing left pending');
    } finally {
      await c.shutdown();
      await model.close();
    }
  },
);

test(
  'claude-agent-acp 0.100.0: a past session is listed and reopened with its tool calls after a restart',
  { skip, timeout: 120_000 },
  async () => {
    const { ws, home } = workspace();
    const file = join(ws, 'history.txt');
    writeFileSync(file, 'remember this line\n');
    const model = await fakeAnthropic([
      { tool: 'Read', input: { file_path: file } },
      { text: 'It says: remember this line.' },
    ]);
    // Same HOME for both connections: Claude Code keeps its sessions under ~/.claude.
    const first = client('Claude Agent', AGENT_NODE, [CLAUDE_AGENT_ACP], claudeAgentEnv(model, home), ws);
    let id: string;
    let before: { id: string; kind?: string; title: string }[];
    try {
      await first.c.start();
      assert.equal(first.c.agent.state, 'ready', `${first.c.agent.message}\n${logTail(first.logger)}`);
      const { snap } = await endedTurn(first.c, first.logger, 'compat history: read history.txt');
      id = snap.meta.sessionId;
      before = Object.values(snap.toolCalls).map((t) => ({ id: t.toolCallId, kind: t.kind, title: t.title }));
      assert.equal(before.length, 1);
    } finally {
      await first.c.shutdown();
    }
    const second = client('Claude Agent', AGENT_NODE, [CLAUDE_AGENT_ACP], claudeAgentEnv(model, home), ws);
    try {
      await second.c.start();
      assert.equal(second.c.agent.state, 'ready', `${second.c.agent.message}\n${logTail(second.logger)}`);
      assert.ok(second.c.canReopen());
      const listed = await second.c.listSessions();
      const entry = listed.find((s) => s.sessionId === id);
      assert.ok(entry, `session/list has the past session: ${JSON.stringify(listed)}`);
      assert.equal(entry.cwd, ws);
      const store = await second.c.loadSession(id);
      const snap = store.snapshot();
      const text = JSON.stringify(snap.turns);
      assert.match(text, /compat history: read history\.txt/, 'the user message replayed');
      assert.match(text, /It says: remember this line\./, 'the agent reply replayed');
      const after = Object.values(snap.toolCalls);
      for (const t of before) {
        const r = after.find((x) => x.toolCallId === t.id);
        assert.ok(r, `tool call ${t.title} replayed: ${JSON.stringify(after.map((x) => [x.toolCallId, x.title]))}`);
        assert.equal(r.kind, t.kind);
      }
    } finally {
      await second.c.shutdown();
      await model.close();
    }
  },
);

test(
  "claude-agent-acp 0.100.0: a subagent's tool calls belong to the Agent call that started it",
  { skip, timeout: 120_000 },
  async () => {
    const { ws, home } = workspace();
    writeFileSync(join(ws, 'a.txt'), 'alpha\n');
    // The subagent is a conversation of its own with the model: its own script.
    const sub: Lane = {
      when: /Find the alpha file/,
      requests: [],
      script: [{ tool: 'Read', input: { file_path: join(ws, 'a.txt') } }, { text: 'a.txt says alpha.' }],
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
        { text: 'A subagent is looking.' },
      ],
      [sub],
    );
    const { c, logger } = client('Claude Agent', AGENT_NODE, [CLAUDE_AGENT_ACP], claudeAgentEnv(model, home), ws);
    try {
      await c.start();
      assert.equal(c.agent.state, 'ready', `${c.agent.message}\n${logTail(logger)}`);
      await endedTurn(c, logger, 'Use a subagent');
      // 0.100.0 runs the subagent in the background: its calls may come after the turn's answer.
      const read = () =>
        Object.values(c.session!.snapshot().toolCalls).find((t) => t.kind === 'read' && t.status === 'completed');
      // Not there in time: the assertions below say what came instead.
      await until(() => read() !== undefined, 20_000, "the subagent's Read", 100).catch(() => undefined);
      const snap = c.session!.snapshot();
      const agent = Object.values(snap.toolCalls).find((t) => t.name === 'Agent');
      assert.ok(
        agent,
        `the Agent call: ${JSON.stringify(Object.values(snap.toolCalls).map((t) => [t.name, t.title]))}`,
      );
      assert.ok(sub.requests.length >= 1, 'the subagent talked to the model');
      const r = read();
      assert.ok(
        r,
        `the subagent's Read: ${JSON.stringify(Object.values(snap.toolCalls).map((t) => [t.name, t.status, t.parentId]))}`,
      );
      assert.equal(r.parentId, agent.toolCallId, 'shown under the Agent call');
      assert.equal(agent.parentId, undefined);
    } finally {
      await c.shutdown();
      await model.close();
    }
  },
);
