import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Peer, demoAgentJs, repoRoot } from './peer';
import { findWorkspaceFile } from '../../../src/demo/scriptedAgent';

const workspace = join(repoRoot, 'test/fixtures/workspace');
const peers: Peer[] = [];
const empty = mkdtempSync(join(tmpdir(), 'tandem-demo-empty-'));
after(() => { peers.forEach((p) => p.kill()); rmSync(empty, { recursive: true, force: true }); });

function demo(timeScale = '0'): Peer {
  const p = new Peer([demoAgentJs], { TANDEM_DEMO_TIME_SCALE: timeScale });
  peers.push(p);
  return p;
}

async function open(p: Peer, cwd: string): Promise<string> {
  const init = await p.request('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true } });
  assert.equal(init.result.agentInfo.name, 'tandem-demo');
  assert.deepEqual(init.result.authMethods, []);
  const s = await p.request('session/new', { cwd, mcpServers: [] });
  return s.result.sessionId as string;
}

test('a full demo turn: answer, thought, plan, read/edit/execute tool calls, end_turn', async () => {
  const p = demo();
  p.onRequest = () => { throw new Error('the demo must not call the client'); };
  const sid = await open(p, workspace);
  const r = await p.request('session/prompt', { sessionId: sid, prompt: [{ type: 'text', text: 'Fix the bug please' }] });
  assert.deepEqual(r.result, { stopReason: 'end_turn' });
  const answer = p.updates('agent_message_chunk').map((u) => u.content.text).join('');
  assert.match(answer, /Tandem demo agent/);
  assert.match(answer, /> Fix the bug please/);
  assert.ok(p.updates('agent_thought_chunk').length > 0);
  const plans = p.updates('plan');
  assert.ok(plans.length >= 3);
  assert.ok(plans.every((u) => u.entries.length === 3));
  assert.deepEqual(plans.at(-1).entries.map((e: { status: string }) => e.status), ['completed', 'completed', 'completed']);
  const calls = p.updates('tool_call');
  assert.deepEqual(calls.map((c) => c.kind), ['read', 'edit', 'execute']);
  const readme = join(workspace, 'README.md');
  assert.deepEqual(calls[0].locations, [{ path: readme, line: 1 }]);
  const diff = calls[1].content[0];
  assert.equal(diff.type, 'diff');
  assert.equal(diff.path, readme);
  assert.ok(readFileSync(readme, 'utf8').startsWith(diff.oldText), 'oldText is the real start of the file');
  assert.notEqual(diff.newText, diff.oldText);
  const done = p.updates('tool_call_update').filter((u) => u.status === 'completed').map((u) => u.toolCallId);
  assert.deepEqual(done, calls.map((c) => c.toolCallId));
  assert.ok(p.received.filter((m) => m.method === 'session/update').every((m) => m.params.sessionId === sid));
  // a second prompt gets fresh tool-call ids
  await p.request('session/prompt', { sessionId: sid, prompt: [{ type: 'text', text: 'again' }] });
  const ids = p.updates('tool_call').map((c) => c.toolCallId);
  assert.equal(new Set(ids).size, 6);
});

test('cancel is prompt at normal speed', async () => {
  const p = demo('1');
  const sid = await open(p, workspace);
  const answer = p.request('session/prompt', { sessionId: sid, prompt: [{ type: 'text', text: 'hello' }] }, 10000);
  await p.waitFor((m) => m.params?.update?.sessionUpdate === 'agent_message_chunk');
  const t0 = Date.now();
  p.notify('session/cancel', { sessionId: sid });
  const r = await answer;
  assert.equal(r.result.stopReason, 'cancelled');
  assert.ok(Date.now() - t0 < 500, `took ${Date.now() - t0} ms`);
});

test('an empty workspace still gets a diff (new file, oldText null)', async () => {
  assert.deepEqual(findWorkspaceFile(empty), { file: 'README.md', path: join(empty, 'README.md'), exists: false, head: '', oldText: null });
  const p = demo();
  const sid = await open(p, empty);
  const r = await p.request('session/prompt', { sessionId: sid, prompt: [{ type: 'text', text: 'x' }] });
  assert.equal(r.result.stopReason, 'end_turn');
  const edit = p.updates('tool_call').find((c) => c.kind === 'edit');
  assert.equal(edit.content[0].oldText, null);
});
