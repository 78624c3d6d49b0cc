import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  hasAllowRules,
  watchAgentAllowed,
  tandemWouldAllow,
  type AgentAllowListPort,
} from '../../../../src/client/permissions/agentAllowed';
import type { FeatureContext } from '../../../../src/client/connection/feature';
import { memoryMemento, RememberedDecisions } from '../../../../src/client/permissions/remembered';
import { parseRules } from '../../../../src/client/permissions/rules';
import { loadBashParser } from '../../../../src/client/permissions/shell/bashParser';
import { settleMicrotasks } from '../../../support/mockTimers';
import { Emitter } from '../../../../src/common/event';
import { MemoryLogger } from '../../../../src/common/logger';
import { SessionStore, type SessionChange } from '../../../../src/session/store';
import type { ToolCallView } from '../../../../src/shared/sessionModel';
import { until } from '../../../support/until';

const ROOT = '/home/user/project';

function setup(
  userRules: unknown[] = [],
  { file, agentName = 'Claude' }: { file?: string; agentName?: string } = { file: '.claude/settings.local.json' },
) {
  const store = new SessionStore('s1', () => 5);
  const changes = new Emitter<SessionChange>();
  store.onDidChange((c) => changes.fire(c));
  const ctx = {
    logger: new MemoryLogger(),
    cwd: ROOT,
    agentName,
    session: (id: string) => (id === 's1' ? store : undefined),
    onDidChangeSession: changes.event,
  } as unknown as FeatureContext;
  const remembered = new RememberedDecisions(memoryMemento());
  const deps = { rules: { user: parseRules(userRules, 'user').rules, workspace: [] }, remembered, roots: [ROOT] };
  const told: Array<{ call: ToolCallView; file: string | undefined }> = [];
  const lookups = { count: 0 };
  const port: AgentAllowListPort = {
    allowListFile: async () => {
      lookups.count++;
      return file;
    },
    notify: (_agent, _session, call, f) => told.push({ call, file: f }),
  };
  watchAgentAllowed(ctx, (facts, agent) => tandemWouldAllow(facts, agent, deps), port);
  const update = (u: Record<string, unknown>) => store.dispatch({ type: 'update', at: 1, update: u as never });
  const call = (id: string, kind: string, status: string, rawInput: unknown = {}) =>
    update({ sessionUpdate: 'tool_call', toolCallId: id, title: id, kind, status, rawInput });
  store.dispatch({ type: 'promptStarted', at: 1, prompt: [{ type: 'text', text: 'go' }] });
  return { store, told, call, update, remembered, lookups };
}

/** Everything the updates started has run: the grammar a command waits for is loaded, then the promise chain. */
const flush = async () => {
  await loadBashParser();
  await settleMicrotasks();
};

test('a command that completed with no permission request is marked as allowed by the agent, and the user is told once per session', async () => {
  const t = setup();
  t.call('b1', 'execute', 'pending', { command: 'rm -rf build' });
  t.update({ sessionUpdate: 'tool_call_update', toolCallId: 'b1', status: 'completed' });
  await until(() => t.store.state.toolCalls.get('b1')?.permission !== undefined, 2000, 'the mark');
  const p = t.store.state.toolCalls.get('b1')!.permission!;
  assert.equal(p.by, 'agent');
  assert.equal(p.rule, '.claude/settings.local.json');
  t.call('e1', 'edit', 'completed', { file_path: `${ROOT}/a.ts` });
  await until(() => t.store.state.toolCalls.get('e1')?.permission !== undefined, 2000, 'the second mark');
  assert.equal(t.told.length, 1, 'one message per session');
  assert.equal(t.told[0].file, '.claude/settings.local.json');
});

