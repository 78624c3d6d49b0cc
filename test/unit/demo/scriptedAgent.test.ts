import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentScript } from '../../../src/demo/scriptTypes';
import { Peer, scriptedAgentJs } from './peer';

const dir = mkdtempSync(join(tmpdir(), 'tandem-scripted-'));
const peers: Peer[] = [];
after(() => {
  peers.forEach((p) => p.kill());
  rmSync(dir, { recursive: true, force: true });
});

let fileNo = 0;
function start(script: AgentScript | string, ext = 'json'): Peer {
  const file = join(dir, `s${fileNo++}.${ext}`);
  writeFileSync(file, typeof script === 'string' ? script : JSON.stringify(script));
  const p = new Peer([scriptedAgentJs, file]);
  peers.push(p);
  return p;
}

async function handshake(p: Peer, cwd = dir): Promise<string> {
  const init = await p.request('initialize', {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: true }, terminal: true },
  });
  assert.equal(init.result.protocolVersion, 1);
  const s = await p.request('session/new', { cwd, mcpServers: [] });
  return s.result.sessionId as string;
}

const prompt = (p: Peer, sessionId: string, text: string, timeoutMs?: number) =>
  p.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] }, timeoutMs);

test('initialize, session/new and a prompt with updates', async () => {
  const p = start({
    initialize: {
      agentCapabilities: { loadSession: true, promptCapabilities: { image: true } },
      authMethods: [{ id: 'login', name: 'Log in' }],
      agentInfo: { name: 'fake', version: '9' },
    },
    newSession: {
      sessionId: 'S-${n}',
      modes: {
        currentModeId: 'ask',
        availableModes: [
          { id: 'ask', name: 'Ask' },
          { id: 'code', name: 'Code' },
        ],
      },
      after: [
        {
          update: {
            sessionUpdate: 'available_commands_update',
            availableCommands: [{ name: 'hi', description: 'says hi', input: null }],
          },
        },
      ],
    },
    prompts: [
      {
        steps: [
          { stream: 'Hello there, ${promptLine}!', chunk: 5 },
          {
            update: {
              sessionUpdate: 'tool_call',
              toolCallId: 'c1',
              title: 'Read',
              kind: 'read',
              status: 'pending',
              locations: [{ path: '${cwd}/a.txt' }],
            },
          },
          { update: { sessionUpdate: 'plan', entries: [{ content: 'one', priority: 'high', status: 'pending' }] } },
        ],
        stopReason: 'max_tokens',
      },
    ],
  });
  const init = await p.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
  assert.deepEqual(init.result, {
    protocolVersion: 1,
    agentCapabilities: { loadSession: true, promptCapabilities: { image: true } },
    authMethods: [{ id: 'login', name: 'Log in' }],
    agentInfo: { name: 'fake', version: '9' },
  });
  const s = await p.request('session/new', { cwd: '/w', mcpServers: [] });
  assert.equal(s.result.sessionId, 'S-1');
  assert.equal(s.result.modes.currentModeId, 'ask');
  await p.waitFor((m) => m.params?.update?.sessionUpdate === 'available_commands_update');
  const r = await prompt(p, 'S-1', 'you');
  assert.deepEqual(r.result, { stopReason: 'max_tokens' });
  const text = p
    .updates('agent_message_chunk')
    .map((u) => u.content.text)
    .join('');
  assert.equal(text, 'Hello there, you!');
  assert.equal(p.updates('agent_message_chunk').length, 4);
  assert.deepEqual(p.updates('tool_call')[0].locations, [{ path: '/w/a.txt' }]);
  assert.ok(p.received.filter((m) => m.method === 'session/update').every((m) => m.params.sessionId === 'S-1'));
  // set_mode is built in: answers and sends current_mode_update
  const sm = await p.request('session/set_mode', { sessionId: 'S-1', modeId: 'code' });
  assert.deepEqual(sm.result, {});
  await p.waitFor(
    (m) => m.params?.update?.sessionUpdate === 'current_mode_update' && m.params.update.currentModeId === 'code',
  );
  const unknown = await p.request('nope/nothing', {});
  assert.equal(unknown.error.code, -32601);
});

