// The narrow sidebar's layout: session tabs that share a title are told apart, the active tab is
// scrolled into view and every session is reachable from the list button; claude-agent-acp's five
// pickers take one row (mode and model, the rest behind a settings button); the header leaves New
// session and Open session to the view's title bar.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { until } from '../../support/until';
import { fakeHost } from './fakeHost';
import { selectOption } from './configOption';
import type { SessionTab } from '../../../src/shared/protocol';
import { emptySnapshot } from '../../../src/shared/sessionModel';

const dom = new JSDOM('<!DOCTYPE html><body><div id="root"></div></body>', { pretendToBeVisual: true });
const g = globalThis as Record<string, unknown>;
for (const k of ['window', 'document', 'navigator', 'HTMLElement', 'Element', 'Node', 'Event', 'KeyboardEvent']) {
  if (!(k in g) || k === 'window' || k === 'document') g[k] = (dom.window as unknown as Record<string, unknown>)[k];
}
g.requestAnimationFrame = (cb: () => void) => setTimeout(cb, 0);

function mount(view: (h: typeof import('preact').h) => import('preact').ComponentChild) {
  const { h, render } = require('preact') as typeof import('preact');
  const { HostContext } = require('../../../src/webview/host') as typeof import('../../../src/webview/host');
  const fake = fakeHost();
  const root = document.getElementById('root')!;
  render(h(HostContext.Provider, { value: fake.host }, view(h)), root);
  return { ...fake, root, unmount: () => render(null, root) };
}

const tabs = (titles: (string | undefined)[]): SessionTab[] =>
  titles.map((title, i) => ({ sessionId: `s${i}`, title, status: 'idle', turns: 0 }));

test('tabs that share a title are told apart; untitled ones are numbered', () => {
  const { tabLabels } =
    require('../../../src/webview/components/SessionTabs') as typeof import('../../../src/webview/components/SessionTabs');
  assert.deepEqual(tabLabels(tabs(['Fix the build', 'Fix the build', undefined, 'Fix the build'])), [
    'Fix the build',
    'Fix the build (2)',
    'Session 3',
    'Fix the build (3)',
  ]);
});

test('with sessions of several agents open, each tab names its agent and numbers untitled ones per agent', () => {
  const { tabLabels } =
    require('../../../src/webview/components/SessionTabs') as typeof import('../../../src/webview/components/SessionTabs');
  const of = (agentName: string, title?: string, i = 0): SessionTab => ({
    sessionId: `${agentName}${i}`,
    agentName,
    title,
    status: 'idle',
    turns: 0,
  });
  assert.deepEqual(tabLabels([of('Alpha'), of('Beta'), of('Beta', undefined, 1), of('Alpha', 'Fix it', 1)]), [
    'Alpha · Session 1',
    'Beta · Session 1',
    'Beta · Session 2',
    'Alpha · Fix it',
  ]);
  assert.deepEqual(tabLabels([of('Alpha'), of('Alpha', 'Fix it', 1)]), ['Session 1', 'Fix it'], 'one agent: no names');
});

test('the active tab is scrolled into view, and the list button reaches every session', async () => {
  const { SessionTabs } =
    require('../../../src/webview/components/SessionTabs') as typeof import('../../../src/webview/components/SessionTabs');
  const scrolled: string[] = [];
  const proto = dom.window.HTMLElement.prototype as unknown as { scrollIntoView(): void };
  proto.scrollIntoView = function (this: HTMLElement) {
    scrolled.push(this.textContent ?? '');
  };
  const sessions = tabs(Array.from({ length: 12 }, (_, i) => `Task ${i + 1}`));
  const { root, intents, unmount } = mount((h) => h(SessionTabs, { sessions, activeId: 's11' }));
  await until(() => scrolled.length > 0, 1000, 'the active tab scrolled into view');
  assert.match(scrolled[0], /Task 12/);
  const list = root.querySelector<HTMLSelectElement>('[data-testid="session-list"]')!;
  assert.equal(list.options.length, 12);
  list.selectedIndex = 3;
  list.dispatchEvent(new dom.window.Event('change', { bubbles: true }));
  assert.deepEqual(intents, [{ type: 'switchSession', sessionId: 's3' }]);
  unmount();
});

