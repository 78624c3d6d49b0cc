// The session view's transcript in jsdom, fed sessions built through the real reducer: a viewport
// tall enough that the virtual list draws every row, a fake host, and the effects and lazily
// loaded chunks given time to run. Call installDom() before anything imports the webview.
import { JSDOM } from 'jsdom';
import type { SessionAction } from '../../../src/session/actions';
import { createSessionState, reduce, type SessionState } from '../../../src/session/reducer';
import { toSnapshot } from '../../../src/session/snapshot';
import type { SessionSnapshot } from '../../../src/shared/sessionModel';
import { fakeHost } from './fakeHost';

export function installDom(): JSDOM {
  const dom = new JSDOM('<!DOCTYPE html><body><div id="root"></div></body>', { pretendToBeVisual: true });
  const g = globalThis as Record<string, unknown>;
  const w = dom.window as unknown as Record<string, unknown>;
  for (const k of ['window', 'document', 'navigator', 'HTMLElement', 'Element', 'Node', 'Event', 'MouseEvent'])
    if (!(k in g) || k === 'window' || k === 'document') g[k] = w[k];
  g.requestAnimationFrame = (cb: () => void) => setTimeout(cb, 0);
  g.cancelAnimationFrame = (t: ReturnType<typeof setTimeout>) => clearTimeout(t);
  // The list sizes its window from the scroller's height once a ResizeObserver exists: a very
  // tall transcript shows every row (jsdom lays nothing out; every other box stays 0 high).
  g.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  Object.defineProperty(dom.window.HTMLElement.prototype, 'clientHeight', {
    get(this: HTMLElement) {
      return this.classList.contains('transcript') ? 10_000_000 : 0;
    },
  });
  return dom;
}

/** The session the actions make, as the host would snapshot it. */
export function sessionOf(actions: readonly SessionAction[], id = 's'): SessionSnapshot {
  let s: SessionState = createSessionState(id);
  for (const a of actions) s = reduce(s, a).state;
  return toSnapshot(s);
}

/** Effects run on the next frames, lazily loaded chunks a frame or two later. */
export const settle = async (frames = 4) => {
  for (let i = 0; i < frames; i++) await new Promise((r) => requestAnimationFrame(r));
};

/**
 * Draws the transcript of `session` as the view remembers the user left it: `expanded` (tool call
 * ids and message row keys shown open), `foldAll` (false: every turn open); paths relative to
 * `roots` (the workspace folders App provides from the mirrored state). `draw` shows the same
 * session in a newer state.
 */
export async function mountTranscript(
  session: SessionSnapshot,
  expanded: string[] = [],
  foldAll?: boolean,
  roots: readonly string[] = [],
) {
  const { h, render } = require('preact') as typeof import('preact');
  const { Transcript } =
    require('../../../src/webview/components/Transcript') as typeof import('../../../src/webview/components/Transcript');
  const { HostContext } = require('../../../src/webview/host') as typeof import('../../../src/webview/host');
  const { RootsContext } = require('../../../src/webview/toolTitle') as typeof import('../../../src/webview/toolTitle');
  const { permissionCard, toolDetails } =
    require('../../../src/webview/lazy') as typeof import('../../../src/webview/lazy');
  // Loaded before the first draw, as the view preloads them once it is idle.
  await Promise.all([toolDetails.load(), permissionCard.load()]);
  const fake = fakeHost();
  // A turn's changes list (its own chunk) asks for the turn's files: none here.
  const host: typeof fake.host = {
    ...fake.host,
    request: ((method, params) =>
      method === 'turnChanges' ? Promise.resolve([]) : fake.host.request(method, params)) as typeof fake.host.request,
  };
  const sessionId = session.meta.sessionId;
  const pairs = expanded.map((k) => [k, true]);
  host.state.merge({ transcript: { sessionId, fold: [], foldAll, expanded: pairs, kinds: [], statuses: [] } });
  // A root of its own: a draw that threw leaves Preact's tree in a root unusable for the next one.
  const root = document.body.appendChild(document.createElement('div'));
  let version = 0;
  const draw = async (s: SessionSnapshot) => {
    const view = h(Transcript, { session: s, toolsVersion: ++version, working: false });
    render(h(HostContext.Provider, { value: host }, h(RootsContext.Provider, { value: roots }, view)), root);
    await settle();
  };
  await draw(session);
  const unmount = () => {
    render(null, root);
    root.remove();
  };
  return { root, intents: fake.intents, draw, unmount };
}
