// How far an answer reaches: a mode switch (claude-code-acp's ExitPlanMode) is passed through as
// chosen and never remembered; an option that says "this session" (claude-agent-acp's "Yes, allow
// all edits during this session") is remembered for that session only, never for the workspace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PermissionOption, RequestPermissionOutcome, ToolCallUpdate } from '@agentclientprotocol/sdk';
import { MemoryLogger } from '../../../../src/common/logger';
import { PermissionBroker, type RequestScope } from '../../../../src/client/permissions/broker';
import { memoryMemento, RememberedDecisions } from '../../../../src/client/permissions/remembered';
import { parseRules } from '../../../../src/client/permissions/rules';
import { SessionStore } from '../../../../src/session/store';

const ROOT = '/home/user/project';

/** claude-code-acp's ExitPlanMode prompt. */
const PLAN_OPTS: PermissionOption[] = [
  { kind: 'allow_always', name: 'Yes, and auto-accept edits', optionId: 'acceptEdits' },
  { kind: 'allow_once', name: 'Yes, and manually approve edits', optionId: 'default' },
  { kind: 'reject_once', name: 'No, keep planning', optionId: 'plan' },
];

/** claude-agent-acp's Edit prompt (fixtures/acp-transcripts/claude-agent-acp-0.100.0-edit.jsonl). */
const EDIT_OPTS: PermissionOption[] = [
  { optionId: 'allow-once', name: 'Yes', kind: 'allow_once' },
  { optionId: 'allow-with-updates', name: 'Yes, allow all edits during this session', kind: 'allow_always' },
  { optionId: 'reject', name: 'No', kind: 'reject_once' },
];

function setup(user: unknown[] = []) {
  const logger = new MemoryLogger();
  const rules = { user: parseRules(user, 'user').rules, workspace: [] };
  const memento = memoryMemento();
  const remembered = new RememberedDecisions(memento);
  const broker = new PermissionBroker({ rules: () => rules, roots: () => [ROOT], remembered, logger, now: () => 1000 });
  const stores = new Map(['s1', 's2'].map((id) => [id, new SessionStore(id, () => 2000)]));
  for (const s of stores.values()) s.dispatch({ type: 'promptStarted', at: 1, prompt: [{ type: 'text', text: 'go' }] });
  const scope: RequestScope = { store: (id) => stores.get(id), agentName: 'Claude', cwd: ROOT };
  const connection = broker.addScope(scope);
  const ask = (sessionId: string, toolCall: ToolCallUpdate, options: PermissionOption[], s = scope) =>
    broker.requestFromAgent(s, { sessionId, toolCall, options });
  const pending = (sessionId: string) => stores.get(sessionId)!.state.permissions;
  return { broker, scope, connection, stores, memento, remembered, ask, pending };
}

const settled = async (p: Promise<RequestPermissionOutcome>) => {
  let v: RequestPermissionOutcome | undefined;
  void p.then((x) => {
    v = x;
  });
  await new Promise((r) => setImmediate(r));
  return v;
};

function planCall(t: ReturnType<typeof setup>, id: string) {
  t.stores.get('s1')!.dispatch({
    type: 'update',
    at: 1,
    update: {
      sessionUpdate: 'tool_call',
      toolCallId: id,
      title: 'Ready to code?',
      kind: 'switch_mode',
      status: 'pending',
      _meta: { claudeCode: { toolName: 'ExitPlanMode' } },
    } as never,
  });
  return { toolCallId: id, title: 'Ready to code?', rawInput: { plan: '1. Edit a.ts' } };
}

const edit = (id: string, file: string): ToolCallUpdate => ({
  toolCallId: id,
  name: 'Edit',
  status: 'pending',
  rawInput: { file_path: file, old_string: 'hello world', new_string: 'hello ACP', replace_all: false },
  title: `Edit ${file.split('/').pop()}`,
  kind: 'edit',
  content: [{ type: 'diff', path: file, oldText: 'hello world', newText: 'hello ACP' }],
  locations: [{ path: file }],
});

test('approving a plan with "auto-accept edits" tells the agent exactly that, remembers nothing, and the next plan asks again', async () => {
  const t = setup();
  const p1 = t.ask('s1', planCall(t, 'p1'), PLAN_OPTS);
  const req = t.pending('s1')[0];
  assert.equal(req.alwaysScope, undefined, 'no "Always remembers …" footnote: nothing is remembered');
  t.broker.answer(req.requestId, 'acceptEdits');
  assert.deepEqual(await p1, { outcome: 'selected', optionId: 'acceptEdits' });
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(t.remembered.list(), []);
  const p2 = t.ask('s1', planCall(t, 'p2'), PLAN_OPTS);
  assert.equal(await settled(p2), undefined, 'the next plan is shown to the user');
  t.broker.answer(t.pending('s1')[0].requestId, 'plan');
  assert.deepEqual(await p2, { outcome: 'selected', optionId: 'plan' });
});

