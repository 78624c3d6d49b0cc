// The view with outlined turns: unfolding one shows "Loading…" and asks the host once; the
// host's fullTurn patch replaces it with the turn's rows. A failed request shows its error there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { getToolCall, toSnapshot, turnWithCalls } from '../../../src/session/snapshot';
import { TurnOutliner } from '../../../src/shared/turnOutline';
import { threeFinishedTurns } from '../../support/sessions';
import { fakeHost } from './fakeHost';
import { settle } from './transcriptMount';
import { until } from '../../support/until';

const dom = new JSDOM('<!DOCTYPE html><body><div id="root"></div></body>', { pretendToBeVisual: true });
const g = globalThis as Record<string, unknown>;
for (const k of [
  'window',
  'document',
  'navigator',
  'HTMLElement',
  'Element',
  'Node',
  'Event',
  'KeyboardEvent',
  'MouseEvent',
  'CSS',
  'getComputedStyle',
]) {
  if (!(k in g) || k === 'window' || k === 'document') g[k] = (dom.window as unknown as Record<string, unknown>)[k];
}
g.requestAnimationFrame = (cb: () => void) => setTimeout(cb, 0);
g.cancelAnimationFrame = (t: ReturnType<typeof setTimeout>) => clearTimeout(t);

/** The transcript of threeFinishedTurns() with folded turns sent as outlines, in a fake host. */
async function mount() {
  // Loaded after the globals: the modules read document at import.
  const { h, render } = require('preact') as typeof import('preact');
  const { Transcript } =
    require('../../../src/webview/components/Transcript') as typeof import('../../../src/webview/components/Transcript');
  const { Mirror } = require('../../../src/webview/mirror') as typeof import('../../../src/webview/mirror');
  const { HostContext } = require('../../../src/webview/host') as typeof import('../../../src/webview/host');
  const fake = fakeHost();
  const { asked, replies } = fake;
  // The open turns' changes lists (their own chunk) ask for the turn's files: none here. This
  // test counts the view's loadTurns requests.
  const host: typeof fake.host = {
    ...fake.host,
    request: ((method, params) =>
      method === 'turnChanges' ? Promise.resolve([]) : fake.host.request(method, params)) as typeof fake.host.request,
  };
  const s = threeFinishedTurns();
  const outliner = new TurnOutliner();
  const mirror = new Mirror();
  mirror.schedule = (cb) => {
    setTimeout(cb, 0);
    return 1;
  };
  mirror.receive({ type: 'snapshot', agent: { state: 'ready' }, session: outliner.snapshot(toSnapshot(s)) });
  const root = document.getElementById('root')!;
  const draw = () =>
    render(
      h(
        HostContext.Provider,
        { value: host },
        h(Transcript, { session: mirror.current.session!, toolsVersion: mirror.current.toolsVersion, working: false }),
      ),
      root,
    );
  mirror.subscribe(draw);
  draw();
  await settle();
  const turns = () => [...root.querySelectorAll<HTMLElement>('[data-testid="turn"]')];
  return { s, outliner, mirror, root, draw, turns, asked, replies, render };
}

test('unfolding an outlined turn asks the host once, shows Loading…, then its tool calls', async () => {
  const { s, outliner, mirror, root, draw, turns, asked, replies, render } = await mount();
  assert.equal(turns().length, 3);
  assert.match(turns()[0].textContent ?? '', /task 0.*3 tool calls/, 'an outline shows its prompt and counts');
  assert.equal(root.querySelectorAll('[data-testid="tool-call"]').length, 3, 'the last turn is whole and open');
  assert.equal(asked.length, 0, 'nothing asked while folded');

  (turns()[0].querySelector('.turn-line') as HTMLElement).click();
  await until(
    () => !!root.querySelector('[data-testid="turn-loading"]'),
    1000,
    'Loading… while the content is on its way',
  );
  await until(() => asked.length > 0, 1000, 'the view asks for the turn');
  assert.deepEqual(asked, [{ method: 'loadTurns', params: { sessionId: 's', turns: [0] } }]);
  draw();
  await settle(20); // the frames a second request would take
  assert.equal(asked.length, 1, 'asked once');

  // The host answers through the patch channel, then replies.
  const msg = (asked[0].params as { turns: number[] }).turns;
  const patches = outliner.request('s', msg, {
    fullTurn: (t) => turnWithCalls(s, t),
    turnOfCall: (id) => getToolCall(s, id)?.turn,
  });
  mirror.receive({ type: 'patch', sessionId: 's', patches });
  replies[0].resolve({ loaded: msg });
  await until(() => root.querySelector('[data-testid="turn-loading"]') === null, 1000, 'the content replaces Loading…');
  const titles = [...root.querySelectorAll('[data-testid="tool-call"]')].map((e) => e.textContent ?? '');
  assert.equal(titles.length, 6);
  assert.ok(
    titles.some((t) => t.includes('f00.ts')),
    titles.join(' | '),
  );
  render(null, root);
});

test('a failed turn load shows its error in place of Loading…, and unfolding the turn again asks again', async () => {
  const { root, turns, asked, replies, render } = await mount();
  const line = () => turns()[0].querySelector('.turn-line') as HTMLElement;
  line().click();
  await until(() => asked.length === 1, 1000, 'the view asks for the turn');
  replies[0].reject(new Error('the session is gone'));
  await until(() => !!root.querySelector('[data-testid="turn-load-error"]'), 1000, 'the error shows');
  assert.match(root.querySelector('[data-testid="turn-load-error"]')!.textContent ?? '', /the session is gone/);
  assert.equal(root.querySelector('[data-testid="turn-loading"]'), null);
  line().click(); // fold
  await settle();
  line().click(); // unfold: asked again, Loading… again
  await until(() => asked.length === 2, 1000, 'asked again');
  assert.deepEqual(asked[1], { method: 'loadTurns', params: { sessionId: 's', turns: [0] } });
  await until(() => !!root.querySelector('[data-testid="turn-loading"]'), 1000, 'Loading… again');
  assert.equal(root.querySelector('[data-testid="turn-load-error"]'), null);
  render(null, root);
});