test('request round trips: answers are stored, substituted and branched on', async () => {
  const p = start({
    prompts: [
      {
        steps: [
          {
            request: 'session/request_permission',
            as: 'perm',
            params: {
              sessionId: '${sessionId}',
              toolCall: { toolCallId: 't1', title: 'Run' },
              options: [
                { optionId: 'yes', name: 'Yes', kind: 'allow_once' },
                { optionId: 'no', name: 'No', kind: 'reject_once' },
              ],
            },
          },
          {
            branch: 'perm.outcome.optionId',
            cases: {
              yes: [
                {
                  request: 'terminal/create',
                  as: 'term',
                  params: { sessionId: '${sessionId}', command: 'echo', args: ['hi'] },
                },
                {
                  update: {
                    sessionUpdate: 'tool_call_update',
                    toolCallId: 't1',
                    status: 'in_progress',
                    content: [{ type: 'terminal', terminalId: '${term.terminalId}' }],
                  },
                },
                {
                  request: 'terminal/wait_for_exit',
                  as: 'done',
                  params: { sessionId: '${sessionId}', terminalId: '${term.terminalId}' },
                },
                {
                  update: {
                    sessionUpdate: 'tool_call_update',
                    toolCallId: 't1',
                    status: 'completed',
                    rawOutput: '${done}',
                  },
                },
              ],
            },
            else: [{ stop: 'refusal' }],
          },
        ],
      },
      {
        match: 'second',
        steps: [
          { request: 'fs/read_text_file', as: 'f', params: { sessionId: '${sessionId}', path: '/x' } },
          { stream: 'got ${f.content}' },
        ],
      },
    ],
  });
  p.onRequest = (m) => {
    if (m.method === 'session/request_permission') return { outcome: { outcome: 'selected', optionId: 'yes' } };
    if (m.method === 'terminal/create') return { terminalId: 'term-42' };
    if (m.method === 'terminal/wait_for_exit') return { exitCode: 0, signal: null };
    if (m.method === 'fs/read_text_file') return { content: 'FILE' };
    return {};
  };
  const sid = await handshake(p);
  // "second" is matched by text even though it is listed second
  const r0 = await prompt(p, sid, 'the second one');
  assert.equal(r0.result.stopReason, 'end_turn');
  assert.equal(
    p
      .updates('agent_message_chunk')
      .map((u) => u.content.text)
      .join(''),
    'got FILE',
  );
  const r = await prompt(p, sid, 'go');
  assert.equal(r.result.stopReason, 'end_turn');
  const reqs = p.received.filter((m) => m.method && m.id !== undefined);
  assert.deepEqual(
    reqs.map((m) => m.method),
    ['fs/read_text_file', 'session/request_permission', 'terminal/create', 'terminal/wait_for_exit'],
  );
  assert.deepEqual(
    reqs.map((m) => m.id),
    [0, 1, 2, 3],
    'agent ids start at 0',
  );
  assert.equal(reqs[3].params.terminalId, 'term-42');
  const ups = p.updates('tool_call_update');
  assert.deepEqual(ups[0].content, [{ type: 'terminal', terminalId: 'term-42' }]);
  assert.deepEqual(ups[1].rawOutput, { exitCode: 0, signal: null }, 'whole-string substitution keeps the object');
});

test('session/cancel stops the steps and answers cancelled, running onCancel', async () => {
  const p = start({
    prompts: [
      { steps: [{ stream: 'working' }, { sleep: 30000 }, { stream: 'never' }], onCancel: [{ stream: 'stopped' }] },
      { steps: [{ hang: true }] },
    ],
  });
  const sid = await handshake(p);
  // The answer must come within the request's 3 s timeout: the 30 s sleep is cut short.
  const answer = prompt(p, sid, 'long', 3000);
  await p.waitFor((m) => m.params?.update?.content?.text === 'working');
  p.notify('session/cancel', { sessionId: sid });
  const r = await answer;
  assert.equal(r.result.stopReason, 'cancelled');
  const texts = p.updates('agent_message_chunk').map((u) => u.content.text);
  assert.deepEqual(texts, ['working', 'stopped']);
  // hang: no answer until cancelled
  const hung = prompt(p, sid, 'hang', 3000);
  // A request sent after the prompt is answered after the agent took the prompt (an unknown
  // method: an error): by then a prompt that did not hang would have been answered too.
  assert.equal((await p.request('tandem/after-prompt', {})).error?.code, -32601);
  assert.equal(p.received.filter((m) => m.result?.stopReason).length, 1);
  p.notify('session/cancel', { sessionId: sid });
  assert.equal((await hung).result.stopReason, 'cancelled');
});

