// "Fork from here": under the last prompt of a session whose agent offers session/fork, while no
// turn runs; never for an agent without it. A click asks the host to fork the shown session.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { toSnapshot } from '../../../src/session/snapshot';
import type { AgentView } from '../../../src/shared/protocol';
import type { SessionSnapshot } from '../../../src/shared/sessionModel';
import { threeFinishedTurns } from '../../support/sessions';
import { until } from '../../support/until';
import { fakeHost } from './fakeHost';

const dom = new JSDOM('<!DOCTYPE html><body><div id="root"></div></body>', { pretendToBeVisual: true });
const g = globalThis as Record<string, unknown>;
for (const k of ['window', 'document', 'navigator', 'HTMLElement', 'Element', 'Node', 'Event', 'KeyboardEvent']) {
  if (!(k in g) || k === 'window' || k === 'document') g[k] = (dom.window as unknown as Record<string, unknown>)[k];
}
g.requestAnimationFrame = (cb: () => void) => setTimeout(cb, 0);
g.cancelAnimationFrame = (t: ReturnType<typeof setTimeout>) => clearTimeout(t);

/** The whole view (App) showing `session` for `agent`, in a fake host; every turn unfolded. */
function mount(agent: AgentView, session: SessionSnapshot) {
  const { h, render } = require('preact') as typeof import('preact');
  const { App } =
    require('../../../src/webview/components/App') as typeof import('../../../src/webview/components/App');
  const { Mirror } = require('../../../src/webview/mirror') as typeof import('../../../src/webview/mirror');
  const { HostContext } = require('../../../src/webview/host') as typeof import('../../../src/webview/host');
  const fake = fakeHost();
  // Every turn open: the links of the earlier turns are rendered too, so their absence means something.
  fake.host.state.merge({ transcript: { sessionId: session.meta.sessionId, foldAll: false } });
  const mirror = new Mirror();
  mirror.receive({ type: 'snapshot', agent, session });
  const root = document.getElementById('root')!;
  render(h(HostContext.Provider, { value: fake.host }, h(App, { vm: mirror.current })), root);
  const links = () => [...root.querySelectorAll<HTMLButtonElement>('[data-testid="fork-here"]')];
  const restores = () => root.querySelectorAll('[data-testid="restore-here"]').length;
  return { ...fake, root, links, restores, unmount: () => render(null, root) };
}

const ready: AgentView = { state: 'ready', name: 'Claude Agent', canFork: true };
const idle = () => toSnapshot(threeFinishedTurns());

test('the last turn offers "Fork from here", and a click asks the host to fork', async () => {
  const v = mount(ready, idle());
  await until(() => v.links().length === 1, 2000, 'the fork link');
  assert.ok(v.restores() >= 2, `several turns are open (${v.restores()} restore links): only the last has a fork link`);
  const turn = v.links()[0].closest<HTMLElement>('[data-testid="turn"]')!;
  assert.equal(turn.dataset.turn, '2', 'under the last prompt');
  assert.match(v.links()[0].textContent!, /Fork from here/);
  v.links()[0].click();
  assert.deepEqual(v.intents, [{ type: 'forkSession' }]);
  v.unmount();
});

test('no "Fork from here" for an agent without session/fork, nor while a turn runs', async () => {
  for (const [agent, session, why] of [
    [{ ...ready, canFork: undefined }, idle(), 'the agent does not offer fork'],
    [ready, { ...idle(), meta: { ...idle().meta, status: 'working' } }, 'a turn runs'],
    [{ ...ready, state: 'starting' }, idle(), 'a session is opening'],
  ] as const) {
    const v = mount(agent, session as SessionSnapshot);
    await until(() => v.restores() > 0, 2000, 'the turn actions');
    assert.equal(v.links().length, 0, why);
    v.unmount();
  }
});
