// The bash grammar loads on the first command a decision looks at — not at activation, not for
// a call that runs no command — and that first decision waits for it rather than failing open or
// asking needlessly. Its own file: node --test gives each file a fresh process, so the grammar
// is not loaded yet when these tests start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PermissionBroker } from '../../../../src/client/permissions/broker';
import { memoryMemento, RememberedDecisions } from '../../../../src/client/permissions/remembered';
import { parseRules } from '../../../../src/client/permissions/rules';
import { bashParserReady } from '../../../../src/client/permissions/shell/bashParser';
import { nullLogger } from '../../../../src/common/logger';

const ROOT = '/home/user/project';
const OPTIONS = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' as const },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' as const },
];

test('the first command decision waits for the grammar to load; a call without a command never loads it', async () => {
  const rules = {
    user: parseRules(
      [
        { command: 'npm test', action: 'allow' },
        { kind: 'fetch', action: 'allow' },
      ],
      'user',
    ).rules,
    workspace: [],
  };
  const broker = new PermissionBroker({
    rules: () => rules,
    roots: () => [ROOT],
    remembered: new RememberedDecisions(memoryMemento()),
    logger: nullLogger,
  });
  const fetch = await broker.request('s1', { toolCallId: 'f', title: 'Fetch', kind: 'fetch' }, OPTIONS);
  assert.deepEqual(fetch, { outcome: 'selected', optionId: 'allow' });
  assert.equal(bashParserReady(), false, 'a call that runs no command does not load the grammar');
  const run = broker.request(
    's1',
    { toolCallId: 'c', title: 'npm test', kind: 'execute', rawInput: { command: 'npm test -- --watch' } },
    OPTIONS,
  );
  assert.deepEqual(
    await run,
    { outcome: 'selected', optionId: 'allow' },
    'the rule allows it once the grammar is there',
  );
  assert.equal(bashParserReady(), true);
  broker.dispose();
});
