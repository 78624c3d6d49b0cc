// How the user left the transcript: folded and unfolded turns, expanded tool calls, the filter
// and where they were reading. Saved in the webview's state so a view VS Code disposed while
// hidden (or reloaded) comes back as it was, like a native tree does. One session's worth: the
// memory of another session is not applied.
import type { Filter } from './rows';
import type { ViewState } from './host';

/** Where the reader is: a row and how far its top is above the viewport's top (px). Absent: at the end. */
export interface ScrollAnchor {
  key: string;
  offset: number;
}

export interface ViewMemory {
  fold: Map<number, boolean>;
  foldAll?: boolean;
  expanded: Map<string, boolean>;
  filter: Filter;
  anchor?: ScrollAnchor;
}

interface Saved {
  sessionId: string;
  fold: [number, boolean][];
  foldAll?: boolean;
  expanded: [string, boolean][];
  kinds: string[];
  statuses: string[];
  anchor?: ScrollAnchor;
}

const pairs = <K>(v: unknown, key: (k: unknown) => k is K): [K, boolean][] =>
  Array.isArray(v)
    ? v.filter((p): p is [K, boolean] => Array.isArray(p) && key(p[0]) && typeof p[1] === 'boolean')
    : [];
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export function loadViewMemory(state: ViewState, sessionId: string): ViewMemory | undefined {
  const s = (state.get() as { transcript?: Partial<Saved> } | undefined)?.transcript;
  if (!s || s.sessionId !== sessionId) return undefined;
  const a = s.anchor;
  return {
    fold: new Map(pairs(s.fold, (k): k is number => typeof k === 'number')),
    foldAll: typeof s.foldAll === 'boolean' ? s.foldAll : undefined,
    expanded: new Map(pairs(s.expanded, (k): k is string => typeof k === 'string')),
    filter: { kinds: new Set(strings(s.kinds)), statuses: new Set(strings(s.statuses)) },
    anchor:
      a && typeof a.key === 'string' && typeof a.offset === 'number' ? { key: a.key, offset: a.offset } : undefined,
  };
}

export function saveViewMemory(state: ViewState, sessionId: string, m: ViewMemory): void {
  const saved: Saved = {
    sessionId,
    fold: [...m.fold],
    expanded: [...m.expanded],
    kinds: [...m.filter.kinds],
    statuses: [...m.filter.statuses],
    ...(m.foldAll !== undefined ? { foldAll: m.foldAll } : {}),
    ...(m.anchor ? { anchor: m.anchor } : {}),
  };
  state.merge({ transcript: saved });
}
