// A Host for components under test: records requests (the test settles each one) and intents;
// the view state lives in memory; `changed()` plays the host saying the agent's changes moved.
import type { RequestMethod, RequestParams, WebviewIntent } from '../../../src/shared/protocol';
import { viewStateOf, type Host } from '../../../src/webview/host';

export function fakeHost() {
  const asked: { method: RequestMethod; params: unknown }[] = [];
  const intents: WebviewIntent[] = [];
  const replies: { resolve(v: unknown): void; reject(e: Error): void }[] = [];
  const changes = new Set<() => void>();
  let saved: unknown;
  const host: Host = {
    post: (i) => intents.push(i),
    request: (<M extends RequestMethod>(method: M, params: RequestParams<M>) => {
      asked.push({ method, params });
      return new Promise((resolve, reject) => replies.push({ resolve, reject }));
    }) as Host['request'],
    state: viewStateOf({ getState: () => saved, setState: (s) => (saved = s) }),
    onChanges: (l) => {
      changes.add(l);
      return () => changes.delete(l);
    },
  };
  /** What a dispatcher (dispatch.ts) hands this host: replies have nobody waiting (the test settles requests itself). */
  const inbox = { settle: () => undefined, changed: () => changes.forEach((l) => l()) };
  return { host, asked, intents, replies, inbox, changes };
}
