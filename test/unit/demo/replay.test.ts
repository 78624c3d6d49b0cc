import { test, after, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TrafficRecorder } from '../../../src/acp/trafficRecorder';
import { DEMO_CONTENT, DEMO_FILE, DEMO_MARK } from '../../../src/demo/demoFileSteps';
import { AcpTestClient, FULL_CAPS } from './acpTestClient';
import { Peer, demoAgentJs, replayAgentBundle, replayAgentJs, repoRoot, transcriptsDir, type Msg } from './peer';

const peers: Peer[] = [];
const clients: AcpTestClient[] = [];
after(() => {
  peers.forEach((p) => p.kill());
  clients.forEach((c) => c.dispose());
});

function replay(name: string): Peer {
  const p = new Peer([replayAgentJs, join(transcriptsDir, name)]);
  peers.push(p);
  return p;
}

const cwd = '/tmp/tandem-replay-ws';

async function open(p: Peer): Promise<string> {
  const init = await p.request('initialize', {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
  });
  assert.equal(init.result.agentInfo.name, '@zed-industries/claude-code-acp');
  const s = await p.request('session/new', { cwd, mcpServers: [] });
  return s.result.sessionId as string;
}

test('replays the claude-code-acp bash transcript, answering its requests', async () => {
  const p = replay('claude-code-acp-0.16.2-bash.jsonl');
  const asked: Msg[] = [];
  p.onRequest = (m) => {
    asked.push(m);
    switch (m.method) {
      case 'session/request_permission':
        return { outcome: { outcome: 'selected', optionId: 'allow' } };
      case 'terminal/create':
        return { terminalId: 'tandem-term-7' };
      case 'terminal/wait_for_exit':
        return { exitCode: 0, signal: null };
      case 'terminal/output':
        return { output: 'hi\nerr\n', truncated: false, exitStatus: { exitCode: 0, signal: null } };
      default:
        return {};
    }
  };
  const sid = await open(p);
  await p.waitFor((m) => m.params?.update?.sessionUpdate === 'available_commands_update');
  const r = await p.request('session/prompt', { sessionId: sid, prompt: [{ type: 'text', text: 'bash' }] });
  assert.deepEqual(r.result, { stopReason: 'end_turn' });
  assert.deepEqual(
    asked.map((m) => m.method),
    ['session/request_permission', 'terminal/create', 'terminal/wait_for_exit', 'terminal/output', 'terminal/release'],
  );
  assert.deepEqual(
    asked.map((m) => m.id),
    [0, 1, 2, 3, 4],
  );
  // the client's terminal id replaces the recorded one everywhere after terminal/create
  for (const m of asked.slice(2)) assert.equal(m.params.terminalId, 'tandem-term-7');
  const term = p.updates('tool_call_update').find((u) => u.content?.[0]?.type === 'terminal');
  assert.deepEqual(term.content, [{ type: 'terminal', terminalId: 'tandem-term-7' }]);
  assert.equal(p.updates('tool_call').length, 2);
  assert.equal(
    p
      .updates('agent_message_chunk')
      .map((u) => u.content.text)
      .join(''),
    'Running a command.The command printed hi.',
  );
  assert.ok(p.received.filter((m) => m.method === 'session/update').every((m) => m.params.sessionId === sid));
});

test('recorded paths are rebased onto the client cwd (claude-code-acp read transcript)', async () => {
  const p = replay('claude-code-acp-0.16.2-read.jsonl');
  const reads: Msg[] = [];
  p.onRequest = (m) => {
    reads.push(m);
    return { content: 'hello from the client\n' };
  };
  const sid = await open(p);
  const r = await p.request('session/prompt', { sessionId: sid, prompt: [{ type: 'text', text: 'read hello.txt' }] });
  assert.equal(r.result.stopReason, 'end_turn');
  assert.equal(reads.length, 1);
  assert.equal(reads[0].method, 'fs/read_text_file');
  assert.equal(reads[0].params.path, `${cwd}/hello.txt`);
  const locations = p.updates().flatMap((u) => u.locations ?? []);
  assert.ok(locations.length > 0);
  for (const l of locations) assert.equal(l.path, `${cwd}/hello.txt`);
  assert.ok(!JSON.stringify(p.received).includes('/home/user/project'));
});

