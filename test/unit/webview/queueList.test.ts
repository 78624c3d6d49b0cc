// The queued prompts under the running turn: what each control posts to the host, "Send now" only
// while a turn runs, "Send" only when the queue is held; and the composer queues while the agent works.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import type { QueueView } from '../../../src/shared/protocol';
import { until } from '../../support/until';
import { fakeHost } from './fakeHost';

const dom = new JSDOM('<!DOCTYPE html><body><div id="root"></div></body>', { pretendToBeVisual: true });
const g = globalThis as Record<string, unknown>;
for (const k of ['window', 'document', 'navigator', 'HTMLElement', 'Element', 'Node', 'Event', 'KeyboardEvent']) {
  if (!(k in g) || k === 'window' || k === 'document') g[k] = (dom.window as unknown as Record<string, unknown>)[k];
}
g.requestAnimationFrame = (cb: () => void) => setTimeout(cb, 0);

const queue = (over: Partial<QueueView> = {}): QueueView => ({
  sessionId: 's1',
  items: [
    { id: 'a', text: 'first', attachments: 0 },
    { id: 'b', text: 'second', attachments: 2 },
  ],
  held: false,
  steer: false,
  ...over,
});

function mount(q: QueueView, working: boolean) {
  const { h, render } = require('preact') as typeof import('preact');
  const QueueList = (
    require('../../../src/webview/components/QueueList') as typeof import('../../../src/webview/components/QueueList')
  ).default;
  const { HostContext } = require('../../../src/webview/host') as typeof import('../../../src/webview/host');
  const fake = fakeHost();
  const root = document.getElementById('root')!;
  render(h(HostContext.Provider, { value: fake.host }, h(QueueList, { queue: q, working })), root);
  const $ = (sel: string) => [...root.querySelectorAll<HTMLElement>(sel)];
  return { ...fake, root, $, unmount: () => render(null, root) };
}

test('each queued prompt shows in order, with its attachments counted', () => {
  const { $, unmount } = mount(queue(), true);
  assert.deepEqual(
    $('[data-testid="queue-text"]').map((e) => e.textContent),
    ['first', 'second +2 attachments'],
  );
  unmount();
});

test('move, remove and Send now post the queue operation for that prompt', () => {
  const { $, intents, unmount } = mount(queue(), true);
  const [up1, up2] = $('[data-testid="queue-up"]') as HTMLButtonElement[];
  const [down1, down2] = $('[data-testid="queue-down"]') as HTMLButtonElement[];
  assert.equal(up1.disabled, true, 'the first cannot move up');
  assert.equal(down2.disabled, true, 'the last cannot move down');
  up2.click();
  down1.click();
  $('[data-testid="queue-remove"]')[0].click();
  $('[data-testid="queue-send-now"]')[1].click();
  assert.deepEqual(intents, [
    { type: 'queue', op: 'move', id: 'b', to: 0 },
    { type: 'queue', op: 'move', id: 'a', to: 1 },
    { type: 'queue', op: 'remove', id: 'a' },
    { type: 'queue', op: 'sendNow', id: 'b' },
  ]);
  unmount();
});

test('editing a queued prompt: Enter saves the new text, Escape leaves it as it was', async () => {
  const { $, intents, unmount } = mount(queue(), true);
  $('[data-testid="queue-edit-button"]')[0].click();
  await until(() => $('[data-testid="queue-edit"]').length === 1, 1000, 'the editor opens');
  const box = $('[data-testid="queue-edit"]')[0] as HTMLTextAreaElement;
  box.value = 'first, but better';
  box.dispatchEvent(new dom.window.Event('input', { bubbles: true }));
  box.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  await until(() => intents.length === 1, 1000, 'saved');
  assert.deepEqual(intents, [{ type: 'queue', op: 'edit', id: 'a', text: 'first, but better' }]);
  $('[data-testid="queue-edit-button"]')[1].click();
  await until(() => $('[data-testid="queue-edit"]').length === 1, 1000, 'the editor opens again');
  $('[data-testid="queue-edit"]')[0].dispatchEvent(
    new dom.window.KeyboardEvent('keydown', { key: 'Escape', bubbles: true }),
  );
  await until(() => $('[data-testid="queue-edit"]').length === 0, 1000, 'closed');
  assert.equal(intents.length, 1, 'Escape sent nothing');
  unmount();
});

test('a held queue says so and offers Send; Send now shows only while a turn runs', () => {
  const held = mount(queue({ held: true }), false);
  assert.equal(held.$('[data-testid="queue-send-now"]').length, 0);
  assert.match(held.$('[data-testid="queue"]')[0].textContent ?? '', /paused/);
  held.$('[data-testid="queue-resume"]')[0].click();
  assert.deepEqual(held.intents, [{ type: 'queue', op: 'resume' }]);
  held.unmount();
  const running = mount(queue(), true);
  assert.equal(running.$('[data-testid="queue-resume"]').length, 0);
  assert.match(running.$('[data-testid="queue-send-now"]')[0].title, /Stop the running turn/);
  // Without steering the button cancels the turn: its words say so, not only its tooltip.
  assert.equal(running.$('[data-testid="queue-send-now"]')[0].textContent?.trim(), 'Cancel and send');
  running.unmount();
  const steering = mount(queue({ steer: true }), true);
  assert.match(steering.$('[data-testid="queue-send-now"]')[0].title, /Add this to the running turn/);
  assert.equal(steering.$('[data-testid="queue-send-now"]')[0].textContent?.trim(), 'Send now');
  steering.unmount();
});

test('the composer sends while the agent works (the host queues it), with Queue beside Cancel', async () => {
  const { h, render } = require('preact') as typeof import('preact');
  const { Composer } =
    require('../../../src/webview/components/Composer') as typeof import('../../../src/webview/components/Composer');
  const { HostContext } = require('../../../src/webview/host') as typeof import('../../../src/webview/host');
  const fake = fakeHost();
  const root = document.getElementById('root')!;
  const props = { working: true, enabled: true, commands: [], modes: [], configOptions: [] };
  render(h(HostContext.Provider, { value: fake.host }, h(Composer, props)), root);
  const input = root.querySelector<HTMLTextAreaElement>('[data-testid="composer-input"]')!;
  input.value = 'next, please';
  input.dispatchEvent(new dom.window.Event('input', { bubbles: true }));
  await new Promise((r) => setTimeout(r, 0));
  input.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  assert.deepEqual(fake.intents, [{ type: 'prompt', text: 'next, please' }]);
  assert.ok(root.querySelector('[data-testid="queue-send"]'));
  assert.ok(root.querySelector('[data-testid="cancel"]'));
  assert.equal(root.querySelector('[data-testid="send"]'), null, 'no idle Send while working');
  render(null, root);
});
