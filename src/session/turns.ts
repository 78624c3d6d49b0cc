// How updates land in a session's turns: opening and ending turns, items, streamed chunks that
// grow the last message, compactions, and the session meta. Pure helpers of the reducer.
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { PVec } from '../common/persistent';
import type { ItemView, Patch, SessionMeta, ToolCallView, TurnView } from '../shared/sessionModel';
import type { ReduceResult, SessionState, TurnState } from './reducer';

export function setMeta(state: SessionState, m: Partial<SessionMeta>): ReduceResult {
  return { state: { ...state, meta: { ...state.meta, ...m } }, patches: [{ op: 'meta', meta: m }] };
}

export function newTurn(state: SessionState, at: number): ReduceResult {
  const header = { index: state.turns.length, startedAt: at };
  const turn: TurnState = { header, items: PVec.empty() };
  return { state: { ...state, turns: state.turns.push(turn) }, patches: [{ op: 'turn', turn: header }] };
}

/** The turn updates land in; one is opened when the agent speaks before any prompt (e.g. load replay). */
export function currentTurn(state: SessionState, at: number): { state: SessionState; patches: Patch[] } {
  return state.turns.length ? { state, patches: [] } : newTurn(state, at);
}

export function endTurn(
  state: SessionState,
  h: Partial<Omit<TurnView, 'items' | 'index'>> | undefined,
  m: Partial<SessionMeta>,
): ReduceResult {
  const patches: Patch[] = [];
  const last = state.turns.last();
  if (h && last) {
    const header = { ...last.header, ...h };
    state = { ...state, turns: state.turns.set(header.index, { ...last, header }) };
    patches.push({ op: 'turn', turn: header });
    // A turn that ended without finishing its calls (cancelled, failed, agent gone): they will not
    // finish now. Marked so the view stops their spinners; a late update from the agent still wins.
    if (h.stopReason === 'cancelled' || h.error) {
      const endedAt = h.endedAt ?? header.startedAt;
      last.items.forEach((it) => {
        if (it.kind !== 'tool') return;
        const call = state.toolCalls.get(it.toolCallId);
        if (!call || call.status === 'completed' || call.status === 'failed') return;
        const updated: ToolCallView = { ...call, interrupted: true, endedAt };
        state = { ...state, toolCalls: state.toolCalls.set(call.toolCallId, updated) };
        patches.push({ op: 'tool', call: updated });
      });
    }
  }
  const r = setMeta(state, m);
  patches.push(...r.patches);
  return { state: r.state, patches };
}

export function pushItem(state: SessionState, item: ItemView, ti = state.turns.length - 1): ReduceResult {
  const turn = state.turns.get(ti)!;
  const index = turn.items.length;
  const turns = state.turns.set(ti, { ...turn, items: turn.items.push(item) });
  return { state: { ...state, turns }, patches: [{ op: 'item', turn: ti, index, item }] };
}

export function replaceItem(state: SessionState, ti: number, index: number, item: ItemView): SessionState {
  const turn = state.turns.get(ti)!;
  return { ...state, turns: state.turns.set(ti, { ...turn, items: turn.items.set(index, item) }) };
}

export function appendChunk(
  state: SessionState,
  kind: 'user' | 'agent' | 'thought',
  block: ContentBlock,
  messageId: string | undefined,
  at: number,
): ReduceResult {
  // An empty text says nothing: as a message it would be an empty row (Qwen Code sends one with
  // its usage after each model call).
  if (block.type === 'text' && !block.text) return { state, patches: [] };
  const patches: Patch[] = [];
  // A user message after the agent has spoken starts a new turn (session/load replays history),
  // except while a prompt runs: then it was steered into that turn.
  const lastTurn = state.turns.last();
  if (kind === 'user' && lastTurn && hasAgentOutput(lastTurn) && state.meta.status !== 'working') {
    const r = newTurn(state, at);
    state = r.state;
    patches.push(...r.patches);
  } else {
    const r = currentTurn(state, at);
    state = r.state;
    patches.push(...r.patches);
  }
  const ti = state.turns.length - 1;
  const turn = state.turns.get(ti)!;
  const index = turn.items.length - 1;
  const last = turn.items.get(index);
  const continues =
    last &&
    last.kind === kind &&
    'blocks' in last &&
    (messageId === undefined || last.messageId === undefined || last.messageId === messageId);
  if (!continues) {
    const r = pushItem(state, { kind, blocks: [block], ...(messageId ? { messageId } : {}) });
    patches.push(...r.patches);
    return { state: r.state, patches };
  }
  const blocks = last.blocks;
  const lastBlock = blocks[blocks.length - 1];
  if (block.type === 'text' && lastBlock?.type === 'text') {
    const nb = blocks.slice();
    nb[nb.length - 1] = { ...lastBlock, text: lastBlock.text + block.text };
    state = replaceItem(state, ti, index, { ...last, blocks: nb });
    patches.push({ op: 'append', turn: ti, index, block: nb.length - 1, text: block.text });
    return { state, patches };
  }
  const item: ItemView = { ...last, blocks: [...blocks, block] };
  state = replaceItem(state, ti, index, item);
  patches.push({ op: 'item', turn: ti, index, item });
  return { state, patches };
}

function hasAgentOutput(turn: TurnState): boolean {
  const last = turn.items.last();
  return !!last && last.kind !== 'user';
}

export function upsertCompaction(
  state: SessionState,
  compactionId: string,
  at: number,
  change: (c: Extract<ItemView, { kind: 'compaction' }>) => Extract<ItemView, { kind: 'compaction' }>,
): ReduceResult {
  const patches: Patch[] = [];
  const r = currentTurn(state, at);
  state = r.state;
  patches.push(...r.patches);
  const ti = state.turns.length - 1;
  const turn = state.turns.get(ti)!;
  // Compactions are rare: a scan of the current turn is fine.
  for (let i = turn.items.length - 1; i >= 0; i--) {
    const it = turn.items.get(i)!;
    if (it.kind === 'compaction' && it.compactionId === compactionId) {
      const item = change(it);
      patches.push({ op: 'item', turn: ti, index: i, item });
      return { state: replaceItem(state, ti, i, item), patches };
    }
  }
  const p = pushItem(state, change({ kind: 'compaction', compactionId, status: 'in_progress', summary: '' }));
  patches.push(...p.patches);
  return { state: p.state, patches };
}
