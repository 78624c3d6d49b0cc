import type { Intent } from '../shared/protocol';

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(s: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const api: VsCodeApi =
  typeof acquireVsCodeApi === 'function'
    ? acquireVsCodeApi()
    : { postMessage: () => undefined, getState: () => undefined, setState: () => undefined };

export function post(intent: Intent): void {
  api.postMessage(intent);
}
export const viewState = {
  get: () => api.getState(),
  /** Replaces some keys of the saved state, keeping the others. */
  merge: (patch: Record<string, unknown>) => {
    const s = api.getState();
    api.setState({ ...(s && typeof s === 'object' ? s : {}), ...patch });
  },
};