test("claude-agent-acp's five pickers: mode and model in view, the other three behind one button", async () => {
  const { Pickers } =
    require('../../../src/webview/components/Pickers') as typeof import('../../../src/webview/components/Pickers');
  const opt = selectOption;
  const configOptions = [
    opt('mode', 'mode'),
    opt('model', 'model'),
    opt('effort', 'thought_level'),
    opt('fast', 'model_config'),
    opt('ultracode', 'model_config'),
  ] as never;
  const { root, unmount } = mount((h) => h(Pickers, { modes: [], configOptions, enabled: true }));
  const shown = () => [...root.querySelectorAll('select')].map((s) => s.dataset.testid);
  assert.deepEqual(shown(), ['config-mode', 'config-model']);
  root.querySelector<HTMLButtonElement>('[data-testid="more-pickers"]')!.click();
  await until(() => shown().length === 5, 1000, 'the other pickers');
  assert.deepEqual(shown().slice(2), ['config-effort', 'config-fast', 'config-ultracode']);
  unmount();
});

test('the header has no New session or Open session button (the view title bar has them)', () => {
  const { App } =
    require('../../../src/webview/components/App') as typeof import('../../../src/webview/components/App');
  const { Mirror } = require('../../../src/webview/mirror') as typeof import('../../../src/webview/mirror');
  const { root, unmount } = mount((h) => h(App, { vm: new Mirror().current }));
  const labels = [...root.querySelectorAll('.header button')].map((b) => b.getAttribute('aria-label'));
  assert.deepEqual(labels, ['Restart agent']);
  unmount();
});

test("a forked session's tab is marked as a fork and names its source", () => {
  const { SessionTabs } =
    require('../../../src/webview/components/SessionTabs') as typeof import('../../../src/webview/components/SessionTabs');
  const sessions: SessionTab[] = [...tabs(['Plan']), { ...tabs(['Plan (fork)'])[0], sessionId: 'f', forkOf: 'Plan' }];
  const t = mount((h) => h(SessionTabs, { sessions, activeId: 's0' }));
  const [source, fork] = [...t.root.querySelectorAll<HTMLElement>('[data-testid="session-tab"]')];
  assert.equal(source.querySelector('[data-testid="tab-forked"]'), null);
  assert.ok(fork.querySelector('[data-testid="tab-forked"]'), 'the fork has the fork icon');
  assert.match(fork.title, /forked from Plan/);
  t.unmount();
});

test("a worktree session's tab and header name its branch", async () => {
  const { SessionTabs } =
    require('../../../src/webview/components/SessionTabs') as typeof import('../../../src/webview/components/SessionTabs');
  const sessions: SessionTab[] = [
    ...tabs(['Mine']),
    { ...tabs(['Theirs'])[0], sessionId: 'w', place: 'tandem/fix-login' },
  ];
  const t = mount((h) => h(SessionTabs, { sessions, activeId: 's0' }));
  const [plain, worktree] = [...t.root.querySelectorAll<HTMLElement>('[data-testid="session-tab"]')];
  assert.equal(plain.querySelector('.codicon-git-branch'), null);
  assert.ok(worktree.querySelector('.codicon-git-branch'), 'the worktree tab has a branch icon');
  assert.match(worktree.title, /in its worktree on tandem\/fix-login/);
  t.unmount();

  const { App } =
    require('../../../src/webview/components/App') as typeof import('../../../src/webview/components/App');
  const { Mirror } = require('../../../src/webview/mirror') as typeof import('../../../src/webview/mirror');
  const mirror = new Mirror();
  const session = { ...emptySnapshot('w'), meta: { ...emptySnapshot('w').meta, title: 'Theirs' } };
  mirror.receive({ type: 'snapshot', agent: { state: 'ready', name: 'Claude' }, session, sessions });
  const a = mount((h) => h(App, { vm: mirror.current }));
  await until(() => !!a.root.querySelector('[data-testid="session-place"]'), 1000, 'the branch in the header');
  assert.match(a.root.querySelector('[data-testid="session-place"]')!.textContent!, /tandem\/fix-login/);
  a.unmount();
});