test('session/cancel during a replayed prompt answers cancelled', async () => {
  const p = replay('claude-code-acp-0.16.2-bash.jsonl');
  p.onRequest = () => undefined; // leave the permission prompt open
  const sid = await open(p);
  const answer = p.request('session/prompt', { sessionId: sid, prompt: [{ type: 'text', text: 'bash' }] });
  await p.waitFor((m) => m.method === 'session/request_permission');
  p.notify('session/cancel', { sessionId: sid });
  assert.deepEqual((await answer).result, { stopReason: 'cancelled' });
  assert.equal(p.received.filter((m) => m.method === 'terminal/create').length, 0);
});

test('every copied transcript replays to its recorded stop reason', async () => {
  for (const name of [
    'claude-agent-acp-0.100.0-bash.jsonl',
    'claude-agent-acp-0.100.0-edit.jsonl',
    'claude-code-acp-0.16.2-edit.jsonl',
    'gemini-cli-0.61.0-edit.jsonl',
  ]) {
    const p = replay(name);
    p.onRequest = (m) => {
      if (m.method === 'session/request_permission')
        return { outcome: { outcome: 'selected', optionId: m.params.options[0].optionId } };
      if (m.method === 'fs/read_text_file') return { content: 'hello world\nsecond line\n' };
      return {};
    };
    await p.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
    });
    const s = await p.request('session/new', { cwd, mcpServers: [] });
    const r = await p.request('session/prompt', {
      sessionId: s.result.sessionId,
      prompt: [{ type: 'text', text: 'go' }],
    });
    assert.equal(r.result?.stopReason, 'end_turn', name);
    assert.ok(!JSON.stringify(p.received).includes('/home/user/project'), name);
    p.kill();
  }
});

// ---------------------------------------------------------------- the bundled replay agent (dist/replay-agent.js)

function bundled(t: TestContext, args: string[], cwd?: string): Peer | undefined {
  if (!existsSync(replayAgentBundle)) {
    t.skip('dist/replay-agent.js not built (node esbuild.mjs)');
    return undefined;
  }
  const p = new Peer([replayAgentBundle, ...args], {}, cwd);
  peers.push(p);
  return p;
}

test('dist/replay-agent.js plays a transcript from test/fixtures/acp-transcripts as an agent', async (t) => {
  const p = bundled(t, [join(transcriptsDir, 'claude-code-acp-0.16.2-bash.jsonl'), '--time-scale', '0']);
  if (!p) return;
  const asked: Msg[] = [];
  p.onRequest = (m) => {
    asked.push(m);
    if (m.method === 'session/request_permission') return { outcome: { outcome: 'selected', optionId: 'allow' } };
    if (m.method === 'terminal/create') return { terminalId: 'tandem-term-1' };
    if (m.method === 'terminal/wait_for_exit') return { exitCode: 0, signal: null };
    if (m.method === 'terminal/output')
      return { output: 'hi\n', truncated: false, exitStatus: { exitCode: 0, signal: null } };
    return {};
  };
  const sid = await open(p);
  const r = await p.request('session/prompt', { sessionId: sid, prompt: [{ type: 'text', text: 'bash' }] });
  assert.deepEqual(r.result, { stopReason: 'end_turn' });
  assert.deepEqual(
    asked.map((m) => m.method),
    ['session/request_permission', 'terminal/create', 'terminal/wait_for_exit', 'terminal/output', 'terminal/release'],
  );
  assert.ok(asked.slice(2).every((m) => m.params.terminalId === 'tandem-term-1'));
  assert.equal(
    p
      .updates('agent_message_chunk')
      .map((u) => u.content.text)
      .join(''),
    'Running a command.The command printed hi.',
  );
});

