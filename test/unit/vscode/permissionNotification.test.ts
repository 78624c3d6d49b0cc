// A permission prompt answered from its notification: the notification says what "Always"
// remembers, as the view does, and a click there remembers just that. Fake `vscode`.
import { state as vs, vscodeFake } from '../security/fakeVscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as nodePath from 'node:path';
import type { PermissionOption, ToolCallUpdate } from '@agentclientprotocol/sdk';
import { Emitter } from '../../../src/common/event';
import { MemoryLogger } from '../../../src/common/logger';
import type { RequestScope } from '../../../src/client/permissions/broker';
import { SessionStore } from '../../../src/session/store';
import { TandemPermissions } from '../../../src/vscode/permissions/tandemPermissions';
import { until } from '../../support/until';

const ROOT = '/home/user/project';

interface Shown {
  message: string;
  items: Array<{ title: string; optionId: string }>;
  pick(title: string): void;
}

function setup(inSight?: { shownSession: string }) {
  vs.folders = [ROOT];
  vs.windowFocused = !!inSight;
  vs.config = { 'tandem.notifications': inSight ? 'whenHidden' : 'always' };
  const shown: Shown[] = [];
  const win = vscodeFake.window as Record<string, unknown>;
  win.showInformationMessage = (message: string, ...items: Array<{ title: string; optionId: string }>) =>
    new Promise((resolve) =>
      shown.push({ message, items, pick: (title) => resolve(items.find((i) => i.title === title)) }),
    );
  (vscodeFake.workspace as Record<string, unknown>).asRelativePath = (p: string) => nodePath.relative(ROOT, p);
  const stored = new Map<string, unknown>();
  const context = {
    workspaceState: {
      get: (k: string, d?: unknown) => (stored.has(k) ? stored.get(k) : d),
      update: async (k: string, v: unknown) => void stored.set(k, v),
    },
  };
  const visibility = new Emitter<boolean>();
  const switched: string[] = [];
  const badges: number[] = [];
  const view = {
    isVisible: !!inSight,
    onDidChangeVisibility: visibility.event,
    setBadge: (n: number) => void badges.push(n),
    show() {},
    ...(inSight && {
      shownSession: () => inSight.shownSession,
      showSession: (id: string) => void switched.push(id),
    }),
  };
  const permissions = new TandemPermissions(context as never, new MemoryLogger(), view);
  const store = new SessionStore('s1', () => 2000);
  store.dispatch({ type: 'promptStarted', at: 1, prompt: [{ type: 'text', text: 'go' }] });
  const scope: RequestScope = { store: (id) => (id === 's1' ? store : undefined), agentName: 'Claude', cwd: ROOT };
  permissions.broker.addScope(scope);
  const ask = (toolCall: ToolCallUpdate, options: PermissionOption[]) =>
    permissions.broker.requestFromAgent(scope, { sessionId: 's1', toolCall, options });
  return { permissions, shown, ask, switched, badges };
}

test('the notification says what "Always" remembers, and choosing it there remembers just that', async () => {
  const t = setup();
  const opts: PermissionOption[] = [
    { optionId: 'allow_always', name: 'Always Allow', kind: 'allow_always' },
    { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
    { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
  ];
  const file = `${ROOT}/src/a.ts`;
  const p = t.ask({ toolCallId: 'e1', title: 'Edit a.ts', kind: 'edit', locations: [{ path: file }] }, opts);
  await until(() => t.shown.length === 1, 2000, 'the notification');
  const scope = t.permissions.broker.pending()[0].view.alwaysScope!;
  assert.ok(scope, 'the prompt has a scope to tell');
  assert.ok(t.shown[0].message.includes(`“Always” remembers ${scope}`), t.shown[0].message);
  t.shown[0].pick('Always Allow');
  assert.deepEqual(await p, { outcome: 'selected', optionId: 'allow' });
  await until(() => t.permissions.remembered.list().length === 1, 2000, 'the remembered decision');
  assert.equal(t.permissions.remembered.list()[0].path, 'src/a.ts');
  t.permissions.dispose();
});

test('a session-scoped "always" says so in the notification; a plan prompt promises nothing', async () => {
  const t = setup();
  const edit = t.ask(
    { toolCallId: 'e1', name: 'Edit', title: 'Edit a.ts', kind: 'edit', locations: [{ path: `${ROOT}/src/a.ts` }] },
    [
      { optionId: 'allow-once', name: 'Yes', kind: 'allow_once' },
      { optionId: 'allow-with-updates', name: 'Yes, allow all edits during this session', kind: 'allow_always' },
      { optionId: 'reject', name: 'No', kind: 'reject_once' },
    ],
  );
  await until(() => t.shown.length === 1, 2000, 'the edit notification');
  assert.match(t.shown[0].message, /“Always” remembers for this session: every Edit call/);
  const plan = t.ask({ toolCallId: 'p1', title: 'Ready to code?', kind: 'switch_mode', rawInput: { plan: 'x' } }, [
    { kind: 'allow_always', name: 'Yes, and auto-accept edits', optionId: 'acceptEdits' },
    { kind: 'allow_once', name: 'Yes, and manually approve edits', optionId: 'default' },
    { kind: 'reject_once', name: 'No, keep planning', optionId: 'plan' },
  ]);
  await until(() => t.shown.length === 2, 2000, 'the plan notification');
  assert.doesNotMatch(t.shown[1].message, /remembers/);
  t.shown[1].pick('Yes, and auto-accept edits');
  assert.deepEqual(await plan, { outcome: 'selected', optionId: 'acceptEdits' });
  t.permissions.dispose();
  await edit;
});

test("a prompt of a session the view does not show (another agent's) is notified even with the view in sight", async () => {
  const call = { toolCallId: 'c', title: 'Run tests', kind: 'execute' as const, rawInput: { command: 'npm test' } };
  const options: PermissionOption[] = [
    { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
    { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
  ];
  const shownHere = setup({ shownSession: 's1' });
  void shownHere.ask(call, options);
  await new Promise((r) => setImmediate(r));
  assert.equal(shownHere.shown.length, 0, 'its own session is in sight: the view shows the prompt');
  const elsewhere = setup({ shownSession: 'another' });
  const answer = elsewhere.ask(call, options);
  await until(() => elsewhere.shown.length === 1, 5000, 'the notification');
  elsewhere.shown[0].pick('Show in Tandem');
  await until(() => elsewhere.switched.length === 1, 5000, 'Show in Tandem switches to the session');
  assert.deepEqual(elsewhere.switched, ['s1']);
  elsewhere.permissions.answer(elsewhere.permissions.broker.pending()[0].requestId, 'allow');
  assert.equal((await answer).outcome, 'selected');
});

test('the badge counts only prompts out of sight: none for the shown session in a focused, visible view', async () => {
  const call = { toolCallId: 'c', title: 'Run tests', kind: 'execute' as const, rawInput: { command: 'npm test' } };
  const options: PermissionOption[] = [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }];
  const here = setup({ shownSession: 's1' });
  void here.ask(call, options);
  await until(() => here.permissions.broker.pending().length === 1, 5000, 'the prompt');
  assert.equal(here.badges.at(-1), 0, 'the prompt is on screen: no badge');
  // The window loses focus: the prompt is out of sight and counts.
  vs.windowFocused = false;
  here.permissions.updateBadge();
  assert.equal(here.badges.at(-1), 1);
  const elsewhere = setup({ shownSession: 'another' });
  void elsewhere.ask(call, options);
  await until(() => elsewhere.badges.at(-1) === 1, 5000, "another session's prompt counts though the view is in sight");
});
