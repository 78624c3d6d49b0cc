// The built-in demo agent driven over stdio by a small ACP client (acpTestClient.ts) that
// implements fs, terminals, permission and serves Tandem's real MCP server.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_CONTENT, DEMO_FILE, DEMO_MARK } from '../../../src/demo/demoFileSteps';
import { findWorkspaceFile } from '../../../src/demo/scriptedAgent';
import { AcpTestClient, FULL_CAPS, tandemMcpServer } from './acpTestClient';
import { Peer, demoAgentBundle, demoAgentJs, repoRoot } from './peer';
import { until } from '../../support/until';

const peers: Peer[] = [];
const clients: AcpTestClient[] = [];
const dirs: string[] = [];
const cleanups: Array<() => void> = [];
after(() => {
  peers.forEach((p) => p.kill());
  clients.forEach((c) => c.dispose());
  cleanups.forEach((f) => f());
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

/** A fresh workspace with the fixture README (the demo writes tandem-demo.md into it). */
function workspace(withReadme = true): string {
  const d = mkdtempSync(join(tmpdir(), 'tandem-demo-ws-'));
  dirs.push(d);
  if (withReadme) copyFileSync(join(repoRoot, 'test/fixtures/workspace/README.md'), join(d, 'README.md'));
  return d;
}

function demo(timeScale = '0', script = demoAgentJs): { p: Peer; c: AcpTestClient } {
  const p = new Peer([script], { TANDEM_DEMO_TIME_SCALE: timeScale });
  peers.push(p);
  const c = new AcpTestClient(p);
  clients.push(c);
  return { p, c };
}

async function open(
  p: Peer,
  cwd: string,
  clientCapabilities: unknown = FULL_CAPS,
  mcpServers: unknown[] = [],
): Promise<string> {
  const init = await p.request('initialize', { protocolVersion: 1, clientCapabilities });
  assert.equal(init.result.agentInfo.name, 'tandem-demo');
  assert.deepEqual(init.result.authMethods, []);
  assert.deepEqual(init.result.agentCapabilities.mcpCapabilities, { http: true, sse: false });
  assert.equal(init.result.agentCapabilities.loadSession, false);
  const s = await p.request('session/new', { cwd, mcpServers });
  return s.result.sessionId as string;
}

const prompt = (p: Peer, sessionId: string, text: string, timeoutMs = 15000) =>
  p.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] }, timeoutMs);

const text = (u: { content?: Array<{ type: string; content?: { text?: string } }> } | undefined) =>
  (u?.content ?? []).map((c) => c.content?.text ?? '').join('');

async function fullTurn(script: string) {
  const ws = workspace();
  const mcp = await tandemMcpServer();
  cleanups.push(() => mcp.server.dispose());
  const { p, c } = demo('0', script);
  const sid = await open(p, ws, FULL_CAPS, [mcp.entry]);
  const r = await prompt(p, sid, 'Fix the bug please');
  return { ws, mcp, p, c, sid, r };
}