test('cancel while waiting for a permission answer', async () => {
  const p = start({
    prompts: [
      {
        steps: [
          {
            request: 'session/request_permission',
            as: 'perm',
            params: { sessionId: '${sessionId}', toolCall: { toolCallId: 'x' }, options: [] },
          },
          { stream: 'after' },
        ],
      },
    ],
  });
  p.onRequest = () => undefined; // never answer
  const sid = await handshake(p);
  const answer = prompt(p, sid, 'go');
  await p.waitFor((m) => m.method === 'session/request_permission');
  p.notify('session/cancel', { sessionId: sid });
  assert.equal((await answer).result.stopReason, 'cancelled');
  assert.equal(p.updates('agent_message_chunk').length, 0);
});

test('crash exits with the code at once; stderr step writes to stderr', async () => {
  const p = start({
    prompts: [{ steps: [{ stream: 'about to crash' }, { stderr: 'fatal: simulated crash' }, { crash: 7 }] }],
  });
  const sid = await handshake(p);
  await assert.rejects(prompt(p, sid, 'x'), /exited \(7\)/);
  assert.equal((await p.waitExit()).code, 7);
  assert.match(p.stderr, /fatal: simulated crash/);
});

test('exit during initialize: no answer, exit code', async () => {
  const p = start({ initialize: { steps: [{ stderr: 'cannot start: no credentials' }, { exit: 3 }] } });
  await assert.rejects(p.request('initialize', { protocolVersion: 1 }), /exited \(3\)/);
  assert.match(p.stderr, /no credentials/);
});

test('garbage: invalid JSON, non-JSON-RPC, binary and a huge line, then valid traffic again', async () => {
  const p = start({
    prompts: [
      {
        steps: [
          { garbage: 'invalid-json' },
          { garbage: 'not-jsonrpc' },
          { garbage: 'binary' },
          { garbage: 'huge-line', bytes: 2_000_000 },
          { stream: 'still alive' },
        ],
      },
    ],
  });
  const sid = await handshake(p);
  const r = await prompt(p, sid, 'x');
  assert.equal(r.result.stopReason, 'end_turn');
  assert.ok(
    p.rawLines.some(
      (l) => l.startsWith('{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":') && !l.endsWith('}'),
    ),
  );
  assert.ok(p.rawLines.includes('{"hello":"world"}'));
  const huge = p.rawLines.find((l) => l.length > 1_000_000)!;
  assert.ok(Math.abs(huge.length + 1 - 2_000_000) < 10);
  assert.equal(JSON.parse(huge).params.update.sessionUpdate, 'agent_message_chunk');
  assert.ok(p.updates('agent_message_chunk').some((u) => u.content.text === 'still alive'));
  // The agent answers a parse error for garbage the client sends.
  p.child.stdin.write('this is not json\n');
  const err = await p.waitFor((m) => m.error?.code === -32700);
  assert.equal(err.id, null);
});

