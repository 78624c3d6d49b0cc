// The visible-terminal mode's command, driven the way src/vscode/terminals/visibleTerminals.ts drives it,
// through the real TerminalManager: output limits, plain text for the agent, kill and release.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProcessPort, SpawnOptions } from '../../../src/client/ports';
import { TerminalCommand } from '../../../src/client/terminals/terminalCommand';
import { TerminalManager } from '../../../src/client/terminals/terminals';
import { MemoryLogger } from '../../../src/common/logger';
import { SessionStore } from '../../../src/session/store';
import { until } from '../../support/until';

const S = 's1';

/** A fake terminal per command: records Ctrl+C and close, and lets the test play the shell. */
function setup(grace = 200) {
  const cmds: Array<{ cmd: TerminalCommand; opts: SpawnOptions; keys: string[] }> = [];
  const processes: ProcessPort = {
    spawn(opts) {
      const cmd = new TerminalCommand();
      cmds.push({ cmd, opts, keys: [] });
      return cmd;
    },
  };
  const store = new SessionStore(S);
  const m = new TerminalManager({
    cwd: '/ws',
    agentName: 'Claude Code',
    logger: new MemoryLogger(),
    session: (id) => (id === S ? store : undefined),
    processes,
    killGraceMs: grace,
    flushMs: 5,
  });
  const run = (i: number) => {
    const c = cmds[i];
    c.cmd.started({ interrupt: () => c.keys.push('^C'), close: () => c.keys.push('close') });
    return c;
  };
  return { m, store, cmds, run };
}

test('the agent reads a terminal’s output as plain text within outputByteLimit; the view gets it raw', async () => {
  const { m, store, cmds, run } = setup();
  const { terminalId } = await m.create({ sessionId: S, command: 'npm test', outputByteLimit: 12 });
  assert.equal(cmds[0].opts.sessionId, S, 'the port learns the session (one terminal per session)');
  assert.equal(cmds[0].opts.agentName, 'Claude Code');
  const c = run(0);
  c.cmd.output(Buffer.from('\x1b[32mpass\x1b[0m one\r\n'));
  c.cmd.output(Buffer.from('\x1b[31mfail\x1b[0m two\r\n'));
  assert.deepEqual(await m.output({ sessionId: S, terminalId }), {
    output: 'ne\nfail two\n',
    truncated: true,
    exitStatus: null,
  });
  const before = await m.output({ sessionId: S, terminalId });
  c.cmd.finished(1);
  assert.deepEqual(await m.waitForExit({ sessionId: S, terminalId }), { exitCode: 1, signal: null });
  assert.equal(before.exitStatus, null);
  await until(() => store.state.terminals.get(terminalId)?.exited === true, 2000, 'exit in the view');
  assert.equal(
    store.state.terminals.get(terminalId)?.output,
    '\x1b[32mpass\x1b[0m one\r\n\x1b[31mfail\x1b[0m two\r\n',
    'the view keeps the escape sequences (the tool call renders ANSI)',
  );
});

test('kill: Ctrl+C first; a command that ignores it gets its terminal closed after the grace period', async () => {
  const { m, run } = setup(100);
  const polite = await m.create({ sessionId: S, command: 'sleep 100' });
  const c0 = run(0);
  const killed = m.kill({ sessionId: S, terminalId: polite.terminalId });
  assert.deepEqual(c0.keys, ['^C']);
  c0.cmd.finished(undefined); // the shell reports no exit code after Ctrl+C
  await killed;
  assert.deepEqual(await m.waitForExit({ sessionId: S, terminalId: polite.terminalId }), {
    exitCode: null,
    signal: 'SIGINT',
  });
  assert.deepEqual(c0.keys, ['^C'], 'not closed: Ctrl+C was enough');

  const stubborn = await m.create({ sessionId: S, command: 'trap "" INT; sleep 100' });
  const c1 = run(1);
  const killing = m.kill({ sessionId: S, terminalId: stubborn.terminalId });
  await until(() => c1.keys.includes('close'), 2000, 'the terminal closed after the grace period');
  assert.deepEqual(c1.keys, ['^C', 'close']);
  c1.cmd.terminalClosed();
  await killing;
  assert.deepEqual(await m.waitForExit({ sessionId: S, terminalId: stubborn.terminalId }), {
    exitCode: null,
    signal: 'SIGKILL',
  });
});

test('release of a running command interrupts it; release of an ended one leaves the terminal alone', async () => {
  const { m, store, run } = setup();
  const a = await m.create({ sessionId: S, command: 'sleep 100' });
  const c0 = run(0);
  await m.release({ sessionId: S, terminalId: a.terminalId });
  assert.deepEqual(c0.keys, ['^C']);
  c0.cmd.finished(130);
  await until(() => c0.cmd.ended, 2000, 'ended');
  const b = await m.create({ sessionId: S, command: 'echo hi' });
  const c1 = run(1);
  c1.cmd.output(Buffer.from('hi\r\n'));
  c1.cmd.finished(0);
  await m.waitForExit({ sessionId: S, terminalId: b.terminalId });
  await m.release({ sessionId: S, terminalId: b.terminalId });
  assert.deepEqual(c1.keys, [], 'nothing sent to the terminal');
  assert.equal(store.state.terminals.get(b.terminalId)?.released, true);
  assert.equal(store.state.terminals.get(b.terminalId)?.output, 'hi\r\n', 'its output stays in the view');
});

test('a command stopped while its terminal opens never runs', async () => {
  const { m, cmds } = setup();
  const a = await m.create({ sessionId: S, command: 'rm -rf build' });
  await m.kill({ sessionId: S, terminalId: a.terminalId });
  assert.equal(cmds[0].cmd.cancelled, true);
  assert.equal(
    cmds[0].cmd.started({ interrupt: () => {}, close: () => {} }),
    false,
    'the terminal that opens later must not run it',
  );
  assert.deepEqual(await m.waitForExit({ sessionId: S, terminalId: a.terminalId }), {
    exitCode: null,
    signal: 'SIGTERM',
  });
});

test('without shell integration the command goes to the process runner, output and signals included', async () => {
  const cmd = new TerminalCommand();
  const seen: string[] = [];
  cmd.onData((c) => seen.push(c.toString()));
  let exit: unknown;
  cmd.onExit((e) => (exit = e));
  const signals: string[] = [];
  let dataListener: ((c: Buffer) => void) | undefined;
  let exitListener: ((e: { code: number | null; signal: string | null }) => void) | undefined;
  cmd.delegateTo({
    pid: 42,
    onData: (l) => ((dataListener = l), { dispose() {} }),
    onExit: (l) => ((exitListener = l), { dispose() {} }),
    signalGroup: (s) => (signals.push(s), true),
    groupAlive: () => true,
  });
  dataListener!(Buffer.from('from the process\n'));
  assert.equal(cmd.groupAlive(), true);
  assert.equal(cmd.signalGroup('SIGTERM'), true);
  assert.deepEqual(signals, ['SIGTERM']);
  exitListener!({ code: 0, signal: null });
  assert.deepEqual(seen, ['from the process\n']);
  assert.deepEqual(exit, { code: 0, signal: null });
  assert.equal(cmd.cancelled, false);
});