test('no mark for reads and searches allowed by default, for calls that went through a request, or that a rule allows', async () => {
  const t = setup([{ command: 'npm test', action: 'allow' }]);
  t.call('r1', 'read', 'completed', { file_path: `${ROOT}/a.ts` });
  t.call('s1', 'search', 'completed', { path: ROOT });
  t.call('n1', 'execute', 'completed', { command: 'npm test' });
  // Asked and answered: the call carries the user's decision.
  t.call('x1', 'execute', 'pending', { command: 'ls' });
  const request = { requestId: 'perm-1', toolCallId: 'x1', toolCall: { toolCallId: 'x1' }, options: [], at: 1 };
  t.store.dispatch({ type: 'permissionRequested', at: 1, request });
  t.update({ sessionUpdate: 'tool_call_update', toolCallId: 'x1', status: 'in_progress' });
  t.store.dispatch({
    type: 'permissionResolved',
    at: 2,
    requestId: 'perm-1',
    decision: { outcome: 'selected', optionId: 'allow', by: 'user', at: 2 },
  });
  t.update({ sessionUpdate: 'tool_call_update', toolCallId: 'x1', status: 'completed' });
  await flush();
  for (const id of ['r1', 's1', 'n1']) assert.equal(t.store.state.toolCalls.get(id)!.permission, undefined, id);
  assert.equal(t.store.state.toolCalls.get('x1')!.permission!.by, 'user');
  assert.equal(t.told.length, 0);
});

test('calls replayed from history (no live turn) are not marked', async () => {
  const t = setup();
  t.store.dispatch({ type: 'promptEnded', at: 2, stopReason: 'end_turn' });
  t.call('h1', 'execute', 'completed', { command: 'rm -rf build' });
  await flush();
  assert.equal(t.store.state.toolCalls.get('h1')!.permission, undefined);
  assert.equal(t.told.length, 0);
});

test('with no known settings file the mark says so without a file, and a remembered allow counts as Tandem allowing', async () => {
  const t = setup([], {});
  await t.remembered.remember({
    id: 'x',
    agent: 'Claude',
    decision: 'allow',
    tool: undefined,
    kind: 'execute',
    command: 'make',
    commandMatch: 'exact',
    at: 0,
  });
  t.call('m1', 'execute', 'completed', { command: 'make' });
  t.call('m2', 'execute', 'completed', { command: 'make clean' });
  await until(() => t.store.state.toolCalls.get('m2')?.permission !== undefined, 2000, 'the mark');
  assert.equal(t.store.state.toolCalls.get('m1')!.permission, undefined);
  assert.equal(t.store.state.toolCalls.get('m2')!.permission!.rule, undefined);
  assert.equal(t.told[0].file, undefined);
});

test('a Claude settings file counts only when it holds allow rules', () => {
  assert.equal(hasAllowRules('{"permissions":{"allow":["Bash(echo:*)"]}}'), true);
  assert.equal(hasAllowRules('{"permissions":{"allow":[],"deny":["Bash"]}}'), false);
  assert.equal(hasAllowRules('{"model":"x"}'), false);
  assert.equal(hasAllowRules('not json'), false);
  assert.equal(hasAllowRules('null'), false);
});

test("the built-in Demo's sample command is not reported", async () => {
  const t = setup([], { file: undefined, agentName: 'Demo' });
  t.call('d1', 'execute', 'completed', { command: 'node -e 1' });
  await flush();
  assert.equal(t.store.state.toolCalls.get('d1')!.permission, undefined);
  assert.equal(t.told.length, 0);
});

test('a burst of unasked calls looks at the agent settings files once, and every call is still marked', async () => {
  const t = setup();
  for (let i = 0; i < 200; i++) t.call(`c${i}`, 'execute', 'completed', { command: `echo ${i}` });
  await until(
    () =>
      Array.from({ length: 200 }, (_, i) => t.store.state.toolCalls.get(`c${i}`)).every(
        (c) => c?.permission?.by === 'agent',
      ),
    2000,
    'every call marked',
  );
  assert.equal(t.lookups.count, 1);
  assert.equal(t.store.state.toolCalls.get('c199')!.permission!.rule, '.claude/settings.local.json');
});
