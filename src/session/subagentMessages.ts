// A subagent's own messages: claude-agent-acp sends them once the client advertises
// `clientCapabilities._meta["subagent-transcript"]`, as message and thought chunks whose
// `_meta.claudeCode.parentToolUseId` names the Agent/Task call that started the subagent. They go
// into that call's turn as `subagent` items (the tree shows them under the call) and never merge
// with the main conversation's messages, which run on around them.
import type { ContentBlock, SessionUpdate } from '@agentclientprotocol/sdk';
import type { ItemView } from '../shared/sessionModel';
import type { ReduceResult, SessionState } from './reducer';
import { parentToolUseIdOf } from './toolCallMeta';
import { pushItem, replaceItem } from './turns';

type SubagentItem = Extract<ItemView, { kind: 'subagent' }>;

/**
 * How many items back a chunk looks for its subagent's message: subagents run in parallel, so the
 * chunks of two of them (and the main conversation's) interleave in one turn.
 */
const LOOK_BACK = 64;

const ROLES = { user_message_chunk: 'user', agent_message_chunk: 'agent', agent_thought_chunk: 'thought' } as const;

/**
 * A message or thought chunk of a subagent, added under its Agent call; undefined for any other
 * update, and for a chunk naming no call the session knows (it stays in the conversation).
 */
export function subagentChunk(state: SessionState, u: SessionUpdate): ReduceResult | undefined {
  if (
    u.sessionUpdate !== 'user_message_chunk' &&
    u.sessionUpdate !== 'agent_message_chunk' &&
    u.sessionUpdate !== 'agent_thought_chunk'
  )
    return undefined;
  const parent = parentToolUseIdOf(u._meta ?? undefined);
  if (!parent || !state.toolCalls.has(parent)) return undefined;
  // An empty text says nothing (as in the conversation: turns.ts).
  if (u.content.type === 'text' && !u.content.text) return { state, patches: [] };
  return appendSubagentChunk(state, parent, ROLES[u.sessionUpdate], u.content, u.messageId ?? undefined);
}

/** A chunk of the subagent under `parentId`: continues its last message, else starts one. */
function appendSubagentChunk(
  state: SessionState,
  parentId: string,
  role: SubagentItem['role'],
  block: ContentBlock,
  messageId: string | undefined,
): ReduceResult {
  const ti = state.toolCalls.get(parentId)!.turn;
  const items = state.turns.get(ti)!.items;
  for (let i = items.length - 1, n = 0; i >= 0 && n < LOOK_BACK; i--, n++) {
    const it = items.get(i)!;
    if (it.kind === 'subagent' && it.parentId === parentId) {
      const same = it.role === role && (!messageId || !it.messageId || it.messageId === messageId);
      if (same) return extend(state, ti, i, it, block);
      break;
    }
    // A call of its own (or the Agent call itself) ends the subagent's message.
    if (it.kind === 'tool' && (it.toolCallId === parentId || state.toolCalls.get(it.toolCallId)?.parentId === parentId))
      break;
  }
  const item: SubagentItem = { kind: 'subagent', role, parentId, blocks: [block], ...(messageId ? { messageId } : {}) };
  return pushItem(state, item, ti);
}

function extend(state: SessionState, ti: number, index: number, it: SubagentItem, block: ContentBlock): ReduceResult {
  const last = it.blocks[it.blocks.length - 1];
  if (block.type === 'text' && last?.type === 'text') {
    const blocks = it.blocks.slice();
    blocks[blocks.length - 1] = { ...last, text: last.text + block.text };
    return {
      state: replaceItem(state, ti, index, { ...it, blocks }),
      patches: [{ op: 'append', turn: ti, index, block: blocks.length - 1, text: block.text }],
    };
  }
  const item: SubagentItem = { ...it, blocks: [...it.blocks, block] };
  return { state: replaceItem(state, ti, index, item), patches: [{ op: 'item', turn: ti, index, item }] };
}
