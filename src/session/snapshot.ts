// Reading the session state: plain JSON for the view (a whole snapshot, or one turn with its
// tool calls) and single lookups. The reducer (reducer.ts) only ever writes.
import type { PMap } from '../common/persistent';
import type { SessionSnapshot, ToolCallView, TurnView } from '../shared/sessionModel';
import type { SessionState } from './reducer';

/** Plain JSON for the webview's first render, or a rebuild after reload. */
export function toSnapshot(state: SessionState): SessionSnapshot {
  const toolCalls: Record<string, ToolCallView> = {};
  state.toolCalls.forEach((v, k) => {
    toolCalls[k] = v;
  });
  return {
    meta: state.meta,
    turns: state.turns.toArray().map((t) => ({ ...t.header, items: t.items.toArray() })),
    toolCalls,
    notices: state.notices.toArray(),
    terminals: mapToRecord(state.terminals),
    permissions: state.permissions.slice(),
    elicitations: state.elicitations.slice(),
  };
}

function mapToRecord<V>(m: PMap<V>): Record<string, V> {
  const out: Record<string, V> = {};
  m.forEach((v, k) => {
    out[k] = v;
  });
  return out;
}

/** One turn with its tool calls (what the view loads when it unfolds an outlined turn). */
export function turnWithCalls(
  state: SessionState,
  index: number,
): { turn: TurnView; calls: ToolCallView[] } | undefined {
  const t = index >= 0 && index < state.turns.length ? state.turns.get(index) : undefined;
  if (!t) return undefined;
  const items = t.items.toArray();
  const calls: ToolCallView[] = [];
  for (const it of items) {
    const c = it.kind === 'tool' ? state.toolCalls.get(it.toolCallId) : undefined;
    if (c) calls.push(c);
  }
  return { turn: { ...t.header, items }, calls };
}

export function getToolCall(state: SessionState, id: string): ToolCallView | undefined {
  return state.toolCalls.get(id);
}
