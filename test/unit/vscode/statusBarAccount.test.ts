// The status bar item's tooltip says who the agent works as (its `_auth/status_update`), and that
// nobody is signed in when it reports so; it changes when the report does.
import { vscodeFake } from '../security/fakeVscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from '../../../src/common/event';
import type { AgentView } from '../../../src/shared/protocol';
import type { Controller } from '../../../src/vscode/agent/controller';
import { StatusIndicators } from '../../../src/vscode/agent/statusBar';

const items: Record<string, unknown>[] = [];
// The items StatusIndicators makes (it makes them when constructed).
(vscodeFake.window as Record<string, unknown>).createStatusBarItem = () => {
  const item = { show: () => undefined, dispose: () => undefined };
  items.push(item);
  return item;
};

test('the tooltip names the account the agent reports, or that nobody is signed in', () => {
  const changed = new Emitter<void>();
  const ctl = {
    agent: { state: 'ready', name: 'Claude Agent' } as AgentView,
    current: undefined,
    onDidChangeAgent: changed.event,
    onDidChangeSession: changed.event,
    onDidChangeSessions: changed.event,
    onDidReplace: changed.event,
  };
  const indicators = new StatusIndicators(ctl as unknown as Controller);
  const tooltip = () => String(items[0].tooltip);
  assert.equal(tooltip(), 'Tandem: Claude Agent — idle');
  ctl.agent = { ...ctl.agent, account: { kind: 'api_key', label: 'Anthropic API key' } };
  changed.fire();
  assert.equal(tooltip(), 'Tandem: Claude Agent — idle\nWorks as Anthropic API key');
  ctl.agent = { ...ctl.agent, account: { kind: 'none', label: 'Not logged in' } };
  changed.fire();
  assert.equal(tooltip(), 'Tandem: Claude Agent — idle\nNot signed in');
  indicators.dispose();
});
