// Each row of the transcript has its own error boundary: a row that throws while it renders says
// so in its place (the message as text, its raw JSON to copy) and every other row still renders.
// A row's data changing tries it again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionAction } from '../../../src/session/actions';
import type { SessionSnapshot, ToolCallView } from '../../../src/shared/sessionModel';
import { until } from '../../support/until';
import { installDom, mountTranscript, sessionOf } from './transcriptMount';
import { fakeHost } from './fakeHost';

installDom();

const actions: SessionAction[] = [
  { type: 'promptStarted', at: 1, prompt: [{ type: 'text', text: 'Fix the greeting' }] },
  {
    type: 'update',
    at: 2,
    update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Before' } },
  },
  {
    type: 'update',
    at: 3,
    update: {
      sessionUpdate: 'tool_call',
      toolCallId: 'c1',
      title: 'Edit a.txt',
      kind: 'edit',
      status: 'completed',
      content: [{ type: 'diff', path: '/w/a.txt', oldText: 'hello\n', newText: 'hello ACP\n' }],
    },
  },
  {
    type: 'update',
    at: 4,
    update: { sessionUpdate: 'tool_call', toolCallId: 'c2', title: 'Read b.txt', kind: 'read' },
  },
  { type: 'update', at: 5, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'After' } } },
  { type: 'promptEnded', at: 6, stopReason: 'end_turn' },
];

/** The session with call c1 changed as `change` says (content a renderer does not expect). */
function withCall(s: SessionSnapshot, change: Partial<ToolCallView>): SessionSnapshot {
  return { ...s, toolCalls: { ...s.toolCalls, c1: { ...s.toolCalls.c1, ...change } } };
}
// A diff without its new text: the diff view fails on it (a stand-in for any renderer bug).
const broken = (s: SessionSnapshot) =>
  withCall(s, { content: [{ type: 'diff', path: '/w/a.txt', newText: undefined as unknown as string }] });

const errors = (root: HTMLElement) => [...root.querySelectorAll<HTMLElement>('[data-testid="row-error"]')];

test('a row that cannot render says so in its place, and the rows around it still render', async () => {
  const { root, unmount } = await mountTranscript(broken(sessionOf(actions)), ['c1']);
  const [error, ...more] = errors(root);
  assert.equal(more.length, 0);
  // The diff view's own error (splitting an undefined text), as text.
  assert.match(error.textContent ?? '', /^This item could not be shown: Cannot read properties of undefined/);
  assert.ok(error.closest('.vrow'), 'in the row it replaces');
  assert.match(root.querySelector('[data-testid="turn"]')?.textContent ?? '', /Fix the greeting/);
  assert.deepEqual(
    [...root.querySelectorAll('[data-testid="message-agent"]')].map((m) => m.textContent?.trim()),
    ['Before', 'After'],
  );
  assert.deepEqual(
    [...root.querySelectorAll('[data-testid="tool-call"]')].map((m) => m.getAttribute('data-id')),
    ['c2'],
  );
  unmount();
});

test("the error line's button copies the raw JSON of what the row shows", async () => {
  const s = broken(sessionOf(actions));
  const { root, intents, unmount } = await mountTranscript(s, ['c1']);
  errors(root)[0].querySelector('button')!.click();
  const copied = intents.at(-1) as { type: string; text: string };
  assert.equal(copied.type, 'copyText');
  assert.deepEqual(JSON.parse(copied.text), JSON.parse(JSON.stringify(s.toolCalls.c1)));
  unmount();
});

test('a row that failed is drawn again when its data changes', async () => {
  const good = sessionOf(actions);
  const { root, draw, unmount } = await mountTranscript(broken(good), ['c1']);
  assert.equal(errors(root).length, 1);
  // New data that fails again: the error line again (tried once, no loop); then data that renders.
  await draw(broken(good));
  assert.equal(errors(root).length, 1);
  await draw(withCall(good, { status: 'failed' }));
  assert.equal(errors(root).length, 0);
  assert.match(root.querySelector('[data-testid="diff"]')?.textContent ?? '', /hello ACP/);
  unmount();
});

test('the error message is shown as text, never as markup', async () => {
  const { h, render } = require('preact') as typeof import('preact');
  const { RowGuard } =
    require('../../../src/webview/components/RowGuard') as typeof import('../../../src/webview/components/RowGuard');
  const { HostContext } = require('../../../src/webview/host') as typeof import('../../../src/webview/host');
  const root = document.getElementById('root')!;
  const message = '<img src=x onerror="globalThis.pwned=1"><b>bold</b> & more';
  const Throws = () => {
    throw new Error(message);
  };
  render(h(HostContext.Provider, { value: fakeHost().host }, h(RowGuard, { raw: { id: 1 } }, h(Throws, null))), root);
  await until(() => errors(root).length === 1, 2000, 'the error line');
  const [error] = errors(root);
  assert.equal(error.textContent, `This item could not be shown: ${message} Copy raw JSON`);
  assert.equal(error.querySelector('img, b'), null);
  render(null, root);
});