test('record a demo session with the traffic recorder, replay it with the bundle in another workspace', async (t) => {
  if (!existsSync(replayAgentBundle)) {
    t.skip('dist/replay-agent.js not built (node esbuild.mjs)');
    return;
  }
  const readme = join(repoRoot, 'test/fixtures/workspace/README.md');
  const wsA = mkdtempSync(join(tmpdir(), 'tandem-rec-a-'));
  const wsB = mkdtempSync(join(tmpdir(), 'tandem-rec-b-'));
  const recDir = mkdtempSync(join(tmpdir(), 'tandem-rec-'));
  t.after(() => [wsA, wsB, recDir].forEach((d) => rmSync(d, { recursive: true, force: true })));
  copyFileSync(readme, join(wsA, 'README.md'));
  copyFileSync(readme, join(wsB, 'README.md'));
  const file = join(recDir, 'demo.jsonl');

  // 1. Record: the demo agent and a client, every message through TrafficRecorder.
  const recorder = new TrafficRecorder(file, (err) => {
    throw err;
  });
  const demo = new Peer([demoAgentJs], { TANDEM_DEMO_TIME_SCALE: '0' });
  peers.push(demo);
  const send = demo.send.bind(demo);
  demo.send = (m) => {
    recorder.record('out', m);
    send(m);
  };
  let buf = '';
  demo.child.stdout.on('data', (d: string) => {
    buf += d;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (line.trim()) recorder.record('in', JSON.parse(line));
    }
  });
  const rc = new AcpTestClient(demo);
  clients.push(rc);
  await demo.request('initialize', { protocolVersion: 1, clientCapabilities: FULL_CAPS });
  const s = await demo.request('session/new', { cwd: wsA, mcpServers: [] });
  assert.equal(
    (
      await demo.request(
        'session/prompt',
        { sessionId: s.result.sessionId, prompt: [{ type: 'text', text: 'record me' }] },
        15000,
      )
    ).result.stopReason,
    'end_turn',
  );
  demo.kill();
  await recorder.close();
  assert.ok(readFileSync(file, 'utf8').includes(wsA));

  // 2. Replay in workspace B, paced (time scale 1, gaps capped at 20 ms).
  const p = bundled(t, [file, '--time-scale', '1', '--max-gap-ms', '20']);
  if (!p) return;
  const c = new AcpTestClient(p);
  clients.push(c);
  c.permission = (m) => m.params.options[1].optionId;
  const init = await p.request('initialize', { protocolVersion: 1, clientCapabilities: FULL_CAPS });
  assert.equal(init.result.agentInfo.name, 'tandem-demo');
  const s2 = await p.request('session/new', { cwd: wsB, mcpServers: [] });
  assert.equal(s2.result.sessionId, s.result.sessionId, 'the recorded answer');
  const r = await p.request(
    'session/prompt',
    { sessionId: s2.result.sessionId, prompt: [{ type: 'text', text: 'anything' }] },
    15000,
  );
  assert.deepEqual(r.result, { stopReason: 'end_turn' });
  assert.deepEqual(c.methods(), rc.methods(), 'the same requests reach the client');
  assert.equal(c.asked.find((m) => m.method === 'fs/read_text_file')!.params.path, join(wsB, 'README.md'));
  assert.equal(c.asked.find((m) => m.method === 'terminal/create')!.params.cwd, wsB);
  assert.equal(
    readFileSync(join(wsB, DEMO_FILE), 'utf8'),
    DEMO_CONTENT + DEMO_MARK,
    'the replayed writes land in workspace B',
  );
  assert.ok(!JSON.stringify(p.received).includes(wsA), 'no path of workspace A is left');
  assert.deepEqual(
    p.updates('tool_call').map((u) => u.kind),
    ['read', 'edit', 'edit', 'execute', 'other'],
  );
});

test('dist/replay-agent.js: a cut-off last line is skipped; a missing file or a non-recording exits 2', async (t) => {
  if (!existsSync(replayAgentBundle)) {
    t.skip('dist/replay-agent.js not built (node esbuild.mjs)');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'tandem-replay-bad-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const cut = join(dir, 'cut.jsonl');
  writeFileSync(
    cut,
    readFileSync(join(transcriptsDir, 'claude-code-acp-0.16.2-read.jsonl'), 'utf8') +
      '{"ms":99999,"dir":"a->c","msg":{"jsonr',
  );
  const p = bundled(t, [cut, '--time-scale', '0'])!;
  p.onRequest = () => ({ content: 'x\n' });
  const sid = await open(p);
  assert.equal(
    (await p.request('session/prompt', { sessionId: sid, prompt: [{ type: 'text', text: 'read' }] })).result.stopReason,
    'end_turn',
  );
  assert.match(p.stderr, /skipped 1 line\(s\)/);

  const missing = bundled(t, [join(dir, 'nope.jsonl')])!;
  assert.equal((await missing.waitExit()).code, 2);
  assert.match(missing.stderr, /cannot read/);
  const notRec = join(dir, 'not.jsonl');
  writeFileSync(notRec, '{"hello":1}\n');
  const bad = bundled(t, [notRec])!;
  assert.equal((await bad.waitExit()).code, 2);
  assert.match(bad.stderr, /not an ACP recording/);
  const usage = bundled(t, [])!;
  assert.equal((await usage.waitExit()).code, 2);
  assert.match(usage.stderr, /usage: replay-agent/);
});