test('a full demo turn: every update kind, real fs, permission, terminal and an MCP client-tool call', async () => {
  const { ws, mcp, p, c, sid, r } = await fullTurn(demoAgentJs);
  assert.deepEqual(r.result, { stopReason: 'end_turn' }, p.stderr);
  const demoPath = join(ws, DEMO_FILE);

  // streamed markdown and a thought
  const answer = p
    .updates('agent_message_chunk')
    .map((u) => u.content.text)
    .join('');
  assert.match(answer, /\*\*Tandem demo agent\*\*/);
  assert.match(answer, /> Fix the bug please/);
  assert.ok(p.updates('agent_message_chunk').length > 10, 'streamed in many chunks');
  assert.ok(p.updates('agent_thought_chunk').length > 0);
  // one plan, updated in place until every entry is completed
  const plans = p.updates('plan');
  assert.equal(plans.length, 6);
  assert.ok(
    plans.every(
      (u) =>
        u.entries.length === 5 &&
        JSON.stringify(u.entries.map((e: { content: string }) => e.content)) ===
          JSON.stringify(plans[0].entries.map((e: { content: string }) => e.content)),
    ),
  );
  assert.deepEqual(
    plans[0].entries.map((e: { status: string }) => e.status),
    ['in_progress', 'pending', 'pending', 'pending', 'pending'],
  );
  assert.deepEqual(
    plans.at(-1).entries.map((e: { status: string }) => e.status),
    Array(5).fill('completed'),
  );

  // the tool calls, all completed
  const calls = p.updates('tool_call');
  assert.deepEqual(
    calls.map((t) => [t.kind, t.title]),
    [
      ['read', 'Read README.md'],
      ['edit', `Write ${DEMO_FILE}`],
      ['edit', `Edit ${DEMO_FILE}`],
      ['execute', 'Run a short demo command'],
      ['other', 'IDE · expand the tandem tool group'],
      ['other', `IDE · OpenFile ${DEMO_FILE}:1`],
    ],
  );
  const finalStatus = (id: string) =>
    p
      .updates('tool_call_update')
      .filter((u) => u.toolCallId === id && u.status)
      .at(-1)?.status;
  assert.deepEqual(
    calls.map((t) => finalStatus(t.toolCallId)),
    Array(6).fill('completed'),
  );

  // read: a real fs/read_text_file, with a location, its content shown
  const readme = join(ws, 'README.md');
  assert.deepEqual(calls[0].locations, [{ path: readme, line: 1 }]);
  const read = c.asked.find((m) => m.method === 'fs/read_text_file')!;
  assert.deepEqual(read.params, { sessionId: sid, path: readme, line: 1, limit: 5 });
  const readDone = p
    .updates('tool_call_update')
    .find((u) => u.toolCallId === calls[0].toolCallId && u.status === 'completed');
  assert.match(text(readDone), /# Fixture workspace/);

  // write: creates the demo's own file (diff from null)
  assert.deepEqual(calls[1].content, [{ type: 'diff', path: demoPath, oldText: null, newText: DEMO_CONTENT }]);
  // edit: a diff, a permission prompt with the three options, then the write
  assert.deepEqual(calls[2].content, [
    { type: 'diff', path: demoPath, oldText: DEMO_CONTENT, newText: DEMO_CONTENT + DEMO_MARK },
  ]);
  const perm = c.asked.find((m) => m.method === 'session/request_permission')!;
  assert.equal(perm.params.sessionId, sid);
  assert.equal(perm.params.toolCall.toolCallId, calls[2].toolCallId);
  assert.deepEqual(
    perm.params.options.map((o: { kind: string }) => o.kind),
    ['allow_always', 'allow_once', 'reject_once'],
  );
  const writes = c.asked.filter((m) => m.method === 'fs/write_text_file');
  assert.deepEqual(
    writes.map((m) => [m.params.path, m.params.content]),
    [
      [demoPath, DEMO_CONTENT],
      [demoPath, DEMO_CONTENT + DEMO_MARK],
    ],
  );
  assert.ok(c.asked.indexOf(perm) < c.asked.indexOf(writes[1]), 'the edit is written only after the permission answer');
  assert.equal(readFileSync(demoPath, 'utf8'), DEMO_CONTENT + DEMO_MARK);
  assert.equal(
    readFileSync(readme, 'utf8'),
    readFileSync(join(repoRoot, 'test/fixtures/workspace/README.md'), 'utf8'),
    'the README is untouched',
  );

  // execute: a real process in a client terminal, shown live, then wait/output/release
  assert.deepEqual(
    c.methods().filter((m) => m.startsWith('terminal/')),
    ['terminal/create', 'terminal/wait_for_exit', 'terminal/output', 'terminal/release'],
  );
  const create = c.asked.find((m) => m.method === 'terminal/create')!;
  assert.equal(create.params.cwd, ws);
  assert.equal(create.params.args[0], '-e');
  const [term] = [...c.terminals.values()];
  assert.equal(term.released, true);
  assert.equal(term.exit?.exitCode, 0);
  assert.match(term.output, /Hello from a real process/);
  assert.match(term.output, /\r\[#{20}\] 100%/);
  assert.match(term.output, /README\.md/);
  const live = p
    .updates('tool_call_update')
    .find((u) => u.toolCallId === calls[3].toolCallId && u.content?.[0]?.type === 'terminal');
  assert.deepEqual(live.content, [{ type: 'terminal', terminalId: term.id }]);
  const liveLine = p.rawLines.findIndex((l) => l.includes('"type":"terminal"'));
  const waitLine = p.rawLines.findIndex((l) => l.includes('"terminal/wait_for_exit"'));
  assert.ok(liveLine >= 0 && liveLine < waitLine, 'the terminal is shown before the agent waits for it');
  const execDone = p
    .updates('tool_call_update')
    .filter((u) => u.toolCallId === calls[3].toolCallId)
    .at(-1);
  assert.deepEqual(execDone.rawOutput, { exitCode: 0, signal: null });
  assert.equal(execDone.content, undefined, 'the completion keeps the terminal content');

  // client tool: expand the IDE group, then OpenFile on the demo file at line 1, over MCP
  assert.deepEqual(mcp.opened, [{ path: demoPath, line: 1 }]);
  assert.deepEqual(calls[5].rawInput, { path: demoPath, line: 1 });
  const expandDone = p
    .updates('tool_call_update')
    .find((u) => u.toolCallId === calls[4].toolCallId && u.status === 'completed');
  assert.match(text(expandDone), /IDE expanded/);
  const openDone = p
    .updates('tool_call_update')
    .find((u) => u.toolCallId === calls[5].toolCallId && u.status === 'completed');
  assert.equal(text(openDone), `Opened ${demoPath}`);

  assert.ok(p.received.filter((m) => m.method === 'session/update').every((m) => m.params.sessionId === sid));
});

test('allow_always is remembered for the session; the IDE group stays expanded; fresh tool-call ids', async () => {
  const ws = workspace();
  const mcp = await tandemMcpServer();
  cleanups.push(() => mcp.server.dispose());
  const { p, c } = demo();
  c.permission = () => 'allow_always';
  const sid = await open(p, ws, FULL_CAPS, [mcp.entry]);
  assert.equal((await prompt(p, sid, 'one')).result.stopReason, 'end_turn');
  assert.equal((await prompt(p, sid, 'two')).result.stopReason, 'end_turn');
  assert.equal(c.methods().filter((m) => m === 'session/request_permission').length, 1);
  assert.equal(c.methods().filter((m) => m === 'fs/write_text_file').length, 4);
  const titles = p.updates('tool_call').map((t) => t.title);
  assert.equal(
    titles.filter((t) => t === 'IDE · expand the tandem tool group').length,
    1,
    'the second turn finds OpenFile already listed',
  );
  assert.equal(mcp.opened.length, 2);
  const ids = p.updates('tool_call').map((t) => t.toolCallId);
  assert.equal(new Set(ids).size, ids.length);
  assert.equal(readFileSync(join(ws, DEMO_FILE), 'utf8'), DEMO_CONTENT + DEMO_MARK);
});

test('a rejected edit is not written and the tool call fails', async () => {
  const ws = workspace();
  const { p, c } = demo();
  c.permission = () => 'reject';
  const sid = await open(p, ws);
  assert.equal((await prompt(p, sid, 'x')).result.stopReason, 'end_turn');
  assert.equal(c.methods().filter((m) => m === 'fs/write_text_file').length, 1);
  assert.equal(readFileSync(join(ws, DEMO_FILE), 'utf8'), DEMO_CONTENT);
  const edit = p.updates('tool_call').find((t) => t.title === `Edit ${DEMO_FILE}`);
  const last = p
    .updates('tool_call_update')
    .filter((u) => u.toolCallId === edit.toolCallId)
    .at(-1);
  assert.equal(last.status, 'failed');
  assert.match(text(last), /rejected/);
});

test('cancel while the command runs: the terminal is released (not killed) before the turn answers cancelled', async () => {
  const ws = workspace();
  const { p, c } = demo();
  const sid = await open(p, ws);
  c.onAsked = (m) => {
    if (m.method === 'terminal/wait_for_exit') p.notify('session/cancel', { sessionId: sid });
  };
  const r = await prompt(p, sid, 'go');
  assert.deepEqual(r.result, { stopReason: 'cancelled' });
  const release = await p.waitFor((m) => m.method === 'terminal/release');
  const [term] = [...c.terminals.values()];
  assert.equal(release.params.terminalId, term.id);
  assert.equal(c.methods().includes('terminal/kill'), false);
  const releaseLine = p.rawLines.findIndex((l) => l.includes('"terminal/release"'));
  const answerLine = p.rawLines.findIndex((l) => l.includes('"stopReason":"cancelled"'));
  assert.ok(releaseLine >= 0 && releaseLine < answerLine, 'release goes out before the cancelled answer');
  assert.match(
    p
      .updates('agent_message_chunk')
      .map((u) => u.content.text)
      .join(''),
    /_Stopped\._/,
  );
  // Nothing else happens after the cancel: the released command's end reaches the agent (the
  // answer to its terminal/wait_for_exit), and by the answer to a request sent after it (an
  // unknown method: an error) a turn that went on would have asked for the output.
  await until(() => term.exit !== undefined, 5000, 'the released command to end');
  assert.equal((await p.request('tandem/after-cancel', {})).error?.code, -32601);
  assert.equal(
    p.updates('tool_call').some((t) => t.kind === 'other'),
    false,
  );
  assert.equal(c.methods().filter((m) => m === 'terminal/output').length, 0);
});

test('cancel while terminal/create is unanswered: released as soon as the client answers', async () => {
  const ws = workspace();
  const { p, c } = demo();
  const sid = await open(p, ws);
  let answerCreate!: () => void;
  const origin = p.onRequest;
  p.onRequest = (m) => {
    if (m.method !== 'terminal/create') return origin(m);
    p.notify('session/cancel', { sessionId: sid });
    return new Promise((resolve) => {
      answerCreate = () => resolve({ terminalId: 'late-term' });
    });
  };
  const r = await prompt(p, sid, 'go');
  assert.deepEqual(r.result, { stopReason: 'cancelled' });
  assert.equal(c.methods().includes('terminal/release'), false);
  answerCreate();
  const release = await p.waitFor((m) => m.method === 'terminal/release');
  assert.equal(release.params.terminalId, 'late-term');
});

test('cancel while waiting for the permission answer', async () => {
  const ws = workspace();
  const { p, c } = demo();
  c.permission = () => undefined;
  const sid = await open(p, ws);
  const answer = prompt(p, sid, 'x');
  await p.waitFor((m) => m.method === 'session/request_permission');
  p.notify('session/cancel', { sessionId: sid });
  assert.deepEqual((await answer).result, { stopReason: 'cancelled' });
  assert.equal(readFileSync(join(ws, DEMO_FILE), 'utf8'), DEMO_CONTENT, 'the edit was not written');
});

test('cancel is prompt: the pause the turn is in is cut short', async () => {
  const ws = workspace();
  // Time scale 1000: after its first chunk the demo pauses 15 s, longer than the prompt
  // request's 10 s timeout; the answer comes only if the cancel cuts the pause short.
  const { p } = demo('1000');
  const sid = await open(p, ws);
  const answer = prompt(p, sid, 'hello', 10000);
  await p.waitFor((m) => m.params?.update?.sessionUpdate === 'agent_message_chunk');
  p.notify('session/cancel', { sessionId: sid });
  const r = await answer;
  assert.equal(r.result.stopReason, 'cancelled');
});

test('a client without fs, terminal or MCP server gets simulated content, and nothing is written', async () => {
  const ws = workspace();
  const { p, c } = demo();
  const sid = await open(p, ws, {}, []);
  const r = await prompt(p, sid, 'x');
  assert.equal(r.result.stopReason, 'end_turn');
  assert.deepEqual(
    c.methods(),
    ['session/request_permission'],
    'only the permission prompt (not a capability) goes to the client',
  );
  assert.equal(existsSync(join(ws, DEMO_FILE)), false);
  const calls = p.updates('tool_call');
  assert.deepEqual(
    calls.map((t) => t.kind),
    ['read', 'edit', 'edit', 'execute', 'other'],
  );
  const done = (i: number) =>
    p
      .updates('tool_call_update')
      .filter((u) => u.toolCallId === calls[i].toolCallId)
      .at(-1);
  assert.match(text(done(0)), /# Fixture workspace/);
  assert.match(text(done(0)), /does not offer `fs\/read_text_file`/);
  assert.match(text(done(1)), /\(simulated\)/);
  assert.match(text(done(2)), /\(simulated: nothing was written\)/);
  assert.match(text(done(3)), /\(simulated\) this client offers no terminals/);
  assert.match(calls[4].title, /\(simulated\)/);
  assert.match(text(done(4)), /passed no `tandem` MCP server/);
  assert.ok([0, 1, 2, 3, 4].every((i) => done(i).status === 'completed'));
});

test('an empty workspace: nothing to read, the demo file is still created', async () => {
  const ws = workspace(false);
  assert.deepEqual(findWorkspaceFile(ws), {
    file: 'README.md',
    path: join(ws, 'README.md'),
    exists: false,
    head: '',
    oldText: null,
  });
  const { p, c } = demo();
  const sid = await open(p, ws);
  assert.equal((await prompt(p, sid, 'x')).result.stopReason, 'end_turn');
  assert.equal(c.methods().includes('fs/read_text_file'), false);
  assert.match(text(p.updates('tool_call_update')[0]), /no text file/);
  assert.equal(readFileSync(join(ws, DEMO_FILE), 'utf8'), DEMO_CONTENT + DEMO_MARK);
});

test('an MCP server that cannot be reached: the client-tool call fails, the turn ends normally', async () => {
  const ws = workspace();
  const mcp = await tandemMcpServer();
  const { p } = demo();
  const entry = { ...(mcp.entry as object), headers: [{ name: 'Authorization', value: 'Bearer wrong' }] };
  const sid = await open(p, ws, FULL_CAPS, [entry]);
  const r = await prompt(p, sid, 'x');
  mcp.server.dispose();
  assert.equal(r.result.stopReason, 'end_turn');
  const open1 = p.updates('tool_call').at(-1);
  assert.equal(open1.title, `IDE · OpenFile ${DEMO_FILE}:1`);
  assert.equal(open1.status, 'failed');
  assert.match(text(open1), /Could not reach the tandem MCP server/);
  assert.deepEqual(mcp.opened, []);
});

test('the bundled dist/demo-agent.js (what the extension runs) does the full turn, MCP SDK included', async (t) => {
  if (!existsSync(demoAgentBundle)) {
    t.skip('dist/demo-agent.js not built (node esbuild.mjs)');
    return;
  }
  const { mcp, p, c, r } = await fullTurn(demoAgentBundle);
  assert.deepEqual(r.result, { stopReason: 'end_turn' }, p.stderr);
  assert.equal(mcp.opened.length, 1);
  assert.deepEqual(
    c.methods().filter((m) => m.startsWith('terminal/')),
    ['terminal/create', 'terminal/wait_for_exit', 'terminal/output', 'terminal/release'],
  );
});
