// Compatibility: codex-acp 2.6.0 (OpenAI Codex through the ACP adapter that starts Codex's app
// server, a native binary from npm) against a fake OpenAI Responses server on 127.0.0.1, through
// Tandem's real AgentClient.
// Codex runs its commands and patches itself (no fs/*, no terminal/*), streams command output in
// tool-call _meta and sandboxes with bubblewrap. (Sign-in is not needed with a custom model
// provider; with OpenAI's it is, and Tandem's env-var sign-in is tested in signInEnv.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ItemView, Patch } from '../../src/shared/sessionModel';
import { stoppableChild } from '../../src/shared/subagentRow';
import { until } from '../support/until';
import { fakeResponses, type ResponsesLane } from './fakeModels';
import { userPermissions } from './userPermissions';
import {
  CODEX_ACP,
  assertRunsToolsItself,
  client,
  codexArgs,
  codexEnv,
  codexHome,
  endedTurn,
  logTail,
  startedClient,
  workspace,
} from './agentHarness';
import { codexSandboxProblem } from './agentPaths';

const text = (i: ItemView) => ('blocks' in i ? i.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('') : '');

const skip = !existsSync(CODEX_ACP) && 'codex-acp not installed (run test/compat/run.mjs)';
/** Without a working bubblewrap every Codex command and patch fails inside its sandbox: say so plainly. */
function needBwrap(): void {
  const problem = codexSandboxProblem();
  assert.equal(problem, undefined, problem);
}

test('codex-acp 2.6.0: run a command with live output, apply a patch', { skip, timeout: 120_000 }, async () => {
  needBwrap();
  const { ws } = workspace();
  const home = codexHome();
  writeFileSync(join(ws, 'hello.txt'), 'hello world\nsecond line\n');
  const model = await fakeResponses([
    // Codex's app server never sends output written before it reported the command: start quiet.
    { tool: 'exec_command', input: { cmd: 'sleep 0.5; echo live-1; sleep 1.5; echo live-2', yield_time_ms: 10000 } },
    {
      customTool: 'apply_patch',
      input:
        '*** Begin Patch\n*** Update File: hello.txt\n@@\n-hello world\n+hello ACP\n second line\n*** Add File: sub/new-file.txt\n+brand new\n*** End Patch\n',
    },
    { text: 'All done.' },
  ]);
  const { c, logger, traffic, tracker } = client('Codex', process.execPath, codexArgs(), codexEnv(home, model), ws);
  try {
    await c.start();
    assert.equal(c.agent.state, 'ready', `${c.agent.message}\n${logTail(logger)}`);
    // "Workspace access": edits in the workspace and commands run without asking.
    await c.setMode('workspace-write');
    const seen: { liveBeforeExit?: boolean } = {};
    c.onDidChangeSession(({ patches }: { patches: Patch[] }) => {
      for (const p of patches) {
        if (p.op === 'terminalOutput' && p.data.includes('live-1') && seen.liveBeforeExit === undefined) {
          seen.liveBeforeExit = !c.session!.state.terminals.get(p.terminalId)?.exited;
        }
      }
    });
    const { snap } = await endedTurn(c, logger, 'Do the thing');
    assert.deepEqual(model.unknown, []);
    assertRunsToolsItself(traffic);
    const [run, edit] = Object.values(snap.toolCalls);
    assert.equal(run.kind, 'execute');
    assert.equal(run.status, 'completed');
    // Its output streams in _meta.terminal_output into an agent-side terminal, live.
    const term = snap.terminals[run.agentTerminalId!];
    assert.ok(term, `agent terminal of ${JSON.stringify(run)}`);
    assert.equal(term.output, 'live-1\nlive-2\n');
    assert.equal(term.exitCode, 0);
    assert.equal(seen.liveBeforeExit, true, 'live-1 reached the view before the command ended');
    // The patch shows as diffs (in no fixed order): an update and a new file (no oldText).
    assert.equal(edit.kind, 'edit');
    assert.equal(edit.status, 'completed');
    const diffs = edit.content.filter((x) => x.type === 'diff') as {
      path: string;
      oldText?: string | null;
      newText: string;
    }[];
    assert.deepEqual(diffs.map((d) => [d.path, d.oldText ?? null, d.newText]).sort(), [
      [join(ws, 'hello.txt'), 'hello world\nsecond line\n', 'hello ACP\nsecond line\n'],
      [join(ws, 'sub', 'new-file.txt'), null, 'brand new\n'],
    ]);
    assert.equal(readFileSync(join(ws, 'hello.txt'), 'utf8'), 'hello ACP\nsecond line\n');
    assert.equal(readFileSync(join(ws, 'sub', 'new-file.txt'), 'utf8'), 'brand new\n');
    assert.match(JSON.stringify(model.requests[1]), /live-1\\nlive-2/, 'the command output went back to the model');
    // Review Changes: Codex wrote the disk itself, so the changes come from its diffs.
    const changes = tracker.changes(snap.meta.sessionId, 0);
    assert.deepEqual(
      changes.map((x) => [x.path, x.source, x.before && Buffer.from(x.before).toString(), x.applied]).sort(),
      [
        [join(ws, 'hello.txt'), 'diff', 'hello world\nsecond line\n', true],
        [join(ws, 'sub', 'new-file.txt'), 'diff', null, true],
      ],
    );
  } finally {
    await c.shutdown();
    await model.close();
    rmSync(home, { recursive: true, force: true });
  }
});

