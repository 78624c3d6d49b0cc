import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { invokeTool, type InvokeEnv, type PermissionDecision } from '../../../src/tools/invoke';
import { ToolRegistry } from '../../../src/tools/registry';
import { ToolState } from '../../../src/tools/toolState';
import { DEFAULT_TOOLS_CONFIG, type ToolResult } from '../../../src/tools/types';
import { ideGroup, tool } from './fixtures';
import { until } from '../../support/until';
import { settleMicrotasks, withMockTimers } from '../../support/mockTimers';

function setup(groups = [ideGroup()], config = DEFAULT_TOOLS_CONFIG) {
  const r = new ToolRegistry();
  for (const g of groups) r.register(g);
  const state = new ToolState(r, () => config);
  const env: InvokeEnv = { state, config };
  return { r, state, env };
}
const text = (r: ToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : JSON.stringify(c))).join('\n');

test('calling the container expands the group', async () => {
  const { env, state } = setup();
  const r = await invokeTool('IDE', {}, env);
  assert.equal(text(r), 'IDE expanded. Available functions: OpenFile, GetSelection, ShowMessage');
  assert.ok(!r.isError);
  assert.equal(state.list().length, 3);
});

test('invalid arguments: "Invalid arguments for tool X: <ajv message>"', async () => {
  const { env } = setup([{ ...ideGroup(), startCollapsed: false }]);
  let r = await invokeTool('OpenFile', {}, env);
  assert.equal(text(r), "Invalid arguments for tool OpenFile: must have required property 'path'");
  assert.equal(r.isError, true);
  r = await invokeTool('OpenFile', { path: 'a', line: 'x' }, env);
  assert.equal(text(r), 'Invalid arguments for tool OpenFile: /line must be integer');
  r = await invokeTool('ShowMessage', { message: 'm', severity: 'loud' }, env);
  assert.equal(
    text(r),
    'Invalid arguments for tool ShowMessage: /severity must be equal to one of the allowed values ("info", "warning", "error")',
  );
  r = await invokeTool('OpenFile', { path: 'a', extra: 1 }, env);
  assert.equal(text(r), "Invalid arguments for tool OpenFile: must NOT have additional properties 'extra'");
});

test('unknown tool: "Unknown tool "X". Available tools: …"', async () => {
  const { env } = setup();
  const r = await invokeTool('Nope', {}, env);
  assert.equal(text(r), 'Unknown tool "Nope". Available tools: IDE');
  assert.equal(r.isError, true);
  // A tool of a collapsed group is not callable until expanded.
  assert.equal(text(await invokeTool('OpenFile', { path: 'a' }, env)), 'Unknown tool "OpenFile". Available tools: IDE');
});

test('OpenFile with valid arguments runs the handler', async () => {
  const opened: Array<{ path: string; line?: number }> = [];
  const { env } = setup([{ ...ideGroup(opened), startCollapsed: false }]);
  const r = await invokeTool('OpenFile', { path: 'src/a.ts', line: 3 }, env);
  assert.equal(text(r), 'Opened src/a.ts');
  assert.deepEqual(opened, [{ path: 'src/a.ts', line: 3 }]);
});

test('timeout: an error result after the configured time; the late result is dropped', () =>
  withMockTimers(async () => {
    let aborted = false;
    const logs: string[] = [];
    let finish: ((v: string) => void) | undefined;
    const slow = tool('Slow', (_a, ctx) => {
      ctx.signal.addEventListener('abort', () => {
        aborted = true;
      });
      return new Promise<string>((r) => (finish = r)); // answers only when the test says so
    });
    const config = { ...DEFAULT_TOOLS_CONFIG, timeoutMs: 40 };
    const { env } = setup([{ name: 'G', startCollapsed: false, tools: [slow] }], config);
    let r: ToolResult | undefined;
    const call = invokeTool('Slow', {}, { ...env, log: (m) => logs.push(m) }).then((x) => (r = x));
    await until(() => finish !== undefined, 2000, 'the handler to start');
    mock.timers.tick(39);
    await settleMicrotasks();
    assert.equal(r, undefined, 'no answer before the timeout');
    mock.timers.tick(1);
    await call; // answered at the timeout, the handler still running
    assert.equal(text(r!), 'Tool Slow timed out after 0.04 s (the IDE did not answer in time).');
    assert.equal(r!.isError, true);
    assert.ok(aborted);
    finish!('late');
    await until(() => logs.some((l) => l.includes('result dropped')), 2000, 'the late result to be dropped');
  }, ['setTimeout', 'Date']));

