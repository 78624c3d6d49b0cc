import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PermissionOption, RequestPermissionOutcome } from '@agentclientprotocol/sdk';
import { MemoryLogger } from '../../../../src/common/logger';
import { loadBashParser } from '../../../../src/client/permissions/shell/bashParser';
import { PermissionBroker, type RequestScope } from '../../../../src/client/permissions/broker';
import { memoryMemento, RememberedDecisions } from '../../../../src/client/permissions/remembered';
import type { RuleSet } from '../../../../src/client/permissions/ruleEvaluation';
import { parseRules } from '../../../../src/client/permissions/rules';
import { SessionStore } from '../../../../src/session/store';
import { parseFromWebview } from '../../../../src/shared/parseFromWebview';

const ROOT = '/home/user/project';
const OPTS: PermissionOption[] = [
  { optionId: 'allow_always', name: 'Always Allow', kind: 'allow_always' },
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];

function setup(user: unknown[] = [], workspace: unknown[] = []) {
  const logger = new MemoryLogger();
  const rules: RuleSet = { user: parseRules(user, 'user').rules, workspace: parseRules(workspace, 'workspace').rules };
  const memento = memoryMemento();
  const remembered = new RememberedDecisions(memento);
  const broker = new PermissionBroker({ rules: () => rules, roots: () => [ROOT], remembered, logger, now: () => 1000 });
  const store = new SessionStore('s1', () => 2000);
  store.dispatch({ type: 'promptStarted', at: 1, prompt: [{ type: 'text', text: 'go' }] });
  const scope: RequestScope = { store: (id) => (id === 's1' ? store : undefined), agentName: 'Claude', cwd: ROOT };
  broker.addScope(scope);
  const toolCall = (id: string, extra: Record<string, unknown> = {}) => {
    store.dispatch({
      type: 'update',
      at: 1,
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: id,
        title: 'Terminal',
        kind: 'execute',
        status: 'pending',
        _meta: { claudeCode: { toolName: 'mcp__acp__Bash' } },
        ...extra,
      } as never,
    });
  };
  const ask = (id: string, command: string, options = OPTS) =>
    broker.requestFromAgent(scope, {
      sessionId: 's1',
      toolCall: { toolCallId: id, title: `\`${command}\``, rawInput: { command } },
      options,
    });
  return { broker, store, scope, logger, memento, remembered, toolCall, ask };
}

const settled = async (p: Promise<RequestPermissionOutcome>) => {
  let v: RequestPermissionOutcome | undefined;
  void p.then((x) => {
    v = x;
  });
  await new Promise((r) => setImmediate(r));
  return v;
};

// The grammar loads on the first command; loaded once here so prompts show synchronously in these tests.
before(async () => {
  assert.ok(await loadBashParser());
});

