// Edit and resend in the view: each prompt has its button (the turn does not fold on the click),
// the host's `editing` message fills the composer with the prompt and a banner that says what a
// send does, Send then resends instead of prompting, Cancel gives back the draft it replaced;
// rewound turns stay folded, say so, and offer Redo.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { until } from '../../support/until';
import { fakeHost } from './fakeHost';
import { installDom, mountTranscript, sessionOf, settle } from './transcriptMount';
import type { SessionAction } from '../../../src/session/actions';
import type { ToWebview } from '../../../src/shared/protocol';

const dom = installDom();
(globalThis as Record<string, unknown>).KeyboardEvent = dom.window.KeyboardEvent;

const turns = (n: number): SessionAction[] =>
  Array.from({ length: n }, (_, t): SessionAction[] => [
    { type: 'promptStarted', at: t, prompt: [{ type: 'text', text: `prompt ${t}` }] },
    { type: 'update', at: t, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'ok' } } },
    { type: 'promptEnded', at: t, stopReason: 'end_turn' },
  ]).flat();

async function mountComposer(sessionId = 's') {
  const { h, render } = require('preact') as typeof import('preact');
  const { Composer } =
    require('../../../src/webview/components/Composer') as typeof import('../../../src/webview/components/Composer');
  const { HostContext } = require('../../../src/webview/host') as typeof import('../../../src/webview/host');
  const { dispatch } = require('../../../src/webview/dispatch') as typeof import('../../../src/webview/dispatch');
  const { Mirror } = require('../../../src/webview/mirror') as typeof import('../../../src/webview/mirror');
  const fake = fakeHost();
  const root = document.body.appendChild(document.createElement('div'));
  const props = { working: false, enabled: true, commands: [], modes: [], configOptions: [], sessionId };
  render(h(HostContext.Provider, { value: fake.host }, h(Composer, props)), root);
  await settle();
  const input = root.querySelector<HTMLTextAreaElement>('[data-testid="composer-input"]')!;
  const type = (text: string) => {
    input.value = text;
    input.dispatchEvent(new dom.window.Event('input', { bubbles: true }));
  };
  const mirror = new Mirror();
  return {
    root,
    input,
    type,
    intents: fake.intents,
    fromHost: (msg: ToWebview) => dispatch(msg, fake.inbox, mirror),
    /** Send, once the typed text is rendered (the button sends what the composer last rendered). */
    send: async () => {
      await settle();
      root.querySelector<HTMLButtonElement>('[data-testid="send"]')!.click();
    },
    banner: () => root.querySelector('[data-testid="edit-banner"]')?.textContent ?? '',
    chips: () => [...root.querySelectorAll('[data-testid="attachment"]')].map((e) => e.textContent),
    unmount: () => {
      render(null, root);
      root.remove();
    },
  };
}

const editing = (over: Partial<Extract<ToWebview, { type: 'editing' }>> = {}): ToWebview => ({
  type: 'editing',
  sessionId: 's',
  turn: 1,
  text: 'prompt 1',
  way: 'rewind',
  ...over,
});

test('each prompt offers Edit and resend; the click asks the host for that prompt and does not fold the turn', async () => {
  const v = await mountTranscript(sessionOf(turns(3)), [], false);
  await until(() => v.root.querySelectorAll('[data-testid="edit-prompt"]').length === 3, 2000, 'a button per prompt');
  const head = () => v.root.querySelector<HTMLElement>('[data-testid="turn"][data-turn="1"]')!;
  assert.equal(head().dataset.collapsed, 'false');
  const button = head().querySelector<HTMLButtonElement>('[data-testid="edit-prompt"]')!;
  assert.equal(button.getAttribute('aria-label'), 'Edit and resend prompt 2');
  button.click();
  assert.deepEqual(v.intents, [{ type: 'editPrompt', turn: 1 }]);
  await settle();
  assert.equal(head().dataset.collapsed, 'false', 'the turn did not fold');
  v.unmount();
});

