// The composer's requests to the host: @-mention completion asks for files and lists the answer
// to the latest query only; the editor selection becomes a chip; a failed request says why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { until } from '../../support/until';
import { fakeHost } from './fakeHost';
import { settle } from './transcriptMount';

const dom = new JSDOM('<!DOCTYPE html><body><div id="root"></div></body>', { pretendToBeVisual: true });
const g = globalThis as Record<string, unknown>;
for (const k of ['window', 'document', 'navigator', 'HTMLElement', 'Element', 'Node', 'Event', 'KeyboardEvent']) {
  if (!(k in g) || k === 'window' || k === 'document') g[k] = (dom.window as unknown as Record<string, unknown>)[k];
}
g.requestAnimationFrame = (cb: () => void) => setTimeout(cb, 0);

function mount(over: Partial<import('../../../src/webview/components/Composer').ComposerProps> = {}) {
  const { h, render } = require('preact') as typeof import('preact');
  const { Composer } =
    require('../../../src/webview/components/Composer') as typeof import('../../../src/webview/components/Composer');
  const { HostContext } = require('../../../src/webview/host') as typeof import('../../../src/webview/host');
  const fake = fakeHost();
  const root = document.getElementById('root')!;
  const props = { working: false, enabled: true, commands: [], modes: [], configOptions: [], ...over };
  render(h(HostContext.Provider, { value: fake.host }, h(Composer, props)), root);
  const input = root.querySelector<HTMLTextAreaElement>('[data-testid="composer-input"]')!;
  const type = (text: string) => {
    input.value = text;
    input.selectionStart = input.selectionEnd = text.length;
    input.dispatchEvent(new dom.window.Event('input', { bubbles: true }));
  };
  const rerender = (more: Partial<import('../../../src/webview/components/Composer').ComposerProps>) =>
    render(h(HostContext.Provider, { value: fake.host }, h(Composer, { ...props, ...more })), root);
  return { ...fake, root, type, rerender, unmount: () => render(null, root) };
}

const hit = (name: string) => ({ path: `/ws/src/${name}`, label: name, description: 'src' });

test('@-mention: each query asks for files; only the answer to the latest one is listed', async () => {
  const { root, type, asked, replies, unmount } = mount();
  type('look at @ma');
  type('look at @mai');
  await until(() => asked.length === 2, 1000, 'two searches');
  assert.deepEqual(asked, [
    { method: 'searchFiles', params: { query: 'ma' } },
    { method: 'searchFiles', params: { query: 'mai' } },
  ]);
  replies[1].resolve([hit('main.ts')]);
  replies[0].resolve([hit('math.ts'), hit('map.ts')]);
  const items = () => [...root.querySelectorAll('[data-testid="completion-item"]')].map((e) => e.textContent ?? '');
  await until(() => items().length === 1, 1000, 'the latest answer listed');
  await settle(); // the frames a render of the stale answer would take
  assert.equal(items().length, 1, 'the stale answer is dropped');
  assert.match(items()[0], /main\.ts/);
  unmount();
});

test('a failed file search or selection request shows its reason under the input', async () => {
  const { root, type, asked, replies, unmount } = mount();
  type('@x');
  await until(() => asked.length === 1, 1000, 'a search');
  replies[0].reject(new Error('Tandem did not answer searchFiles in 15 s.'));
  const note = () => root.querySelector('.composer-note')?.textContent ?? '';
  await until(() => /File search failed: Tandem did not answer/.test(note()), 1000, 'the reason shows');
  root.querySelector<HTMLButtonElement>('[data-testid="attach-selection"]')!.click();
  await until(() => asked.length === 2, 1000, 'the selection asked for');
  replies[1].reject(new Error('no editor'));
  await until(() => /Could not attach the selection: no editor/.test(note()), 1000, 'that reason shows');
  unmount();
});

test('attach selection: the answer becomes a chip named file:lines, with the preview as its title', async () => {
  const { root, asked, replies, unmount } = mount();
  root.querySelector<HTMLButtonElement>('[data-testid="attach-selection"]')!.click();
  await until(() => asked.length === 1, 1000, 'asked');
  assert.deepEqual(asked[0], { method: 'attachSelection', params: {} });
  replies[0].resolve({
    attachment: { kind: 'selection', path: '/ws/src/a.ts', startLine: 3, endLine: 9 },
    preview: 'const a = 1;',
  });
  const chip = () => root.querySelector<HTMLElement>('[data-testid="attachment"]');
  await until(() => !!chip(), 1000, 'a chip');
  assert.match(chip()!.textContent ?? '', /a\.ts:3-9/);
  assert.equal(chip()!.title, 'const a = 1;');
  unmount();
});

test('while a new session opens, typing goes on and nothing is sent until it is there', () => {
  const { root, type, intents, unmount } = mount({ enabled: false, waiting: 'Opening a new session…' });
  const input = root.querySelector<HTMLTextAreaElement>('[data-testid="composer-input"]')!;
  assert.equal(input.disabled, false, 'the composer stays editable');
  type('for the new session');
  input.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  root.querySelector('form')!.dispatchEvent(new dom.window.Event('submit', { bubbles: true, cancelable: true }));
  assert.deepEqual(intents, [], 'nothing is sent into the session on screen');
  assert.equal(root.querySelector<HTMLButtonElement>('[data-testid="send"]')!.disabled, true);
  assert.equal(input.value, 'for the new session', 'the text stays');
  unmount();
});

test('Enter while a new session opens says the prompt waits for it, and sends it once it is open', async () => {
  const { root, type, intents, rerender, unmount } = mount({ enabled: false, waiting: 'Opening a new session…' });
  const input = root.querySelector<HTMLTextAreaElement>('[data-testid="composer-input"]')!;
  type('for the new session');
  await settle(); // Enter acts on the text the composer last rendered
  input.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  await until(() => !!root.querySelector('.composer-note'), 1000, 'the note');
  assert.match(root.querySelector('.composer-note')!.textContent ?? '', /goes out once it is open/);
  assert.deepEqual(intents, [], 'not sent into the session on screen');
  rerender({ enabled: true, waiting: undefined });
  await until(() => intents.length === 1, 1000, 'sent when the session is there');
  assert.deepEqual(intents, [{ type: 'prompt', text: 'for the new session' }]);
  unmount();
});
