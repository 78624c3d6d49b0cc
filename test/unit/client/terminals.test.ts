import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AcpError } from '../../../src/acp/errors';
import { processAlive } from '../../../src/acp/processGroups';
import { OutputBuffer, completeUtf8Length } from '../../../src/client/terminals/outputBuffer';
import { TerminalManager, TerminalsFeature } from '../../../src/client/terminals/terminals';
import { MemoryLogger } from '../../../src/common/logger';
import { SessionStore } from '../../../src/session/store';
import { until } from '../../support/until';

const S = 's1';
const posix = process.platform !== 'win32';

function setup(grace = 300) {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-term-')));
  const store = new SessionStore(S);
  const logger = new MemoryLogger();
  const m = new TerminalManager({
    cwd,
    logger,
    session: (id) => (id === S ? store : undefined),
    killGraceMs: grace,
    flushMs: 10,
  });
  return { cwd, store, m, logger };
}

test('capabilities: terminal and _meta.terminal_output', () => {
  const caps: Record<string, unknown> = { terminal: false };
  new TerminalsFeature().capabilities(caps);
  assert.equal(caps.terminal, true);
  assert.deepEqual(caps._meta, { terminal_output: true, terminal_output_delta: true });
});

test('OutputBuffer keeps the tail and cuts on a UTF-8 boundary', () => {
  const b = new OutputBuffer(7);
  b.push(Buffer.from('ééé')); // 6 bytes
  b.push(Buffer.from('éé')); // 10 bytes in all
  const r = b.read(true);
  assert.equal(r.truncated, true);
  assert.equal(r.output, 'ééé', '7-byte tail starts mid-character: the partial one is dropped');
  assert.ok(Buffer.byteLength(r.output) <= 7);
  const small = new OutputBuffer(100);
  small.push(Buffer.from('hi'));
  assert.deepEqual(small.read(false), { output: 'hi', truncated: false });
  // A trailing partial character is held back while the command runs.
  const p = new OutputBuffer(100);
  p.push(Buffer.from([0x61, 0xe2, 0x82]));
  assert.equal(p.read(false).output, 'a');
  assert.equal(completeUtf8Length(Buffer.from('a€')), 4);
  assert.equal(completeUtf8Length(Buffer.from([0x61, 0xf0, 0x9f, 0x98])), 1);
});

test('OutputBuffer memory stays within limit + one chunk', () => {
  const b = new OutputBuffer(1000);
  for (let i = 0; i < 10_000; i++) b.push(Buffer.alloc(300, 0x61));
  assert.ok(b.heldBytes <= 1000 + 3 + 300, `held ${b.heldBytes}`);
  assert.equal(b.read(true).output.length, 1000);
  assert.equal(b.totalBytes, 3_000_000);
});

test('shell line (no args) with env, cwd defaulting to the workspace folder, exit code', async () => {
  const { cwd, m, store } = setup();
  const { terminalId } = await m.create({
    sessionId: S,
    command: 'echo "$FOO" && pwd && echo err 1>&2; exit 3',
    env: [{ name: 'FOO', value: 'bar' }],
  });
  const exit = await m.waitForExit({ sessionId: S, terminalId });
  assert.deepEqual(exit, { exitCode: 3, signal: null });
  const out = await m.output({ sessionId: S, terminalId });
  assert.match(out.output, /^bar\n/);
  assert.ok(out.output.includes(cwd + '\n'));
  assert.ok(out.output.includes('err\n'));
  assert.equal(out.truncated, false);
  assert.deepEqual(out.exitStatus, { exitCode: 3, signal: null });
  const view = store.snapshot().terminals[terminalId];
  assert.equal(view.exited, true);
  assert.equal(view.exitCode, 3);
  assert.equal(view.cwd, cwd);
  assert.match(view.output, /bar/);
});

test('command with args runs without a shell', async () => {
  const { m } = setup();
  const { terminalId } = await m.create({
    sessionId: S,
    command: process.execPath,
    args: ['-e', 'console.log(process.argv[1])', '$HOME; echo no'],
  });
  await m.waitForExit({ sessionId: S, terminalId });
  assert.equal((await m.output({ sessionId: S, terminalId })).output, '$HOME; echo no\n');
});

test('a missing command reports an exit, not a hang', async () => {
  const { m } = setup();
  const { terminalId } = await m.create({ sessionId: S, command: 'definitely-not-a-command-xyz', args: ['a'] });
  const exit = await m.waitForExit({ sessionId: S, terminalId });
  assert.equal(exit.exitCode, 127);
  assert.match((await m.output({ sessionId: S, terminalId })).output, /not found/);
});

test('output over outputByteLimit: tail kept, cut on a multi-byte boundary, truncated', async () => {
  const { m } = setup();
  // 3000 × "€" (3 bytes each) then "END"; a limit of 1000 is not a multiple of 3 from the end.
  const { terminalId } = await m.create({
    sessionId: S,
    command: process.execPath,
    args: ['-e', 'process.stdout.write("€".repeat(3000) + "END")'],
    outputByteLimit: 1000,
  });
  await m.waitForExit({ sessionId: S, terminalId });
  const out = await m.output({ sessionId: S, terminalId });
  assert.equal(out.truncated, true);
  assert.ok(out.output.endsWith('END'));
  assert.ok(Buffer.byteLength(out.output) <= 1000);
  assert.equal(Buffer.byteLength(out.output), 999, 'cut at the first whole character');
  assert.ok(!out.output.includes('\ufffd'));
});