test('a plan prompt is known by its mode option ids even with no tool call before it, and nothing remembered approves it', async () => {
  const t = setup();
  // What older versions remembered for "Yes, and auto-accept edits".
  await t.remembered.remember({
    id: 'Always allow ExitPlanMode',
    agent: 'Claude',
    decision: 'allow',
    tool: 'ExitPlanMode',
    kind: 'switch_mode',
    at: 0,
  });
  const known = t.ask('s1', planCall(t, 'p1'), PLAN_OPTS);
  assert.equal(await settled(known), undefined, 'a remembered "always allow ExitPlanMode" approves no plan');
  const bare = t.ask('s1', { toolCallId: 'p2', title: 'Ready to code?', rawInput: { plan: 'x' } }, PLAN_OPTS);
  assert.equal(await settled(bare), undefined);
  assert.equal(t.pending('s1')[1].alwaysScope, undefined);
  t.broker.answer(t.pending('s1')[1].requestId, 'acceptEdits');
  assert.deepEqual(await bare, { outcome: 'selected', optionId: 'acceptEdits' });
  t.broker.cancelSession('s1');
  await new Promise((r) => setImmediate(r));
  assert.equal(t.remembered.list().length, 1, 'nothing added');
});

test('a rule that allows plans "always" answers with the plain approval, never "auto-accept edits"', async () => {
  const t = setup([{ tool: 'ExitPlanMode', action: 'allow', always: true }]);
  assert.deepEqual(await t.ask('s1', planCall(t, 'p1'), PLAN_OPTS), { outcome: 'selected', optionId: 'default' });
});

test('"allow all edits during this session" covers every Edit of that session only, and never reaches workspace state', async () => {
  const t = setup();
  const p1 = t.ask('s1', edit('e1', `${ROOT}/src/a.ts`), EDIT_OPTS);
  const req = t.pending('s1')[0];
  assert.equal(req.alwaysScope, 'for this session: every Edit call inside the workspace');
  t.broker.answer(req.requestId, 'allow-with-updates');
  // Tandem keeps the memory: the agent hears "allow once" and keeps asking, past Tandem's rules.
  assert.deepEqual(await p1, { outcome: 'selected', optionId: 'allow-once' });
  assert.equal(t.stores.get('s1')!.state.toolCalls.get('e1')?.permission?.optionKind, 'allow_always');
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(t.memento.get(), [], 'nothing in workspace state');

  assert.deepEqual(await t.ask('s1', edit('e2', `${ROOT}/lib/b.ts`), EDIT_OPTS), {
    outcome: 'selected',
    optionId: 'allow-once',
  });
  const d = t.stores.get('s1')!.state.toolCalls.get('e2')!.permission!;
  assert.equal(d.by, 'remembered');
  assert.match(d.rule!, /Always allow Edit \(this session\)/);

  const outside = t.ask('s1', edit('e3', '/etc/hosts'), EDIT_OPTS);
  assert.equal(await settled(outside), undefined, 'not outside the workspace');
  const unknown = t.ask('s1', { toolCallId: 'e4', name: 'Edit', title: 'Edit', kind: 'edit', rawInput: {} }, EDIT_OPTS);
  assert.equal(await settled(unknown), undefined, 'nor an edit whose file is unknown');
  t.broker.cancelSession('s1');

  const other = t.ask('s2', edit('f1', `${ROOT}/src/a.ts`), EDIT_OPTS);
  assert.equal(await settled(other), undefined, 'a new session asks, even for the same file');
  t.broker.cancelSession('s2');
});

test('a session answer is gone once its agent connection ends', async () => {
  const t = setup();
  const p1 = t.ask('s1', edit('e1', `${ROOT}/src/a.ts`), EDIT_OPTS);
  t.broker.answer(t.pending('s1')[0].requestId, 'allow-with-updates');
  await p1;
  t.connection.dispose();
  const again: RequestScope = { ...t.scope };
  t.broker.addScope(again);
  const p2 = t.ask('s1', edit('e2', `${ROOT}/src/a.ts`), EDIT_OPTS, again);
  assert.equal(await settled(p2), undefined);
  t.broker.cancelScope(again);
});