test('a rule answers at once, records the decision on the tool call and logs the audit line', async () => {
  const t = setup([{ name: 'npm tests', command: 'npm test', action: 'allow' }]);
  t.toolCall('c1');
  assert.deepEqual(await t.ask('c1', 'npm test'), { outcome: 'selected', optionId: 'allow' });
  const call = t.store.state.toolCalls.get('c1')!;
  assert.equal(call.permission?.by, 'rule');
  assert.match(call.permission!.rule!, /npm tests \(user settings #1\)/);
  assert.equal(call.permission?.optionKind, 'allow_once');
  assert.equal(t.store.state.permissions.length, 0);
  assert.match(
    t.logger.messages('info').join('\n'),
    /Permission .* session s1 tool call c1 \(execute Bash `npm test`\) → Allow \[allow_once\], by rule: npm tests/,
  );
});

test('asks: queued in order in the store; answers accepted only for a pending request and an offered option', async () => {
  const t = setup();
  t.toolCall('c1');
  t.toolCall('c2');
  const p1 = t.ask('c1', 'ls');
  const p2 = t.ask('c2', 'pwd');
  const pending = t.store.state.permissions;
  assert.deepEqual(
    pending.map((p) => p.toolCallId),
    ['c1', 'c2'],
  );
  assert.equal(pending[0].toolCall.kind, 'execute', 'the prompt shows the call merged with what the session knew');
  const [r1, r2] = pending.map((p) => p.requestId);
  assert.equal(t.broker.answer(r1, 'nope'), false, 'an option the request did not offer');
  assert.equal(t.broker.answer('perm-999', 'allow'), false, 'a request that is not pending');
  assert.equal(await settled(p1), undefined);
  assert.equal(t.broker.answer(r1, 'reject'), true);
  assert.deepEqual(await p1, { outcome: 'selected', optionId: 'reject' });
  assert.equal(t.broker.answer(r1, 'allow'), false, 'answered once only');
  assert.deepEqual(
    t.store.state.permissions.map((p) => p.requestId),
    [r2],
  );
  assert.equal(t.store.state.toolCalls.get('c1')!.permission?.by, 'user');
  // The webview message is validated before it reaches the broker.
  assert.deepEqual(parseFromWebview({ type: 'permissionAnswer', requestId: r2, optionId: 'allow' }), {
    type: 'permissionAnswer',
    requestId: r2,
    optionId: 'allow',
  });
  assert.equal(typeof parseFromWebview({ type: 'permissionAnswer', requestId: r2 }), 'string');
  assert.equal(
    typeof parseFromWebview({ type: 'permissionAnswer', requestId: r2, optionId: 'allow', extra: 1 }),
    'string',
  );
  t.broker.answer(r2, 'allow');
  assert.deepEqual(await p2, { outcome: 'selected', optionId: 'allow' });
});

test('cancel resolves every pending prompt of the session as cancelled, at once', async () => {
  const t = setup();
  t.toolCall('c1');
  t.toolCall('c2');
  const p1 = t.ask('c1', 'ls');
  const p2 = t.ask('c2', 'pwd');
  const other = t.broker.request(
    's2',
    { toolCallId: 'x', title: 'Read /etc/hosts', kind: 'read', locations: [{ path: '/etc/hosts' }] },
    OPTS,
  );
  assert.equal(t.broker.cancelSession('s1'), 2);
  assert.deepEqual(await p1, { outcome: 'cancelled' });
  assert.deepEqual(await p2, { outcome: 'cancelled' });
  assert.equal(t.store.state.permissions.length, 0);
  assert.equal(t.store.state.toolCalls.get('c2')!.permission?.by, 'cancelled');
  assert.equal(await settled(other), undefined, 'another session is untouched');
  t.broker.cancelSession('s2');
  assert.deepEqual(await other, { outcome: 'cancelled' });
  // The connection ending does the same for its prompts.
  t.toolCall('c3');
  const p3 = t.ask('c3', 'ls');
  assert.equal(t.broker.cancelScope(t.scope), 1);
  assert.deepEqual(await p3, { outcome: 'cancelled' });
});

test('an always answer is remembered for the workspace (the agent hears allow once) and applied next time; removing it asks again', async () => {
  const t = setup();
  t.toolCall('c1');
  const p1 = t.ask('c1', 'git status --short');
  t.broker.answer(t.store.state.permissions[0].requestId, 'allow_always');
  // Tandem remembers it; the agent is told "allow once" so it keeps no wider rule of its own.
  assert.deepEqual(await p1, { outcome: 'selected', optionId: 'allow' });
  assert.equal(
    t.store.state.toolCalls.get('c1')!.permission!.optionKind,
    'allow_always',
    'the call shows what the user chose',
  );
  await new Promise((r) => setImmediate(r));
  const list = t.remembered.list();
  assert.equal(list.length, 1);
  assert.equal(list[0].command, 'git status');
  assert.equal(list[0].tool, 'Bash');
  t.toolCall('c2');
  assert.deepEqual(await t.ask('c2', 'git status --short src/'), { outcome: 'selected', optionId: 'allow' });
  const d = t.store.state.toolCalls.get('c2')!.permission!;
  assert.equal(d.by, 'remembered');
  assert.match(d.rule!, /Always allow Bash: `git status …`/);
  // Not for an option the approved line did not have, a chained command, nor another command.
  t.toolCall('c5');
  const p5 = t.ask('c5', 'git status --porcelain');
  assert.equal(await settled(p5), undefined);
  t.broker.cancelSession('s1');
  t.toolCall('c3');
  const p3 = t.ask('c3', 'git status && rm -rf ~');
  assert.equal(await settled(p3), undefined);
  t.broker.cancelSession('s1');
  await t.remembered.remove(list);
  t.toolCall('c4');
  const p4 = t.ask('c4', 'git status');
  assert.equal(await settled(p4), undefined, 'asks again once removed');
  t.broker.cancelSession('s1');
});

test('the prompt says what "always" remembers; an interpreter command is remembered by its exact line only', async () => {
  // (An agent offering only allow_always hears allow_always: there is nothing narrower to tell it.)
  const t = setup();
  t.toolCall('n1');
  const one = `node -e "console.log('one')"`;
  const p1 = t.ask('n1', one);
  const req = t.store.state.permissions[0];
  assert.equal(req.alwaysScope, `exactly \`${one}\``);
  t.broker.answer(req.requestId, 'allow_always');
  await p1;
  await new Promise((r) => setImmediate(r));
  t.toolCall('n2');
  assert.deepEqual(await t.ask('n2', one), { outcome: 'selected', optionId: 'allow' }, 'the same line is remembered');
  t.toolCall('n3');
  const p3 = t.ask('n3', `node -e "require('fs').writeFileSync('x', 'y')"`);
  assert.equal(await settled(p3), undefined, 'another node command asks again');
  t.broker.cancelSession('s1');
  // A prompt with no always option says nothing about remembering.
  t.toolCall('n4');
  const p4 = t.ask('n4', 'ls', OPTS.slice(1));
  assert.equal(t.store.state.permissions[0].alwaysScope, undefined);
  t.broker.cancelSession('s1');
  await p4;
});

test('an edit always-decision remembers the file; a rule beats a remembered decision; an explicit ask rule asks', async () => {
  const t = setup([{ command: 'git push', action: 'ask' }], [{ kind: 'edit', paths: 'locked/**', action: 'reject' }]);
  t.store.dispatch({
    type: 'update',
    at: 1,
    update: {
      sessionUpdate: 'tool_call',
      toolCallId: 'e1',
      title: 'Edit',
      kind: 'edit',
      status: 'pending',
      _meta: { claudeCode: { toolName: 'mcp__acp__Edit' } },
    } as never,
  });
  const p = t.broker.requestFromAgent(t.scope, {
    sessionId: 's1',
    toolCall: { toolCallId: 'e1', title: 'Edit a.ts', rawInput: { file_path: `${ROOT}/src/a.ts` } },
    options: OPTS,
  });
  t.broker.answer(t.store.state.permissions[0].requestId, 'allow_always');
  await p;
  await new Promise((r) => setImmediate(r));
  assert.equal(t.remembered.list()[0].path, 'src/a.ts');
  // Workspace reject on locked/** beats everything.
  const locked = await t.broker.requestFromAgent(t.scope, {
    sessionId: 's1',
    toolCall: { toolCallId: 'e2', title: 'Edit', kind: 'edit', locations: [{ path: `${ROOT}/locked/x` }] },
    options: OPTS,
  });
  assert.deepEqual(locked, { outcome: 'selected', optionId: 'reject' });
  // Remember "git push" then an explicit ask rule still asks.
  await t.remembered.remember({
    id: 'x',
    agent: 'Claude',
    decision: 'allow',
    tool: 'Bash',
    kind: 'execute',
    command: 'git push',
    at: 0,
  });
  t.toolCall('c9');
  const push = t.ask('c9', 'git push');
  assert.equal(await settled(push), undefined);
  t.broker.cancelSession('s1');
});

test('client questions through the PermissionPort take the same pipeline (rules → prompt), and are never remembered', async () => {
  const t = setup([{ kind: 'read', paths: '/opt/docs/**', outsideWorkspace: true, action: 'allow' }]);
  const fsOpts: PermissionOption[] = [
    { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
    { optionId: 'allow_always', name: 'Allow for this session', kind: 'allow_always' },
    { optionId: 'reject_once', name: 'Deny', kind: 'reject_once' },
  ];
  assert.deepEqual(
    await t.broker.request(
      's1',
      {
        toolCallId: 'tandem-fs-1',
        title: 'Read /opt/docs/a.md',
        kind: 'read',
        locations: [{ path: '/opt/docs/a.md' }],
      },
      fsOpts,
    ),
    { outcome: 'selected', optionId: 'allow_once' },
  );
  const p = t.broker.request(
    's1',
    { toolCallId: 'tandem-fs-2', title: 'Write /tmp/x', kind: 'edit', locations: [{ path: '/tmp/x' }] },
    fsOpts,
  );
  const req = t.broker.pending()[0];
  assert.equal(req.origin, 'client');
  assert.equal(
    t.store.state.permissions[0].toolCallId,
    'tandem-fs-2',
    'shown as a standalone card (no such tool call)',
  );
  assert.equal(t.store.state.permissions[0].origin, 'client');
  t.broker.answer(req.requestId, 'allow_always');
  assert.deepEqual(await p, { outcome: 'selected', optionId: 'allow_always' });
  assert.equal(t.store.state.toolCalls.get('tandem-fs-2'), undefined, 'an answered client question adds no tool call');
  await new Promise((r) => setImmediate(r));
  assert.equal(t.remembered.list().length, 0);
});

test('an agent that offers only "always allow" hears it: there is no narrower answer to give', async () => {
  const t = setup();
  t.toolCall('o1');
  const p = t.ask('o1', 'git status', [OPTS[0], OPTS[2]]);
  t.broker.answer(t.store.state.permissions[0].requestId, 'allow_always');
  assert.deepEqual(await p, { outcome: 'selected', optionId: 'allow_always' });
});

test("a client question is withdrawn when its asker's signal aborts (a client tool call that ended)", async () => {
  const t = setup();
  const ended = new AbortController();
  const p = t.broker.request(
    's1',
    { toolCallId: 'tool-1', title: 'IDE · OpenFile', kind: 'other' },
    OPTS,
    ended.signal,
  );
  assert.equal(t.store.state.permissions.length, 1);
  ended.abort();
  assert.deepEqual(await p, { outcome: 'cancelled' });
  assert.equal(t.store.state.permissions.length, 0, 'the prompt is gone');
  const late = new AbortController();
  late.abort();
  assert.deepEqual(
    await t.broker.request('s1', { toolCallId: 'tool-2', title: 'x', kind: 'other' }, OPTS, late.signal),
    {
      outcome: 'cancelled',
    },
  );
});
