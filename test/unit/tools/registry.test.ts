import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ToolRegistry, ToolRegistrationError } from '../../../src/tools/registry';
import { ToolState } from '../../../src/tools/toolState';
import { DEFAULT_TOOLS_CONFIG, type ToolsConfig } from '../../../src/tools/types';
import { ideGroup, tool } from './fixtures';

const names = (s: ToolState) => s.list().map((l) => l.name);

test('registration: a bad schema is rejected naming group, tool and schema path', () => {
  const r = new ToolRegistry();
  assert.throws(
    () =>
      r.register({
        name: 'IDE',
        tools: [
          tool('OpenFile', undefined, { parametersSchema: { type: 'object', properties: { line: { type: 'int' } } } }),
        ],
      }),
    (e: Error) =>
      e instanceof ToolRegistrationError &&
      /^Invalid tool group "IDE": tool "OpenFile": parametersSchema\.properties\.line\.type: must be equal to one of the allowed values/.test(
        e.message,
      ),
  );
  assert.throws(
    () => r.register({ name: 'IDE', tools: [tool('OpenFile', undefined, { parametersSchema: { type: 'string' } })] }),
    /Invalid tool group "IDE": tool "OpenFile": parametersSchema\.type: must be "object"/,
  );
  assert.throws(
    () =>
      r.register({
        name: 'IDE',
        tools: [tool('OpenFile', undefined, { parametersSchema: { type: 'object', required: 'path' } })],
      }),
    /Invalid tool group "IDE": tool "OpenFile": parametersSchema\.required: must be array/,
  );
  assert.throws(
    () => r.register({ name: 'bad name', tools: [tool('A')] }),
    /Invalid tool group "bad name": the group name must match/,
  );
  assert.throws(() => r.register({ name: 'G', tools: [] }), /Invalid tool group "G": it has no tools/);
  assert.throws(
    () => r.register({ name: 'G', tools: [tool('A'), tool('A')] }),
    /Invalid tool group "G": tool "A": duplicate tool name/,
  );
  assert.throws(
    () => r.register({ name: 'G', tools: [{ ...tool('A'), description: '' }] }),
    /tool "A": missing description/,
  );
  assert.throws(
    () =>
      r.register({ name: 'G', tools: [tool('A')], skills: [{ name: 'S', description: 'd', references: ['Nope'] }] }),
    /Invalid tool group "G": skill "S": references unknown tool "Nope"/,
  );
  assert.equal(r.all().length, 0);
});

test('registration: duplicate group and tool names across groups are rejected; dispose unregisters', () => {
  const r = new ToolRegistry();
  const d = r.register(ideGroup());
  assert.throws(() => r.register(ideGroup()), /Invalid tool group "IDE": a group with this name is already registered/);
  assert.throws(
    () => r.register({ name: 'Other', tools: [tool('OpenFile')] }),
    /Invalid tool group "Other": the name "OpenFile" is already used by group "IDE"/,
  );
  assert.throws(
    () => r.register({ name: 'Other', tools: [tool('IDE')] }),
    /the name "IDE" is already used by group "IDE"/,
  );
  let changes = 0;
  r.onDidChange(() => changes++);
  d.dispose();
  assert.equal(r.all().length, 0);
  assert.equal(changes, 1);
  r.register(ideGroup());
  assert.equal(r.all().length, 1);
});

test('collapse: a collapsed group is one container tool with the "(3 tools)" description', () => {
  const r = new ToolRegistry();
  r.register(ideGroup());
  const s = new ToolState(r);
  assert.deepEqual(names(s), ['IDE']);
  const c = s.list()[0];
  assert.equal(c.kind, 'container');
  assert.ok(c.description.startsWith('IDE — VS Code interaction tools (3 tools)'), c.description);
  // Empty arguments expand; `function` + `arguments` proxy a call for agents with a stale tool list.
  assert.deepEqual((c.inputSchema as { properties: { function: { enum: string[] } } }).properties.function.enum, [
    'OpenFile',
    'GetSelection',
    'ShowMessage',
  ]);
  assert.equal((c.inputSchema as { additionalProperties: boolean }).additionalProperties, false);
});

