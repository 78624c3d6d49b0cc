import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demoAgent, parseAgents } from '../../../src/client/agents/agentConfig';

test('parseAgents keeps valid entries and warns about each bad one', () => {
  const { agents, warnings } = parseAgents([
    { name: 'Claude', command: 'npx', args: ['@zed-industries/claude-code-acp'], env: { A: '1' } },
    { name: 'NoCommand' },
    { command: 'x' },
    { name: 'BadArgs', command: 'x', args: 'oops' },
    { name: 'BadEnv', command: 'x', env: { A: 1 } },
    42,
    { name: 'Claude', command: 'claude-acp' },
  ]);
  assert.deepEqual(agents, [{ name: 'Claude', command: 'claude-acp' }]);
  assert.equal(warnings.length, 6);
  assert.match(warnings[0], /NoCommand.*command/);
  assert.match(warnings[5], /replaces/);
});

test('parseAgents: not a list', () => {
  assert.deepEqual(parseAgents({}).agents, []);
  assert.match(parseAgents({}).warnings[0], /must be a list/);
  assert.deepEqual(parseAgents(undefined), { agents: [], warnings: [] });
});

test('demo agent runs the bundled script with the host Node', () => {
  const d = demoAgent('/usr/bin/node', '/ext/dist/demo-agent.js');
  assert.deepEqual(d.args, ['/ext/dist/demo-agent.js']);
  assert.equal(d.env?.ELECTRON_RUN_AS_NODE, '1');
});

test('parseAgents: secretEnv names are validated', () => {
  const { agents, warnings } = parseAgents([
    { name: 'A', command: 'a', secretEnv: ['ANTHROPIC_API_KEY'] },
    { name: 'B', command: 'b', secretEnv: ['not valid'] },
  ]);
  assert.deepEqual(agents, [{ name: 'A', command: 'a', secretEnv: ['ANTHROPIC_API_KEY'] }]);
  assert.match(warnings[0], /secretEnv/);
});