test('rewound turns stay folded even with every turn open, say so, and offer Redo', async () => {
  const v = await mountTranscript(sessionOf([...turns(3), { type: 'rewound', at: 9, fromTurn: 1 }]), [], false);
  await until(() => v.root.querySelectorAll('[data-testid="turn-rewound"]').length === 2, 2000, 'two marked rewound');
  const head = (t: number) => v.root.querySelector<HTMLElement>(`[data-testid="turn"][data-turn="${t}"]`)!;
  assert.deepEqual(
    [0, 1, 2].map((t) => head(t).dataset.collapsed),
    ['false', 'true', 'true'],
  );
  assert.match(head(1).getAttribute('aria-label') ?? '', /, rewound$/);
  assert.equal(head(1).querySelector('[data-testid="edit-prompt"]'), null, 'a rewound prompt is not edited again');
  head(2).querySelector<HTMLButtonElement>('[data-testid="redo-edit"]')!.click();
  assert.deepEqual(v.intents, [{ type: 'redoEdit' }]);
  v.unmount();
});

test('the prompt to edit fills the composer with a banner; Send resends it edited, then editing ends', async () => {
  const c = await mountComposer();
  c.type('my own draft');
  const file = { kind: 'file' as const, path: '/ws/src/a.ts' };
  c.fromHost(editing({ attachments: [file], way: 'ask', agent: 'Claude Code' }));
  await until(() => c.input.value === 'prompt 1', 2000, 'the prompt in the composer');
  assert.equal(
    c.banner(),
    'Editing prompt 2 — sending restores files to before it. Claude Code cannot rewind its conversation: you will be asked where to send itCancel',
  );
  // The chips are a lazy chunk of their own: they show once it is in.
  await until(() => c.chips().length === 1, 2000, 'the attachment chip');
  assert.deepEqual(c.chips(), ['a.ts']);
  c.type('prompt 1, but smaller');
  await c.send();
  assert.deepEqual(c.intents, [
    { type: 'resendPrompt', sessionId: 's', turn: 1, text: 'prompt 1, but smaller', attachments: [file] },
  ]);
  await settle();
  assert.equal(c.banner(), '', 'the banner is gone');
  assert.equal(c.input.value, '');
  c.type('a new prompt');
  await c.send();
  assert.deepEqual(c.intents[1], { type: 'prompt', text: 'a new prompt' }, 'the next send is a prompt again');
  c.unmount();
});

test('the banner says how the conversation goes back; Cancel gives back the draft it replaced', async () => {
  const c = await mountComposer();
  c.type('my own draft');
  c.fromHost(editing({ way: 'fork' }));
  await until(() => c.input.value === 'prompt 1', 2000, 'the prompt in the composer');
  assert.match(
    c.banner(),
    /^Editing prompt 2 — sending restores files to before it and rewinds the conversation \(in a session forked from before it\)/,
  );
  c.fromHost(editing({ turn: 0, text: 'prompt 0', way: 'new' }));
  await until(() => c.input.value === 'prompt 0', 2000, 'another prompt to edit');
  assert.match(c.banner(), /^Editing prompt 1 — .*rewinds the conversation \(in a new session\)/);
  c.root.querySelector<HTMLButtonElement>('[data-testid="edit-cancel"]')!.click();
  await until(() => c.input.value === 'my own draft', 2000, 'the draft back');
  assert.equal(c.banner(), '');
  await c.send();
  assert.deepEqual(c.intents, [{ type: 'prompt', text: 'my own draft' }]);
  c.unmount();
});

test('a prompt of another session is not resent from this one', async () => {
  const c = await mountComposer('other');
  c.fromHost(editing({ sessionId: 's', way: 'rewind' }));
  await until(() => c.input.value === 'prompt 1', 2000, 'the text arrives');
  assert.equal(c.banner(), '', 'no banner: it is not this session’s prompt');
  await c.send();
  assert.deepEqual(c.intents, [{ type: 'prompt', text: 'prompt 1' }]);
  c.unmount();
  // The edit of session s is still open: end it so nothing carries over.
  const s = await mountComposer('s');
  await until(() => s.banner() !== '', 2000, 'the banner in s');
  s.root.querySelector<HTMLButtonElement>('[data-testid="edit-cancel"]')!.click();
  s.unmount();
});
