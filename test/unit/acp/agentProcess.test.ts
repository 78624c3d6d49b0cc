import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnAgent, type AgentExit, type AgentProcess } from '../../../src/acp/agentProcess';
import { processAlive } from '../../../src/acp/processGroups';
import { MemoryLogger } from '../../../src/common/logger';
import { until } from '../../support/until';
import { withMockTimers } from '../../support/mockTimers';
import { psGroup } from '../../support/hosts';

const node = process.execPath;

function nextExit(p: AgentProcess): Promise<AgentExit> {
  return new Promise((r) => {
    p.onDidExit(r);
  });
}

function readLine(p: AgentProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const onData = (d: Buffer) => {
      buf += d.toString('utf8');
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        p.stdout.off('data', onData);
        resolve(buf.slice(0, nl));
      }
    };
    p.stdout.on('data', onData);
    p.onDidExit((e) => reject(new Error(`exited before a line: ${e.message}`)));
  });
}

test('spawns with stdio pipes and env merged over process.env', async () => {
  const p = spawnAgent({
    command: node,
    args: ['-e', 'process.stdin.on("data", d => process.stdout.write(process.env.TANDEM_T + ":" + d))'],
    env: { TANDEM_T: 'x1' },
    name: 'echo',
  });
  try {
    assert.equal(typeof p.pid, 'number');
    const line = readLine(p);
    p.stdin.write('hello\n');
    assert.equal(await line, 'x1:hello');
    assert.equal(p.exited, undefined);
  } finally {
    await p.kill();
  }
  assert.ok(p.exited);
});

test('stderr lines are logged with the agent name and kept as a bounded tail', async () => {
  const logger = new MemoryLogger();
  const p = spawnAgent({
    command: node,
    name: 'talker',
    logger,
    stderrTailBytes: 200,
    args: [
      '-e',
      'for (let i = 1; i <= 50; i++) console.error("line " + i); console.error("Error: something failed"); console.log("ready"); setInterval(() => {}, 1000)',
    ],
  });
  try {
    await readLine(p);
    await until(() => p.stderrTail(1)[0] === 'Error: something failed', 2000, 'the stderr tail');
    assert.deepEqual(p.stderrTail(3), ['line 49', 'line 50', 'Error: something failed']);
    assert.ok(p.stderrTail(100).length < 30, 'ring buffer is bounded by bytes');
    assert.ok(logger.messages('info').includes('[talker] line 1'));
    assert.ok(logger.messages('warn').includes('[talker] Error: something failed'));
  } finally {
    await p.kill();
  }
});

test('exit is reported at once, with the last stderr lines in the message', () =>
  withMockTimers(async () => {
    const p = spawnAgent({
      command: node,
      name: 'X',
      args: ['-e', 'console.error("first"); console.error("boom"); process.exit(1)'],
    });
    // The timers are mocked and never ticked: the exit comes when the process and its stderr end,
    // not after any wait.
    await until(() => p.exited !== undefined, 5000, 'the exit, with no timer having fired');
    const e = p.exited!;
    assert.equal(e.code, 1);
    assert.equal(e.signal, null);
    assert.equal(e.message, 'Agent "X" exited with code 1.\nLast output:\nfirst\nboom');
    // A late listener still hears about it.
    const late = await nextExit(p);
    assert.equal(late, e);
  }));

test('exit is reported even while a grandchild keeps stderr open', async () => {
  const p = spawnAgent({
    command: 'sh',
    name: 'leaky',
    args: ['-c', 'sleep 30 & echo gone >&2; exit 4'],
    killGraceMs: 200,
  });
  let groupAtExit: number[] = [];
  p.onDidExit(() => (groupAtExit = psGroup(p.pid!)));
  const e = await nextExit(p);
  assert.ok(groupAtExit.length > 0, 'reported while the grandchild (holding stderr open) still runs');
  assert.equal(e.code, 4);
  assert.match(e.message, /^Agent "leaky" exited with code 4\.\nLast output:\ngone$/);
  await p.kill();
});

