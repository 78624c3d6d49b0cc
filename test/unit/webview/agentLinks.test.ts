// Links and resource URIs come from the agent and may be malformed: a URI whose %-escapes do not
// decode (`file:///tmp/report%.txt`) is shown and opened as written, one `new URL` cannot parse
// opens nothing, and neither throws (a throw while rendering blanked the whole view).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { SessionAction } from '../../../src/session/actions';
import { installDom, mountTranscript, sessionOf } from './transcriptMount';
import { fakeHost } from './fakeHost';

const dom = installDom();
const uncaught: unknown[] = [];
dom.window.addEventListener('error', (e) => {
  uncaught.push(e.error);
  e.preventDefault();
});

/** One turn whose agent message is `blocks`. */
const turn = (...blocks: ContentBlock[]): SessionAction[] => [
  { type: 'promptStarted', at: 1, prompt: [{ type: 'text', text: 'Summarize the report' }] },
  ...blocks.map((content): SessionAction => ({
    type: 'update',
    at: 2,
    update: { sessionUpdate: 'agent_message_chunk', content },
  })),
  { type: 'promptEnded', at: 3, stopReason: 'end_turn' },
];

const chips = (root: HTMLElement) => [...root.querySelectorAll<HTMLButtonElement>('[data-testid="resource-link"]')];

test('an embedded resource whose URI does not decode shows its file name as written', async () => {
  const { root, unmount } = await mountTranscript(
    sessionOf(
      turn(
        { type: 'resource', resource: { uri: 'file:///tmp/report%.txt', text: 'total: 3' } },
        { type: 'resource', resource: { uri: 'file:///tmp/a%20b.txt#L4', text: 'x' } },
      ),
    ),
  );
  assert.deepEqual(
    chips(root).map((c) => c.textContent?.trim()),
    ['report%.txt', 'a b.txt:4'],
  );
  assert.match(root.textContent ?? '', /total: 3/);
  assert.equal(root.querySelector('[data-testid="row-error"]'), null);
  unmount();
});

test('its chip opens the file as written; a file URI that does not parse opens nothing and throws nothing', async () => {
  const { root, intents, unmount } = await mountTranscript(
    sessionOf(
      turn(
        { type: 'resource', resource: { uri: 'file:///tmp/report%.txt#L7', text: 'total: 3' } },
        { type: 'resource_link', name: 'broken', uri: 'file://[oops/x.txt' },
        { type: 'resource_link', name: 'spaced', uri: 'file:///tmp/a%20b.txt' },
      ),
    ),
  );
  for (const c of chips(root)) c.click();
  assert.deepEqual(intents, [
    { type: 'openLocation', path: '/tmp/report%.txt', line: 7 },
    { type: 'openLocation', path: '/tmp/a b.txt' },
  ]);
  assert.deepEqual(uncaught, []);
  unmount();
});

test('a markdown link to a path that does not decode opens that path as written, at its line', () => {
  const { openHref } = require('../../../src/webview/links') as typeof import('../../../src/webview/links');
  const { host, intents } = fakeHost();
  openHref(host, '/tmp/report%.txt#L3');
  openHref(host, '/src/a%20b.ts');
  // U+2028 ends a line for `.`: the path pattern found nothing and the click threw.
  openHref(host, '/a\u2028b.ts#L2');
  openHref(host, 'https://example.com/%%');
  assert.deepEqual(intents, [
    { type: 'openLocation', path: '/tmp/report%.txt', line: 3 },
    { type: 'openLocation', path: '/src/a b.ts' },
    { type: 'openLocation', path: '/a\u2028b.ts', line: 2 },
    { type: 'openExternal', url: 'https://example.com/%%' },
  ]);
});