test('5 parallel calls run concurrently: total ≈ the slowest, not the sum', () =>
  withMockTimers(async () => {
    const delays = [100, 60, 80, 40, 90];
    let running = 0;
    const tools = delays.map((d, i) =>
      tool(`T${i}`, async () => {
        running++;
        await new Promise((r) => setTimeout(r, d));
        return `t${i}`;
      }),
    );
    const { env } = setup([{ name: 'G', startCollapsed: false, tools }]);
    const all = Promise.all(delays.map((_, i) => invokeTool(`T${i}`, {}, env)));
    await until(() => running === 5, 2000, 'all five handlers to start before any has finished');
    // The slowest one's time answers them all (one after the other would take the sum, 370 ms).
    mock.timers.tick(100);
    assert.deepEqual((await all).map(text), ['t0', 't1', 't2', 't3', 't4']);
  }, ['setTimeout', 'Date']));

test('a handler that throws becomes an error result with its message', async () => {
  const logs: string[] = [];
  const { env } = setup([
    {
      name: 'G',
      startCollapsed: false,
      tools: [
        tool('Boom', () => {
          throw new Error('disk on fire');
        }),
      ],
    },
  ]);
  const r = await invokeTool('Boom', {}, { ...env, log: (m) => logs.push(m) });
  assert.equal(text(r), 'Tool Boom failed: disk on fire');
  assert.equal(r.isError, true);
  assert.equal(logs.length, 1);
});

