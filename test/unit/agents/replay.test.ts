import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Peer, replayAgentJs, transcriptsDir, type Msg } from './peer';

const peers: Peer[] = [];
after(() => peers.forEach((p) => p.kill()));

function replay(name: string): Peer {
  const p = new Peer([replayAgentJs, join(transcriptsDir, name)]);
  peers.push(p);
  return p;
}

const cwd = '/tmp/tandem-replay-ws';

async function open(p: Peer): Promise<string> {
  const init = await p.request('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true } });
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
      case 'session/request_permission': return { outcome: { outcome: 'selected', optionId: 'allow' } };
      case 'terminal/create': return { terminalId: 'tandem-term-7' };
      case 'terminal/wait_for_exit': return { exitCode: 0, signal: null };
      case 'terminal/output': return { output: 'hi\nerr\n', truncated: false, exitStatus: { exitCode: 0, signal: null } };
      default: return {};
    }
  };
  const sid = await open(p);
  await p.waitFor((m) => m.params?.update?.sessionUpdate === 'available_commands_update');
  const r = await p.request('session/prompt', { sessionId: sid, prompt: [{ type: 'text', text: 'bash' }] });
  assert.deepEqual(r.result, { stopReason: 'end_turn' });
  assert.deepEqual(asked.map((m) => m.method), ['session/request_permission', 'terminal/create', 'terminal/wait_for_exit', 'terminal/output', 'terminal/release']);
  assert.deepEqual(asked.map((m) => m.id), [0, 1, 2, 3, 4]);
  // the client's terminal id replaces the recorded one everywhere after terminal/create
  for (const m of asked.slice(2)) assert.equal(m.params.terminalId, 'tandem-term-7');
  const term = p.updates('tool_call_update').find((u) => u.content?.[0]?.type === 'terminal');
  assert.deepEqual(term.content, [{ type: 'terminal', terminalId: 'tandem-term-7' }]);
  assert.equal(p.updates('tool_call').length, 2);
  assert.equal(p.updates('agent_message_chunk').map((u) => u.content.text).join(''), 'Running a command.The command printed hi.');
  assert.ok(p.received.filter((m) => m.method === 'session/update').every((m) => m.params.sessionId === sid));
});

test('recorded paths are rebased onto the client cwd (claude-code-acp read transcript)', async () => {
  const p = replay('claude-code-acp-0.16.2-read.jsonl');
  const reads: Msg[] = [];
  p.onRequest = (m) => { reads.push(m); return { content: 'hello from the client\n' }; };
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
  for (const name of ['claude-agent-acp-0.100.0-bash.jsonl', 'claude-agent-acp-0.100.0-edit.jsonl', 'claude-code-acp-0.16.2-edit.jsonl', 'gemini-cli-0.61.0-edit.jsonl']) {
    const p = replay(name);
    p.onRequest = (m) => {
      if (m.method === 'session/request_permission') return { outcome: { outcome: 'selected', optionId: m.params.options[0].optionId } };
      if (m.method === 'fs/read_text_file') return { content: 'hello world\nsecond line\n' };
      return {};
    };
    await p.request('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true } });
    const s = await p.request('session/new', { cwd, mcpServers: [] });
    const r = await p.request('session/prompt', { sessionId: s.result.sessionId, prompt: [{ type: 'text', text: 'go' }] });
    assert.equal(r.result?.stopReason, 'end_turn', name);
    assert.ok(!JSON.stringify(p.received).includes('/home/user/project'), name);
    p.kill();
  }
});