test('expand: the result is exactly "{Group} expanded. Available functions: {A, B, C}" plus functionResult; list_changed fires once', () => {
  const r = new ToolRegistry();
  r.register(ideGroup());
  r.register({
    name: 'Git',
    description: 'Git tools',
    functionResult: 'Tip: use Status first.',
    tools: [tool('Status'), tool('Log')],
  });
  const s = new ToolState(r);
  let fired = 0;
  s.onDidChangeList(() => fired++);
  assert.equal(s.expand('IDE'), 'IDE expanded. Available functions: OpenFile, GetSelection, ShowMessage');
  assert.equal(fired, 1);
  assert.deepEqual(names(s), ['OpenFile', 'GetSelection', 'ShowMessage', 'Git']);
  assert.equal(s.expand('Git'), 'Git expanded. Available functions: Status, Log\n\nTip: use Status first.');
  assert.equal(fired, 2);
  assert.equal(s.expand('Git'), 'Git expanded. Available functions: Status, Log\n\nTip: use Status first.');
  assert.equal(fired, 2, 'no change, no list_changed');
});

test('collapse settings: global disable, per-group startCollapsed, pre-expanded groups', () => {
  const r = new ToolRegistry();
  r.register(ideGroup());
  r.register({ name: 'Always', startCollapsed: false, tools: [tool('Ping')] });
  r.register({ name: 'Pre', tools: [tool('PreTool')] });
  let cfg: ToolsConfig = { ...DEFAULT_TOOLS_CONFIG, expandedGroups: ['Pre'] };
  const s = new ToolState(r, () => cfg);
  assert.deepEqual(names(s), ['IDE', 'Ping', 'PreTool']);
  let fired = 0;
  s.onDidChangeList(() => fired++);
  cfg = { ...cfg, collapse: false };
  s.refresh();
  assert.equal(fired, 1);
  assert.deepEqual(names(s), ['OpenFile', 'GetSelection', 'ShowMessage', 'Ping', 'PreTool']);
});

test('systemPrompt rides on the tool descriptions only while the group is expanded', () => {
  const r = new ToolRegistry();
  r.register({ ...ideGroup(), systemPrompt: 'Use ShowMessage for important notifications.' });
  const s = new ToolState(r);
  assert.ok(!s.list()[0].description.includes('ShowMessage for important'));
  s.expand('IDE');
  for (const l of s.list())
    assert.ok(
      l.description.endsWith('IDE group instructions: Use ShowMessage for important notifications.'),
      l.description,
    );
  s.collapse('IDE');
  assert.deepEqual(names(s), ['IDE']);
});

test('skills: listed beside the container; activating one exposes exactly its tools', () => {
  const r = new ToolRegistry();
  r.register({
    name: 'Checkout',
    description: 'Shop',
    tools: [tool('ValidateCart'), tool('ProcessPayment'), tool('ConfirmOrder'), tool('Refund')],
    skills: [
      {
        name: 'Complete Checkout',
        description: "Process a customer's checkout",
        functionResult: 'Go in order.',
        systemPrompt: '1. validate 2. pay 3. confirm',
        references: ['ValidateCart', 'ProcessPayment', 'ConfirmOrder'],
      },
    ],
  });
  const s = new ToolState(r);
  assert.deepEqual(names(s), ['Checkout', 'Complete_Checkout']);
  assert.equal(
    s.activateSkill('Checkout', 'Complete_Checkout'),
    'Complete Checkout skill activated. Available functions: ValidateCart, ProcessPayment, ConfirmOrder\n\nGo in order.',
  );
  assert.deepEqual(names(s), ['Checkout', 'Complete_Checkout', 'ValidateCart', 'ProcessPayment', 'ConfirmOrder']);
  assert.ok(
    s
      .resolve('ValidateCart')!
      .description.includes('Complete Checkout skill instructions: 1. validate 2. pay 3. confirm'),
  );
  s.reset();
  assert.deepEqual(names(s), ['Checkout', 'Complete_Checkout']);
});

test('state persists until reset; reset returns to the configured groups', () => {
  const r = new ToolRegistry();
  r.register(ideGroup());
  const s = new ToolState(r);
  s.expand('IDE');
  s.augment({ hideTools: ['ShowMessage'] });
  assert.deepEqual(names(s), ['OpenFile', 'GetSelection']);
  s.reset();
  assert.deepEqual(names(s), ['IDE']);
});

test('replace: a group takes the place of the one of the same name in one change; the old registration is inert', () => {
  const r = new ToolRegistry();
  const old = r.register({ name: 'Extensions', tools: [tool('A')] });
  let changes = 0;
  r.onDidChange(() => changes++);
  assert.throws(() => r.register({ name: 'Extensions', tools: [tool('B')] }), /already registered/);
  r.register({ name: 'Extensions', tools: [tool('B')] }, { replace: true });
  assert.equal(changes, 1);
  assert.deepEqual(
    r.get('Extensions')!.group.tools.map((t) => t.name),
    ['B'],
  );
  old.dispose();
  assert.ok(r.get('Extensions'), 'disposing the replaced registration removes nothing');
  assert.equal(changes, 1);
});