test('results carry text, JSON and image content', async () => {
  const { env } = setup([
    {
      name: 'G',
      startCollapsed: false,
      tools: [
        tool('J', () => ({ content: [{ type: 'json', json: { a: 1 } }] })),
        tool('I', () => ({ content: [{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] })),
      ],
    },
  ]);
  assert.deepEqual((await invokeTool('J', {}, env)).content, [{ type: 'json', json: { a: 1 } }]);
  assert.deepEqual((await invokeTool('I', {}, env)).content, [
    { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
  ]);
});

test('augmentation: inject, remove, expand, collapse, hide, show, add context — the tool list follows', async () => {
  const admin = { name: 'Admin', description: 'Admin tools', tools: [tool('DropTable')] };
  let next: ToolResult = { content: [] };
  const { env, state } = setup([
    { name: 'Auth', startCollapsed: false, tools: [tool('Login', () => next), tool('Logout')] },
    { name: 'Guest', tools: [tool('Browse')] },
  ]);
  let fired = 0;
  state.onDidChangeList(() => fired++);
  const names = () => state.list().map((l) => l.name);
  assert.deepEqual(names(), ['Login', 'Logout', 'Guest']);

  next = {
    content: [{ type: 'text', text: 'User logged in' }],
    augmentation: {
      injectGroups: [admin],
      expandGroups: ['Admin'],
      hideTools: ['Login'],
      addContext: [{ key: 'user', value: 'Admin user logged in' }],
    },
  };
  let r = await invokeTool('Login', {}, env);
  assert.equal(text(r), 'User logged in\nContext:\n- user: Admin user logged in');
  assert.equal(r.augmentation, undefined, 'augmentation is not sent to the agent');
  assert.deepEqual(names(), ['Logout', 'Guest', 'DropTable']);
  assert.deepEqual(state.context, [{ key: 'user', value: 'Admin user logged in' }]);
  assert.equal(fired, 1);

  // show + expand + collapse + remove
  state.augment({ showTools: ['Login'], expandGroups: ['Guest'], collapseGroups: ['Admin'] });
  assert.deepEqual(names(), ['Login', 'Logout', 'Browse', 'Admin']);
  state.augment({ removeGroups: ['Admin', 'Guest'] });
  assert.deepEqual(names(), ['Login', 'Logout']);
  assert.equal(fired, 3);

  // An injected group that clashes is reported in the result, not thrown.
  next = {
    content: [{ type: 'text', text: 'ok' }],
    augmentation: { injectGroups: [{ name: 'Evil', tools: [tool('Logout')] }] },
  };
  r = await invokeTool('Login', {}, env);
  assert.match(
    text(r),
    /Tandem could not apply part of this tool's changes: Invalid tool group "Evil": the name "Logout" is already used by group "Auth"/,
  );
  state.reset();
  assert.deepEqual(names(), ['Login', 'Logout', 'Guest']);
});

test('permission: requiresPermission asks first; deny → error result, allow → runs', async () => {
  let ran = 0;
  const asked: string[] = [];
  const { env } = setup([
    {
      name: 'G',
      startCollapsed: false,
      tools: [
        tool(
          'Delete',
          () => {
            ran++;
            return 'deleted';
          },
          { requiresPermission: true },
        ),
        tool('Free'),
      ],
    },
  ]);
  let decision: PermissionDecision = 'deny';
  const e: InvokeEnv = {
    ...env,
    requestPermission: async (c) => {
      asked.push(`${c.group}/${c.tool.name}`);
      return decision;
    },
  };
  let r = await invokeTool('Delete', {}, e);
  assert.equal(text(r), 'The user denied permission to run Delete.');
  assert.equal(r.isError, true);
  assert.equal(ran, 0);
  decision = 'allow';
  r = await invokeTool('Delete', {}, e);
  assert.equal(text(r), 'deleted');
  assert.equal(ran, 1);
  await invokeTool('Free', {}, e);
  assert.deepEqual(asked, ['G/Delete', 'G/Delete']);
  // Without a permission prompt, such tools are refused.
  r = await invokeTool('Delete', {}, env);
  assert.match(text(r), /requires the user's permission/);
});

test('disconnection: pending and later calls get the fallback text, answered once', async () => {
  let disconnect!: () => void;
  const disconnected = new Promise<void>((r) => {
    disconnect = r;
  });
  let gone = false;
  let started = false;
  let finishWait!: (v: string) => void;
  const finished: string[] = [];
  const logs: string[] = [];
  const { env } = setup(
    [
      {
        name: 'G',
        startCollapsed: false,
        tools: [
          tool('Wait', () => {
            started = true;
            return new Promise<string>((r) => (finishWait = r));
          }),
        ],
      },
    ],
    { ...DEFAULT_TOOLS_CONFIG, disconnectedMessage: "Client disconnected. Tool '{0}' unavailable." },
  );
  const e: InvokeEnv = {
    ...env,
    disconnected,
    isDisconnected: () => gone,
    observer: { started() {}, finished: (id, r) => finished.push(`${id}:${text(r)}`) },
    log: (m) => logs.push(m),
  };
  const p = invokeTool('Wait', {}, e);
  await until(() => started, 2000, 'the handler to start');
  gone = true;
  disconnect();
  assert.equal(text(await p), "Client disconnected. Tool 'Wait' unavailable.");
  assert.equal(text(await invokeTool('Wait', {}, e)), "Client disconnected. Tool 'Wait' unavailable.");
  // The handler finishes after the answer: its result is dropped, not a second answer.
  finishWait('done');
  await until(() => logs.some((l) => l.includes('result dropped')), 2000, 'the late result to be dropped');
  assert.equal(finished.length, 1, 'the observer saw one answer');
});

test('stale tool lists (Claude Code ignores list_changed): the container proxies a function and answers after expansion', async () => {
  const opened: Array<{ path: string; line?: number }> = [];
  const { env } = setup([ideGroup(opened)]);
  assert.equal(
    text(await invokeTool('IDE', {}, env)),
    'IDE expanded. Available functions: OpenFile, GetSelection, ShowMessage',
  );
  // The agent still only knows "IDE": calling it again expands again, it is not an unknown tool.
  assert.equal(
    text(await invokeTool('IDE', {}, env)),
    'IDE expanded. Available functions: OpenFile, GetSelection, ShowMessage',
  );
  const r = await invokeTool('IDE', { function: 'OpenFile', arguments: { path: 'src/a.ts', line: 2 } }, env);
  assert.equal(text(r), 'Opened src/a.ts');
  assert.deepEqual(opened, [{ path: 'src/a.ts', line: 2 }]);
  const bad = await invokeTool('IDE', { function: 'OpenFile', arguments: { line: 2 } }, env);
  assert.equal(text(bad), "Invalid arguments for tool OpenFile: must have required property 'path'");
  const none = await invokeTool('IDE', { function: 'Nope' }, env);
  assert.equal(none.isError, true);
  assert.match(text(none), /IDE has no function "Nope". Available functions: OpenFile, GetSelection, ShowMessage/);
});
