// claude-agent-acp reports its command "pending" until the result: the row says Running while the
// call's terminal runs, and Pending while a permission prompt still waits on it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToString } from 'preact-render-to-string';
import { h } from 'preact';
import { ToolCallRow } from '../../../src/webview/components/ToolCallRow';
import { groupPrompts } from '../../../src/webview/components/PermissionPrompt';
import { toolCall } from './toolCall';

const call = toolCall({ kind: 'execute', title: 'echo hi', agentTerminalId: 'T1', rawInput: { command: 'echo hi' } });
const running = { T1: { terminalId: 'T1', command: 'echo hi', output: '', truncated: false, exited: false } };
const row = (
  terminals: typeof running,
  prompts?: ReturnType<typeof groupPrompts> extends Map<string, infer P> ? P : never,
) =>
  renderToString(
    h(ToolCallRow, {
      call,
      expanded: false,
      focused: false,
      terminals,
      onToggle: () => {},
      onFocus: () => {},
      prompts,
    }),
  );

test('a pending call whose agent terminal runs shows as running', () => {
  assert.match(row(running), /aria-label="Running"/);
  assert.match(row({ T1: { ...running.T1, exited: true } }), /aria-label="Pending"/);
});

test('a pending call waiting on its permission prompt stays pending', () => {
  const prompts = groupPrompts([
    { requestId: 'r1', toolCallId: 'c1', toolCall: { toolCallId: 'c1' }, options: [], at: 0 },
  ]).get('c1');
  assert.match(row(running, prompts), /aria-label="Pending"/);
});