test('output streams live into the store while the command runs', async () => {
  const { m, store } = setup();
  const { terminalId } = await m.create({ sessionId: S, command: 'echo first; sleep 1; echo second' });
  await until(() => (store.snapshot().terminals[terminalId]?.output ?? '').includes('first'));
  assert.equal(store.snapshot().terminals[terminalId].exited, false, 'still running when the first line is visible');
  await m.waitForExit({ sessionId: S, terminalId });
  assert.equal(store.snapshot().terminals[terminalId].output, 'first\nsecond\n');
});

test(
  'kill of a process that ignores SIGTERM, and its children: SIGTERM then SIGKILL to the group',
  { skip: !posix },
  async () => {
    const { m } = setup(300);
    // The child outlives SIGTERM and says it got it; the leader ignores it.
    const { terminalId } = await m.create({
      sessionId: S,
      command: "(trap 'echo got-term' TERM; while :; do sleep 0.05; done) & trap '' TERM; echo child $!; sleep 30",
    });
    let childPid = 0;
    await until(() => {
      const mm = /child (\d+)/.exec(
        (m as unknown as { terms: Map<string, { buffer: OutputBuffer }> }).terms.get(terminalId)!.buffer.read(false)
          .output,
      );
      if (mm) childPid = Number(mm[1]);
      return childPid > 0;
    });
    await m.kill({ sessionId: S, terminalId });
    assert.equal(processAlive(childPid), false, 'the child that outlived SIGTERM is gone too');
    // Wait after kill: resolves with the signal; output still readable.
    const exit = await m.waitForExit({ sessionId: S, terminalId });
    assert.equal(exit.signal, 'SIGKILL');
    assert.equal(exit.exitCode, null);
    const out = await m.output({ sessionId: S, terminalId });
    assert.match(out.output, /child \d+/);
    assert.match(out.output, /got-term/, 'SIGTERM came first, and the group lived on until SIGKILL');
    assert.equal(out.exitStatus?.signal, 'SIGKILL');
  },
);

test('kill of a well-behaved command is quick (SIGTERM)', { skip: !posix }, async () => {
  const { m, logger } = setup(5000);
  const { terminalId } = await m.create({ sessionId: S, command: 'sleep 30' });
  await m.kill({ sessionId: S, terminalId });
  assert.deepEqual(logger.messages('warn'), [], 'SIGTERM was enough: no wait for the 5 s grace, no SIGKILL');
  assert.deepEqual(await m.waitForExit({ sessionId: S, terminalId }), { exitCode: null, signal: 'SIGTERM' });
});

test('release after exit: output stays in the view, the terminal id is gone', async () => {
  const { m, store } = setup();
  const { terminalId } = await m.create({ sessionId: S, command: 'echo kept' });
  await m.waitForExit({ sessionId: S, terminalId });
  await m.release({ sessionId: S, terminalId });
  const view = store.snapshot().terminals[terminalId];
  assert.equal(view.output, 'kept\n');
  assert.equal(view.released, true);
  assert.equal(view.exitCode, 0);
  await assert.rejects(
    m.output({ sessionId: S, terminalId }),
    (e: unknown) => e instanceof AcpError && e.code === -32602,
  );
});

test('release of a running command kills it; output so far stays', { skip: !posix }, async () => {
  const { m, store } = setup(300);
  const { terminalId } = await m.create({ sessionId: S, command: 'echo started; echo $$; sleep 30' });
  await until(() => /started\n\d+/.test(store.snapshot().terminals[terminalId]?.output ?? ''));
  const pid = Number(/started\n(\d+)/.exec(store.snapshot().terminals[terminalId].output)![1]);
  await m.release({ sessionId: S, terminalId });
  await until(() => !processAlive(pid));
  const view = store.snapshot().terminals[terminalId];
  assert.equal(view.released, true);
  assert.equal(view.exited, true);
  assert.match(view.output, /started/);
});

test('disposing the manager (agent gone) kills running commands', { skip: !posix }, async () => {
  const { m, store } = setup(300);
  const { terminalId } = await m.create({ sessionId: S, command: 'echo $$; sleep 30' });
  await until(() => /\d+/.test(store.snapshot().terminals[terminalId]?.output ?? ''));
  const pid = Number(store.snapshot().terminals[terminalId].output.trim());
  m.dispose();
  await until(() => !processAlive(pid));
});

test('the log masks a secret in a command line; the view shows the command as the agent ran it', async () => {
  const { store, m, logger } = setup();
  const command = 'curl -s -H "Authorization: Bearer abc123secret" http://127.0.0.1:9 || true';
  const { terminalId } = await m.create({ sessionId: S, command });
  await m.waitForExit({ sessionId: S, terminalId });
  const log = logger.messages().join('\n');
  assert.ok(!log.includes('abc123secret'), log);
  assert.match(log, /Authorization: Bearer \*\*\*/);
  assert.equal(store.snapshot().terminals[terminalId]?.command, command);
  m.dispose();
});