test(
  'codex-acp 2.6.0 + Tandem permissions (Read Only mode): a rejected patch leaves the file untouched',
  { skip, timeout: 120_000 },
  async () => {
    needBwrap();
    const { ws } = workspace();
    const home = codexHome();
    const file = join(ws, 'keep.txt');
    writeFileSync(file, 'original line\nsecond line\n');
    const model = await fakeResponses([
      {
        customTool: 'apply_patch',
        input:
          '*** Begin Patch\n*** Update File: keep.txt\n@@\n-original line\n+CHANGED\n second line\n*** End Patch\n',
      },
      { text: 'Could not edit.' },
    ]);
    let perms!: ReturnType<typeof userPermissions>;
    const { c, logger } = client(
      'Codex',
      process.execPath,
      codexArgs(),
      codexEnv(home, model),
      ws,
      (l) =>
        (perms = userPermissions(ws, l, (kinds) => (kinds.includes('reject_once') ? 'reject_once' : 'reject_always'))),
    );
    try {
      await c.start();
      assert.equal(c.agent.state, 'ready', `${c.agent.message}\n${logTail(logger)}`);
      assert.equal(c.session!.snapshot().meta.currentModeId, 'read-only', 'a new Codex session starts read-only');
      await c.prompt('Change the first line of keep.txt');
      const snap = c.session!.snapshot();
      assert.equal(snap.turns[0].error, undefined, `turn failed: ${snap.turns[0].error}\n${logTail(logger)}`);
      assert.equal(perms.asked.length, 1, `prompts: ${JSON.stringify(perms.asked)}\n${logTail(logger)}`);
      assert.equal(readFileSync(file, 'utf8'), 'original line\nsecond line\n', 'the file is untouched');
      const calls = Object.values(snap.toolCalls);
      assert.equal(calls.length, 1, JSON.stringify(calls.map((x) => x.title)));
      assert.equal(calls[0].kind, 'edit');
      assert.notEqual(calls[0].status, 'completed', `tool call status: ${calls[0].status}`);
      assert.equal(calls[0].permission?.by, 'user');
      assert.match(calls[0].permission?.optionKind ?? '', /^reject/);
      assert.equal(snap.permissions.length, 0, 'nothing left pending');
    } finally {
      await c.shutdown();
      await model.close();
      rmSync(home, { recursive: true, force: true });
    }
  },
);

test(
  'codex-acp 2.6.0: a child thread shows as an Agent row holding its command and answer; the turn ends after the wait',
  { skip, timeout: 120_000 },
  async () => {
    const { c, logger, child, model, home } = await codexWithChild('CHILD-TASK: print a line', [
      { tool: 'exec_command', input: { cmd: 'sleep 0.3; echo child-ran', yield_time_ms: 10000 } },
      { text: 'Child finished.' },
    ]);
    try {
      const { snap } = await endedTurn(c, logger, 'Spawn a subagent');
      assert.ok(/child-ran/.test(JSON.stringify(child.requests.at(-1))), 'the child thread ran its command');
      // Tandem advertises clientCapabilities.subagents: the child thread is a session of its own,
      // announced with subagent_update, and shows as a row of the turn (subagentSessions.ts).
      const calls = Object.values(snap.toolCalls);
      const row = calls.find((t) => t.name === 'Agent');
      assert.ok(row, JSON.stringify(calls.map((t) => [t.toolCallId, t.title, t.status])));
      assert.equal(row.title, 'CHILD-TASK: print a line');
      assert.equal(row.status, 'completed');
      const command = calls.find((t) => t.kind === 'execute');
      assert.equal(command?.parentId, row.toolCallId, "the child's command is under its row");
      assert.equal(snap.terminals[command.agentTerminalId!]?.output, 'child-ran\n');
      const items = snap.turns[0].items;
      assert.ok(
        items.some((i) => i.kind === 'subagent' && i.parentId === row.toolCallId && /Child finished\./.test(text(i))),
        "the child's answer is under its row",
      );
      assert.deepEqual(
        calls
          .filter((t) => !t.parentId)
          .map((t) => `${t.title}: ${t.status}`)
          .sort(),
        ['CHILD-TASK: print a line: completed', 'wait: completed'],
        'no spawnAgent call: the row stands for it',
      );
      assert.deepEqual(
        items.filter((i) => i.kind === 'agent').map(text),
        ['Root done.'],
        "the child's answer is not the root's",
      );
    } finally {
      await c.shutdown();
      await model.close();
      rmSync(home, { recursive: true, force: true });
    }
  },
);

