// The view follows the mirror even when the host's snapshot lands between the first render and
// the effect that subscribes (effects run after paint; on a loaded machine much later): the view
// must not stay at "No agent" while the agent runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import type { AgentView } from '../../../src/shared/protocol';
import { until } from '../../support/until';

const dom = new JSDOM('<!DOCTYPE html><body><div id="root"></div></body>', { pretendToBeVisual: true });
const g = globalThis as Record<string, unknown>;
for (const k of ['window', 'document', 'navigator', 'HTMLElement', 'Element', 'Node', 'Event']) {
  if (!(k in g) || k === 'window' || k === 'document') g[k] = (dom.window as unknown as Record<string, unknown>)[k];
}
// Effects wait for a frame: hold the frames back to open the window a loaded machine opens.
const frames: Array<() => void> = [];
g.requestAnimationFrame = (cb: () => void) => frames.push(cb);
g.cancelAnimationFrame = () => undefined;

test('a snapshot received after the first render but before the subscription still reaches the view', async () => {
  const { h, render } = require('preact') as typeof import('preact');
  const { Mirror } = require('../../../src/webview/mirror') as typeof import('../../../src/webview/mirror');
  const { useMirror } = require('../../../src/webview/useMirror') as typeof import('../../../src/webview/useMirror');
  const mirror = new Mirror();
  const Shown = () => h('span', { id: 'agent' }, useMirror(mirror).agent.name ?? 'No agent');
  const root = document.getElementById('root')!;
  render(h(Shown, null), root);
  assert.equal(root.textContent, 'No agent', 'first render: nothing received yet');
  // The host's answer to `ready` arrives before the effect has subscribed.
  const agent: AgentView = { state: 'ready', name: 'Claude Code' };
  mirror.receive({ type: 'snapshot', agent, session: null });
  while (frames.length) frames.shift()!();
  await until(() => root.textContent === 'Claude Code', 2000, 'the view shows the running agent');
  render(null, root);
});