test('a command not on PATH gives an actionable message', async () => {
  const p = spawnAgent({ command: 'tandem-no-such-agent-xyz', args: ['--acp', 'two words'], name: 'Ghost' });
  const e = await nextExit(p);
  assert.equal(p.pid, undefined);
  assert.equal(e.code, null);
  assert.match(e.error ?? '', /ENOENT/);
  assert.match(e.message, /Could not start agent "Ghost": command "tandem-no-such-agent-xyz" was not found on PATH/);
  assert.ok(e.message.includes('tandem-no-such-agent-xyz --acp "two words"'), e.message);
  await p.kill(); // no-op, must not throw
  p.stdin.write('late\n'); // must not throw either
});

test('kill() stops the whole process group, grandchild included', async () => {
  const p = spawnAgent({ command: 'sh', args: ['-c', 'sleep 1000 & echo $!; wait'], name: 'forker' });
  const grandchild = Number(await readLine(p));
  assert.ok(grandchild > 0 && processAlive(grandchild));
  const exit = nextExit(p);
  await p.kill();
  assert.equal(processAlive(grandchild), false, 'grandchild must be gone');
  assert.equal(processAlive(p.pid!), false);
  assert.equal((await exit).signal, 'SIGTERM');
});

test('a child ignoring SIGTERM is SIGKILLed after the grace', async () => {
  const p = spawnAgent({
    command: node,
    killGraceMs: 300,
    name: 'stubborn',
    args: ['-e', 'process.on("SIGTERM", () => console.log("term")); console.log("ready"); setInterval(() => {}, 1000)'],
  });
  await readLine(p);
  const term = readLine(p);
  const killed = p.kill();
  assert.equal(await term, 'term');
  assert.ok(processAlive(p.pid!), 'it got SIGTERM and still runs: not killed before the grace');
  assert.equal(p.exited?.signal, undefined, 'not exited yet');
  await killed;
  assert.equal(p.exited?.signal, 'SIGKILL');
  assert.equal(processAlive(p.pid!), false);
});

test('dispose() kills the group without waiting and leaves no orphan', async () => {
  const p = spawnAgent({
    command: 'sh',
    args: ['-c', 'trap "" TERM; sleep 1000 & echo $!; wait'],
    killGraceMs: 200,
    name: 'forker2',
  });
  const grandchild = Number(await readLine(p));
  p.dispose();
  await until(() => !processAlive(grandchild) && !processAlive(p.pid!), 3000, 'the group to be gone after dispose');
});

test('writing to a dead agent (EPIPE) does not crash', async () => {
  const p = spawnAgent({ command: node, args: ['-e', 'process.exit(0)'], name: 'quick' });
  await nextExit(p);
  const big = Buffer.alloc(1024 * 1024, 0x61);
  for (let i = 0; i < 5; i++) p.stdin.write(big);
  // The last write's callback runs once every write before it failed (EPIPE); then a turn for
  // the stream's error event.
  await new Promise<void>((r) => p.stdin.write('{"jsonrpc":"2.0"}\n', () => r()));
  await new Promise((r) => setImmediate(r));
  assert.equal(p.exited?.code, 0);
});

test('an agent killed by a signal says so', async () => {
  const p = spawnAgent({
    command: node,
    name: 'sig',
    args: ['-e', 'console.error("about to die"); process.kill(process.pid, "SIGKILL")'],
  });
  const e = await nextExit(p);
  assert.equal(e.signal, 'SIGKILL');
  assert.equal(e.message, 'Agent "sig" was stopped by signal SIGKILL.\nLast output:\nabout to die');
});

test('the log masks a secret on the command line and in stderr, the process gets it as given', async () => {
  const logger = new MemoryLogger();
  const p = spawnAgent({
    command: node,
    name: 'secretive',
    logger,
    args: [
      '-e',
      'console.error("auth with " + process.argv[1]); console.log(process.argv[1])',
      '--',
      '--token=hunter2secret',
    ],
  });
  try {
    assert.equal(await readLine(p), '--token=hunter2secret');
    await until(() => logger.messages().some((m) => m.includes('auth with')), 3000, 'the stderr line');
    const log = logger.messages().join('\n');
    assert.ok(!log.includes('hunter2secret'), log);
    assert.match(log, /started: .*--token=\*\*\*/);
    assert.match(log, /auth with --token=\*\*\*/);
  } finally {
    await p.kill();
  }
});