test(
  "codex-acp 2.6.0: Stop on a child thread's row ends the child's work; the root's turn goes on to its end",
  { skip, timeout: 120_000 },
  async () => {
    // The child's model holds its answer back: the child is still at work when Stop comes. (A
    // stopped child is idle, not finished: codex's wait_agent for it ends at its timeout, 10 s here.)
    const { c, logger, traffic, child, model, home } = await codexWithChild(
      'CHILD-TASK: run and wait',
      [
        { tool: 'exec_command', input: { cmd: 'echo child-ran', yield_time_ms: 10000 } },
        { text: 'CHILD-LATE: never wanted.', delayMs: 60_000 },
      ],
      10_000,
    );
    try {
      const turn = c.prompt('Spawn a subagent');
      const row = () => Object.values(c.session!.snapshot().toolCalls).find((t) => t.name === 'Agent');
      await until(
        () => child.requests.length >= 2 && stoppableChild(row()) !== undefined,
        60_000,
        'the child at work',
        100,
      ).catch(() => assert.fail(`${JSON.stringify(row())}\n${logTail(logger)}`));
      const id = stoppableChild(row())!;
      assert.equal(c.stopSubagent(row()!.toolCallId), true);
      const cancel = traffic.find((t) => t.dir === 'out' && (t.msg as { method?: string }).method === 'session/cancel');
      assert.deepEqual((cancel?.msg as { params?: unknown }).params, { sessionId: id }, 'the child only');
      await turn;
      const snap = c.session!.snapshot();
      assert.equal(snap.turns[0].stopReason, 'end_turn', `the root's turn went on\n${logTail(logger)}`);
      assert.match(JSON.stringify(snap.turns[0].items), /Root done\./);
      assert.equal(row()!.interrupted, true, JSON.stringify(row()!.meta));
      assert.ok(!JSON.stringify(snap.turns).includes('CHILD-LATE'), "the child's held answer never came");
    } finally {
      await c.shutdown();
      await model.close();
      rmSync(home, { recursive: true, force: true });
    }
  },
);

/**
 * Codex started against a fake whose root thread spawns a child with `task`, waits for it (at most
 * `waitMs`, else codex's default of 30 s) and says "Root done."; the child thread's requests (its
 * task in a user message) follow `script`.
 */
async function codexWithChild(task: string, script: ResponsesLane['script'], waitMs?: number) {
  needBwrap();
  const { ws } = workspace();
  const home = codexHome();
  const child: ResponsesLane = { when: /CHILD-TASK/, script, requests: [] };
  const model = await fakeResponses(
    [
      { tool: 'spawn_agent', namespace: 'multi_agent_v1', input: { message: task } },
      {
        tool: 'wait_agent',
        namespace: 'multi_agent_v1',
        input: (r) => ({ targets: [spawnedAgent(r)], ...(waitMs ? { timeout_ms: waitMs } : {}) }),
      },
      { text: 'Root done.' },
    ],
    [child],
  );
  try {
    return {
      ...(await startedClient('Codex', process.execPath, codexArgs(), codexEnv(home, model), ws)),
      child,
      model,
      home,
    };
  } catch (err) {
    await model.close();
    throw err;
  }
}

/** The agent id spawn_agent returned (`{"agent_id": …}`), from the request that follows it. */
function spawnedAgent(request: { input?: unknown[] }): string {
  const outputs = (request.input ?? []) as { type?: string; output?: unknown }[];
  const last = outputs.filter((i) => i.type === 'function_call_output').at(-1);
  return (JSON.parse(String(last?.output ?? '{}')) as { agent_id?: string }).agent_id ?? '';
}