test('flood: N tool calls completed later, interleaved with M chunks', async () => {
  const p = start({ prompts: [{ steps: [{ flood: { toolCalls: 50, chunks: 200, lag: 3 } }] }] });
  const sid = await handshake(p);
  const r = await prompt(p, sid, 'flood');
  assert.equal(r.result.stopReason, 'end_turn');
  const ups = p.updates();
  assert.equal(ups.filter((u) => u.sessionUpdate === 'tool_call').length, 50);
  assert.equal(ups.filter((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed').length, 50);
  assert.equal(ups.filter((u) => u.sessionUpdate === 'agent_message_chunk').length, 200);
  // every completion comes after its start, and some start after others complete (interleaved)
  const idx = (kind: string, id: string) => ups.findIndex((u) => u.sessionUpdate === kind && u.toolCallId === id);
  for (let i = 0; i < 50; i++) assert.ok(idx('tool_call', `flood-1-${i}`) < idx('tool_call_update', `flood-1-${i}`));
  assert.ok(idx('tool_call_update', 'flood-1-0') < idx('tool_call', 'flood-1-10'));
});

test('JSONL script: a $script header and one step per line', async () => {
  const p = start(
    [
      JSON.stringify({ $script: { newSession: { sessionId: 'jl' } } }),
      JSON.stringify({ stream: 'a' }),
      JSON.stringify({ update: { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hmm' } } }),
      JSON.stringify({ stop: 'refusal' }),
      JSON.stringify({ stream: 'not reached' }),
    ].join('\n'),
    'jsonl',
  );
  const sid = await handshake(p);
  assert.equal(sid, 'jl');
  const r = await prompt(p, sid, 'x');
  assert.equal(r.result.stopReason, 'refusal');
  assert.deepEqual(
    p.updates().map((u) => u.sessionUpdate),
    ['agent_message_chunk', 'agent_thought_chunk'],
  );
});

test('custom handlers, fail steps and errors in session/new', async () => {
  const p = start({
    newSession: { error: { code: -32000, message: 'Authentication required' } },
    handlers: {
      authenticate: { steps: [{ stderr: 'auth!' }], result: { ok: '${params.methodId}' } },
      'session/list': { steps: [{ fail: { code: -32603, message: 'nope' } }] },
    },
  });
  await p.request('initialize', { protocolVersion: 1 });
  const s = await p.request('session/new', { cwd: dir, mcpServers: [] });
  assert.equal(s.error.code, -32000);
  const a = await p.request('authenticate', { methodId: 'login' });
  assert.deepEqual(a.result, { ok: 'login' });
  const l = await p.request('session/list', {});
  assert.deepEqual(l.error, { code: -32603, message: 'nope' });
});

test('the agent exits when the client closes stdin', async () => {
  const p = start({});
  await p.request('initialize', { protocolVersion: 1 });
  p.child.stdin.end();
  assert.equal((await p.waitExit()).code, 0);
});

test('if / set / vars / files: conditions on capabilities, variables kept across the turns of a session', async () => {
  writeFileSync(join(dir, 'owned.txt'), 'mine\n');
  const p = start({
    vars: { greeting: 'hello' },
    files: { owned: 'owned.txt', missing: 'nope/none.txt' },
    defaultPrompt: {
      steps: [
        { if: 'client.clientCapabilities.terminal', then: [{ stream: 'T' }], else: [{ stream: 't' }] },
        {
          if: ['client.clientCapabilities.fs', '!client.clientCapabilities.fs.writeTextFile'],
          then: [{ stream: 'R' }],
        },
        {
          if: '!seen',
          then: [{ stream: '${greeting} ' }, { set: { seen: true, first: '${promptLine}' } }],
          else: [{ stream: 'again after ${first} ' }],
        },
        { stream: '${files.owned.text}|${files.missing.exists}|' },
        { if: 'mcp.tandem', then: [{ stream: 'mcp' }], else: [{ stream: 'no-mcp' }] },
      ],
    },
  });
  const sid = await handshake(p);
  await prompt(p, sid, 'one');
  await prompt(p, sid, 'two');
  assert.equal(
    p
      .updates('agent_message_chunk')
      .map((u) => u.content.text)
      .join(''),
    'TRhello mine\n|false|no-mcpTRagain after one mine\n|false|no-mcp',
  );
});

test('mcpCall / mcpTools without that server in session/new store an error, the turn goes on', async () => {
  const p = start({
    defaultPrompt: {
      steps: [
        { mcpTools: 'tandem', as: 'tools' },
        { mcpCall: { server: 'tandem', tool: 'OpenFile', arguments: { path: 'a' } }, as: 'r' },
        { stream: '${tools.error.message}|${r.error.message}' },
      ],
    },
  });
  const sid = await handshake(p);
  assert.equal((await prompt(p, sid, 'x')).result.stopReason, 'end_turn');
  assert.equal(
    p
      .updates('agent_message_chunk')
      .map((u) => u.content.text)
      .join(''),
    'No MCP server named "tandem" in session/new|No MCP server named "tandem" in session/new',
  );
});
