// The extension host as the webview sees it: one-way intents, requests answered by a reply with
// the same seq (rejected on an error reply or when none comes in time), the host's word that the
// agent's changes moved, and the state VS Code keeps for a hidden or reloaded view. Components
// get it from HostContext (main.tsx provides the real one over acquireVsCodeApi; tests provide a
// fake), never from a module global.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { RequestMethod, RequestParams, RequestResult, WebviewIntent, WebviewReply } from '../shared/protocol';

/** What acquireVsCodeApi() returns, as far as the view uses it. */
export interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(s: unknown): void;
}

/** The view's saved state (kept while VS Code disposes a hidden view). */
export interface ViewState {
  get(): unknown;
  /** Replaces some keys of the saved state, keeping the others. */
  merge(patch: Record<string, unknown>): void;
}

export interface Host {
  post(intent: WebviewIntent): void;
  request<M extends RequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>>;
  state: ViewState;
  /** Calls `l` whenever the host says the agent's changes (or their review state) moved; returns the unsubscribe. */
  onChanges(l: () => void): () => void;
}

/** What the page's one message dispatcher (dispatch.ts) hands the host: replies, and "changes". */
export interface HostInbox {
  settle(r: WebviewReply): void;
  changed(): void;
}

/** How long a request waits for its reply. */
export const REQUEST_TIMEOUT_MS = 15_000;

export function viewStateOf(api: Pick<VsCodeApi, 'getState' | 'setState'>): ViewState {
  return {
    get: () => api.getState(),
    merge: (patch) => {
      const s = api.getState();
      api.setState({ ...(s && typeof s === 'object' ? s : {}), ...patch });
    },
  };
}

/** The host over a VS Code webview API; the dispatcher feeds it the replies and "changes" the page receives. */
export function createHost(api: VsCodeApi, timeoutMs = REQUEST_TIMEOUT_MS): Host & HostInbox {
  let seq = 0;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const changes = new Set<() => void>();
  return {
    post: (intent) => api.postMessage(intent),
    request<M extends RequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> {
      const id = ++seq;
      return new Promise<RequestResult<M>>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error(`Tandem did not answer ${method} in ${Math.round(timeoutMs / 1000)} s.`));
        }, timeoutMs);
        const done = (settle: () => void) => {
          clearTimeout(timer);
          waiting.delete(id);
          settle();
        };
        waiting.set(id, {
          resolve: (v) => done(() => resolve(v as RequestResult<M>)),
          reject: (e) => done(() => reject(e)),
        });
        api.postMessage({ type: 'request', seq: id, method, params });
      });
    },
    settle(r) {
      const w = waiting.get(r.seq);
      if (!w) return; // timed out, or asked by an earlier page
      if ('error' in r) w.reject(new Error(r.error));
      else w.resolve(r.result);
    },
    state: viewStateOf(api),
    onChanges(l) {
      changes.add(l);
      return () => changes.delete(l);
    },
    changed: () => changes.forEach((l) => l()),
  };
}

/** Outside a provider (a component rendered to a string in a test) nothing is saved and any message throws. */
const detached: VsCodeApi = {
  postMessage: () => {
    throw new Error('No HostContext provider: this view is not connected to the extension host.');
  },
  getState: () => undefined,
  setState: () => undefined,
};

export const HostContext = createContext<Host>(createHost(detached));
export const useHost = (): Host => useContext(HostContext);
