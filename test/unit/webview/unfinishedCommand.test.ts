// An agent may mark a command "completed" although it never exited (claude-code-acp answers a
// time-out with "Timed out" and completes the call): its row must not show a green check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderToString } from 'preact-render-to-string';
import { h } from 'preact';
import { ToolCallRow } from '../../../src/webview/components/ToolCallRow';
import type { TerminalView, ToolCallView } from '../../../src/shared/sessionModel';
import { toolCall } from './toolCall';

const dom = new JSDOM('<!DOCTYPE html><body></body>');

function statusOf(call: ToolCallView, terminal: Partial<TerminalView>) {
  const terminals = { t1: { terminalId: 't1', output: '', truncated: false, exited: true, ...terminal } };
  const el = dom.window.document.createElement('div');
  el.innerHTML = renderToString(
    h(ToolCallRow, { call, expanded: false, focused: false, terminals, onToggle: () => {}, onFocus: () => {} }),
  );
  const icon = el.querySelector('.tool-status')!.className;
  return { icon, label: el.querySelector('[data-testid="tool-call"]')!.getAttribute('aria-label') ?? '' };
}
const call = toolCall({
  kind: 'execute',
  title: 'echo "reach!bang"',
  status: 'completed',
  content: [{ type: 'terminal', terminalId: 't1' }],
});

test('a completed command whose terminal was released while it ran shows "Did not finish", not a check', () => {
  const s = statusOf(call, { released: true, exitCode: null });
  assert.match(s.icon, /codicon-warning/);
  assert.match(s.label, /Did not finish/);
});

test('a completed command killed by a signal shows "Did not finish"', () => {
  assert.match(statusOf(call, { exitCode: null, signal: 'SIGTERM' }).icon, /codicon-warning/);
});

test('a command that exited, even with a failure code, keeps its completed check', () => {
  assert.match(statusOf(call, { exitCode: 3, released: true }).icon, /codicon-pass/);
  assert.match(statusOf(call, { exitCode: 0 }).icon, /codicon-pass/);
});
