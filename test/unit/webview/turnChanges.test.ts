// Under a prompt: "Restore to here", and the turn's changed files with +/− lines; the buttons send
// the host intents naming the turn (and the file), and the list asks again when the host says the
// changes moved. The host's messages (replies, "changes") reach it as the page's do: window
// `message` events, through the one dispatcher (dispatch.ts) to the Host.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { until } from '../../support/until';
import type { ChangedFile } from '../../../src/shared/protocol';

const dom = new JSDOM('<!DOCTYPE html><body><div id="root"></div></body>', { pretendToBeVisual: true });
const g = globalThis as Record<string, unknown>;
for (const k of ['window', 'document', 'navigator', 'HTMLElement', 'Element', 'Node', 'Event', 'MessageEvent']) {
  if (!(k in g) || k === 'window' || k === 'document') g[k] = (dom.window as unknown as Record<string, unknown>)[k];
}

/** TurnChanges for `turns` ([turn, has tool calls]) over the real Host, fed by the page's dispatcher. */
function mount(...turns: [number, boolean][]) {
  const { h, render } = require('preact') as typeof import('preact');
  const { TurnChanges } =
    require('../../../src/webview/components/TurnChanges') as typeof import('../../../src/webview/components/TurnChanges');
  const { createHost, HostContext } =
    require('../../../src/webview/host') as typeof import('../../../src/webview/host');
  const { Mirror } = require('../../../src/webview/mirror') as typeof import('../../../src/webview/mirror');
  const { listen } = require('../../../src/webview/dispatch') as typeof import('../../../src/webview/dispatch');
  const sent: Record<string, unknown>[] = [];
  const host = createHost({
    postMessage: (m) => sent.push(m as Record<string, unknown>),
    getState: () => undefined,
    setState: () => undefined,
  });
  const stop = listen(window, host, new Mirror());
  const root = document.getElementById('root')!;
  render(
    h(
      HostContext.Provider,
      { value: host },
      turns.map(([turn, tools]) => h(TurnChanges, { key: turn, turn, tools })),
    ),
    root,
  );
  const asked = () => sent.filter((m) => m.type === 'request');
  const intents = () => sent.filter((m) => m.type !== 'request');
  /** What the host would post to the page. */
  const fromHost = (data: unknown) => window.dispatchEvent(new dom.window.MessageEvent('message', { data }));
  const reply = (seq: unknown, result: unknown) => fromHost({ type: 'reply', seq, result });
  const unmountView = () => render(null, root);
  const unmount = () => {
    unmountView();
    stop();
  };
  return { root, asked, intents, fromHost, reply, unmountView, unmount };
}

const files: ChangedFile[] = [
  { path: '/ws/a.ts', label: 'a.ts', kind: 'modified', added: 3, removed: 1, state: 'pending' },
  { path: '/ws/new.ts', label: 'new.ts', kind: 'created', added: 2, removed: 0, state: 'kept' },
];

test('the turn lists its changed files with +/− lines and states; each button sends its intent', async () => {
  const v = mount([2, true]);
  await until(() => v.asked().length === 1, 1000, 'the files asked for');
  assert.deepEqual(v.asked()[0], { type: 'request', seq: 1, method: 'turnChanges', params: { turn: 2 } });
  v.reply(1, files);
  const rows = () => [...v.root.querySelectorAll<HTMLElement>('[data-testid="changed-file"]')];
  await until(() => rows().length === 2, 1000, 'two files');
  assert.match(rows()[0].textContent!, /a\.ts\s*\+3\s*−1/);
  assert.match(rows()[1].textContent!, /new\.ts\s*created\s*\+2\s*−0\s*· kept/);
  assert.equal(rows()[1].dataset.state, 'kept');

  rows()[0].querySelector<HTMLAnchorElement>('.changed-name')!.click();
  rows()[0].querySelector<HTMLButtonElement>('[aria-label="Undo a.ts"]')!.click();
  rows()[0].querySelector<HTMLButtonElement>('[aria-label="Keep a.ts"]')!.click();
  assert.ok(rows()[1].querySelector<HTMLButtonElement>('[aria-label="Keep new.ts"]')!.disabled, 'kept: no Keep');
  v.root.querySelector<HTMLButtonElement>('[data-testid="review-turn"]')!.click();
  v.root.querySelector<HTMLButtonElement>('[data-testid="undo-turn"]')!.click();
  v.root.querySelector<HTMLButtonElement>('[data-testid="restore-here"]')!.click();
  assert.deepEqual(v.intents(), [
    { type: 'changeAction', turn: 2, action: 'diff', path: '/ws/a.ts' },
    { type: 'changeAction', turn: 2, action: 'undo', path: '/ws/a.ts' },
    { type: 'changeAction', turn: 2, action: 'keep', path: '/ws/a.ts' },
    { type: 'changeAction', turn: 2, action: 'review', path: undefined },
    { type: 'changeAction', turn: 2, action: 'undo', path: undefined },
    { type: 'restoreTo', turn: 2 },
  ]);

  // The host says the changes moved: the list asks again and shows the new states.
  v.fromHost({ type: 'changes' });
  await until(() => v.asked().length === 2, 1000, 'asked again');
  assert.deepEqual(v.asked()[1], { type: 'request', seq: 2, method: 'turnChanges', params: { turn: 2 } });
  v.reply(2, [{ ...files[0], state: 'reverted' }]);
  await until(() => rows().length === 1 && rows()[0].dataset.state === 'reverted', 1000, 'the new state');
  assert.match(rows()[0].textContent!, /undone/);
  v.unmount();
});

test('a turn without tool calls asks for nothing and offers only "Restore to here"', async () => {
  // Beside a turn that asks: once its request is out, the effects of both have run.
  const v = mount([1, false], [2, true]);
  await until(() => v.asked().length === 1, 1000, "the other turn's files asked for");
  assert.deepEqual(v.asked()[0].params, { turn: 2 }, 'the turn without tool calls asked nothing');
  assert.equal(v.asked().length, 1);
  const [first] = v.root.querySelectorAll('.turn-changes-head');
  assert.ok(first.querySelector('[data-testid="restore-here"]'));
  assert.ok(first.classList.contains('restore-only'));
  assert.equal(v.root.querySelector('[data-testid="turn-changes"]'), null);
  // "Changes" asks again only for the turn that has tool calls.
  v.fromHost({ type: 'changes' });
  await until(() => v.asked().length === 2, 1000, 'asked again');
  assert.deepEqual(v.asked()[1].params, { turn: 2 });
  v.unmount();
});

test('a list taken down stops listening: "changes" after that asks for nothing', async () => {
  const v = mount([2, true]);
  await until(() => v.asked().length === 1, 1000, 'the files asked for');
  v.reply(1, files);
  v.unmountView();
  v.fromHost({ type: 'changes' }); // the dispatcher still listens; a request would go out at once
  assert.equal(v.asked().length, 1, 'the unmounted list asked nothing');
  v.unmount();
});
