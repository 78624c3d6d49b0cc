// Under a prompt: "Restore to here", and the turn's changed files with +/− lines; the buttons send
// the host intents naming the turn (and the file), and the list asks again when the host says the
// changes moved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { until } from '../../support/until';
import { fakeHost } from './fakeHost';
import type { ChangedFile } from '../../../src/shared/protocol';

const dom = new JSDOM('<!DOCTYPE html><body><div id="root"></div></body>', { pretendToBeVisual: true });
const g = globalThis as Record<string, unknown>;
for (const k of ['window', 'document', 'navigator', 'HTMLElement', 'Element', 'Node', 'Event', 'MessageEvent']) {
  if (!(k in g) || k === 'window' || k === 'document') g[k] = (dom.window as unknown as Record<string, unknown>)[k];
}

function mount(tools: boolean) {
  const { h, render } = require('preact') as typeof import('preact');
  const { TurnChanges } =
    require('../../../src/webview/components/TurnChanges') as typeof import('../../../src/webview/components/TurnChanges');
  const { HostContext } = require('../../../src/webview/host') as typeof import('../../../src/webview/host');
  const fake = fakeHost();
  const root = document.getElementById('root')!;
  render(h(HostContext.Provider, { value: fake.host }, h(TurnChanges, { turn: 2, tools })), root);
  return { ...fake, root, unmount: () => render(null, root) };
}

const files: ChangedFile[] = [
  { path: '/ws/a.ts', label: 'a.ts', kind: 'modified', added: 3, removed: 1, state: 'pending' },
  { path: '/ws/new.ts', label: 'new.ts', kind: 'created', added: 2, removed: 0, state: 'kept' },
];

test('the turn lists its changed files with +/− lines and states; each button sends its intent', async () => {
  const v = mount(true);
  await until(() => v.asked.length === 1, 1000, 'the files asked for');
  assert.deepEqual(v.asked[0], { method: 'turnChanges', params: { turn: 2 } });
  v.replies[0].resolve(files);
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
  assert.deepEqual(v.intents, [
    { type: 'changeAction', turn: 2, action: 'diff', path: '/ws/a.ts' },
    { type: 'changeAction', turn: 2, action: 'undo', path: '/ws/a.ts' },
    { type: 'changeAction', turn: 2, action: 'keep', path: '/ws/a.ts' },
    { type: 'changeAction', turn: 2, action: 'review', path: undefined },
    { type: 'changeAction', turn: 2, action: 'undo', path: undefined },
    { type: 'restoreTo', turn: 2 },
  ]);

  // The host says the changes moved: the list asks again and shows the new states.
  window.dispatchEvent(new dom.window.MessageEvent('message', { data: { type: 'changes' } }));
  await until(() => v.asked.length === 2, 1000, 'asked again');
  v.replies[1].resolve([{ ...files[0], state: 'reverted' }]);
  await until(() => rows().length === 1 && rows()[0].dataset.state === 'reverted', 1000, 'the new state');
  assert.match(rows()[0].textContent!, /undone/);
  v.unmount();
});

test('a turn without tool calls asks for nothing and offers only "Restore to here"', async () => {
  const v = mount(false);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(v.asked.length, 0);
  assert.ok(v.root.querySelector('[data-testid="restore-here"]'));
  assert.equal(v.root.querySelector('[data-testid="turn-changes"]'), null);
  v.unmount();
});
