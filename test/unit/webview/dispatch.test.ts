// The page receives every host message in one place (dispatch.ts): it goes by its type to who keeps
// it (state to the Mirror, replies and "changes" to the Host) and anything else is dropped. The
// view gets the rest from there: the workspace folders from the mirrored state (titles relative to
// them), a turn's changes from the Host; no component listens to `window` itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionAction } from '../../../src/session/actions';
import type { ToWebview } from '../../../src/shared/protocol';
import type { Mirror as MirrorT, StateMessage } from '../../../src/webview/mirror';
import { toSnapshot } from '../../../src/session/snapshot';
import { repoRoot } from '../../support/paths';
import { threeFinishedTurns } from '../../support/sessions';
import { until } from '../../support/until';
import { fakeHost } from './fakeHost';
import { installDom, sessionOf } from './transcriptMount';

const dom = installDom();
// Whatever adds a `message` listener to the page, from here on.
const listening: unknown[] = [];
const add = window.addEventListener.bind(window);
window.addEventListener = ((type: string, l: EventListener, o?: boolean | AddEventListenerOptions) => {
  if (type === 'message') listening.push(l);
  add(type, l, o);
}) as typeof window.addEventListener;

const { h, render } = require('preact') as typeof import('preact');
const { App } = require('../../../src/webview/components/App') as typeof import('../../../src/webview/components/App');
const { dispatch, listen } = require('../../../src/webview/dispatch') as typeof import('../../../src/webview/dispatch');
const { createHost, HostContext } = require('../../../src/webview/host') as typeof import('../../../src/webview/host');
const { Mirror } = require('../../../src/webview/mirror') as typeof import('../../../src/webview/mirror');
const { useMirror } = require('../../../src/webview/useMirror') as typeof import('../../../src/webview/useMirror');

const fromHost = (data: unknown) => window.dispatchEvent(new dom.window.MessageEvent('message', { data }));

/** The page as main.tsx makes it: the dispatcher on `window`, App following the mirror. */
function mountPage() {
  const fake = fakeHost();
  fake.host.state.merge({ transcript: { sessionId: 's', foldAll: false } }); // every turn open
  const mirror = new Mirror();
  const stop = listen(window, fake.inbox, mirror);
  const Root = () => h(App, { vm: useMirror(mirror) });
  const root = document.body.appendChild(document.createElement('div'));
  render(h(HostContext.Provider, { value: fake.host }, h(Root, null)), root);
  const unmount = () => {
    render(null, root);
    root.remove();
    stop();
  };
  return { ...fake, mirror, root, unmount };
}

test('each message type goes to who keeps it; anything else is dropped', async () => {
  const sent: unknown[] = [];
  const host = createHost({ postMessage: (m) => sent.push(m), getState: () => undefined, setState: () => undefined });
  let changed = 0;
  const inbox = { settle: host.settle, changed: () => changed++ };
  const received: StateMessage['type'][] = [];
  const mirror: Pick<MirrorT, 'receive'> = { receive: (m) => received.push(m.type) };
  const asked = host.request('turnChanges', { turn: 0 });
  const messages: ToWebview[] = [
    { type: 'snapshot', agent: { state: 'none' }, session: null },
    { type: 'sessions', sessions: [] },
    { type: 'patch', sessionId: 's', patches: [] },
    { type: 'agent', agent: { state: 'ready' } },
    { type: 'queue', queue: { sessionId: 's', items: [], held: false, steer: false } },
    { type: 'changes' },
    { type: 'reply', seq: 1, result: [] },
  ];
  for (const m of messages) dispatch(m, inbox, mirror);
  assert.deepEqual(received, ['snapshot', 'sessions', 'patch', 'agent', 'queue']);
  assert.equal(changed, 1);
  assert.deepEqual(await asked, [], 'the reply settled the request of its seq');
  for (const junk of [null, undefined, 7, 'changes', [], {}, { type: 'nope' }, { type: 42 }])
    assert.doesNotThrow(() => dispatch(junk, inbox, mirror), JSON.stringify(junk));
  assert.equal(received.length, 5, 'nothing more reached the mirror');
  assert.equal(changed, 1, 'nor the host');
});

test('titles and paths are relative to the workspace folders of the state the host sent', async () => {
  const v = mountPage();
  const read = '/home/me/proj/src/a.ts';
  const actions: SessionAction[] = [
    { type: 'promptStarted', at: 1, prompt: [{ type: 'text', text: 'go' }] },
    {
      type: 'update',
      at: 1,
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: 'c1',
        title: `Read ${read}`,
        kind: 'read',
        status: 'completed',
        rawInput: { file_path: read },
        _meta: { claudeCode: { toolName: 'Read' } },
      },
    },
    { type: 'promptEnded', at: 1, stopReason: 'end_turn' },
  ];
  const session = sessionOf(actions);
  const title = () => v.root.querySelector('[data-testid="tool-title"]')?.textContent;
  fromHost({ type: 'snapshot', agent: { state: 'ready' }, session, workspaceRoots: ['/home/me/proj/'] });
  await until(() => title() === 'Read src/a.ts', 2000, 'the title relative to the workspace folder');
  assert.deepEqual(v.mirror.current.workspaceRoots, ['/home/me/proj/']);
  // A snapshot naming other folders: the same call shows its absolute path.
  fromHost({ type: 'snapshot', agent: { state: 'ready' }, session, workspaceRoots: ['/elsewhere'] });
  await until(() => title() === `Read ${read}`, 2000, 'the absolute path');
  v.unmount();
});

test("no component listens to the page's messages: a turn's changes come through the Host", async () => {
  listening.length = 0;
  const v = mountPage();
  assert.equal(listening.length, 1, "the dispatcher's listener");
  fromHost({ type: 'snapshot', agent: { state: 'ready' }, session: toSnapshot(threeFinishedTurns()) });
  // Every turn's changes list (its own chunk) has mounted and asked for its files.
  const asked = () => v.asked.filter((a) => a.method === 'turnChanges').length;
  await until(() => asked() === 3, 5000, "the turns' changes asked for");
  assert.ok(v.changes.size >= 3, `each list follows the Host's "changes" (${v.changes.size})`);
  assert.equal(listening.length, 1, 'no other message listener was added');
  assert.equal(window.onmessage, null);
  for (const r of v.replies) r.resolve([]);
  fromHost({ type: 'changes' });
  assert.equal(asked(), 6, 'each list asked again, at once');
  v.unmount();
  assert.equal(v.changes.size, 0, 'the lists stopped following when taken down');
});

test('only the dispatcher listens: no other source in src/webview adds a message listener', () => {
  const dir = join(repoRoot, 'src/webview');
  const files = (d: string): string[] =>
    readdirSync(d).flatMap((n) => {
      const p = join(d, n);
      return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(n) ? [p] : [];
    });
  const listens = /addEventListener\(\s*['"`]message['"`]|\bonmessage\b/;
  const found = files(dir)
    .filter((f) => listens.test(readFileSync(f, 'utf8')))
    .map((f) => f.slice(dir.length + 1));
  assert.deepEqual(found, ['dispatch.ts']);
});
