// The session as the UI sees it: plain JSON, shared by the host (snapshots, patches) and the
// webview (its mirror). ACP types are imported as types only, so nothing of the SDK ships.
import type {
  AvailableCommand, ContentBlock, Cost, PlanEntry, SessionConfigOption, SessionMode, StopReason,
  ToolCallContent, ToolCallLocation, ToolCallStatus, ToolKind,
} from '@agentclientprotocol/sdk';

export type { ContentBlock, ToolCallContent, ToolCallLocation, ToolCallStatus, ToolKind, PlanEntry, StopReason };

export type SessionStatus = 'idle' | 'working' | 'disconnected';

export interface ToolCallView {
  toolCallId: string;
  title: string;
  name?: string;
  kind: ToolKind;
  status: ToolCallStatus;
  content: ToolCallContent[];
  locations: ToolCallLocation[];
  rawInput?: unknown;
  rawOutput?: unknown;
  meta?: Record<string, unknown>;
  /** The turn that made the call. */
  turn: number;
  startedAt: number;
  /** Set when the call reaches completed or failed. */
  endedAt?: number;
}

export type ItemView =
  | { kind: 'user' | 'agent' | 'thought'; blocks: ContentBlock[]; messageId?: string }
  | { kind: 'tool'; toolCallId: string }
  | { kind: 'compaction'; compactionId: string; status: string; summary: string; error?: string };

export interface TurnView {
  index: number;
  startedAt: number;
  endedAt?: number;
  stopReason?: StopReason;
  /** A prompt that failed (JSON-RPC error or lost agent). */
  error?: string;
  items: ItemView[];
}

export interface NoticeView { severity: string; title: string; description?: string; at: number }

export interface SessionMeta {
  sessionId: string;
  status: SessionStatus;
  title?: string;
  updatedAt?: string;
  plan: PlanEntry[];
  commands: AvailableCommand[];
  modes: SessionMode[];
  currentModeId?: string;
  configOptions: SessionConfigOption[];
  usage?: { used: number; size: number; cost?: Cost | null };
  /** The last connection-level error, shown as a banner. */
  error?: string;
}

export interface SessionSnapshot {
  meta: SessionMeta;
  turns: TurnView[];
  toolCalls: Record<string, ToolCallView>;
  notices: NoticeView[];
}

/** Fine-grained changes: text streaming appends, it never resends a whole message. */
export type Patch =
  | { op: 'meta'; meta: Partial<SessionMeta> }
  | { op: 'turn'; turn: Omit<TurnView, 'items'> }
  | { op: 'item'; turn: number; index: number; item: ItemView }
  | { op: 'append'; turn: number; index: number; block: number; text: string }
  | { op: 'tool'; call: ToolCallView }
  | { op: 'notice'; notice: NoticeView };

/**
 * Applies patches to a mutable snapshot (the webview's mirror). Returns what changed so a
 * view can re-render only those parts. Unknown ops are ignored, never thrown on.
 */
export function applyPatches(s: SessionSnapshot, patches: readonly Patch[]): Changed {
  const changed: Changed = { meta: false, turns: new Set(), tools: new Set(), notices: false };
  for (const p of patches) {
    switch (p.op) {
      case 'meta':
        s.meta = { ...s.meta, ...p.meta };
        changed.meta = true;
        break;
      case 'turn': {
        const prev = s.turns[p.turn.index];
        s.turns[p.turn.index] = { ...p.turn, items: prev?.items ?? [] };
        changed.turns.add(p.turn.index);
        break;
      }
      case 'item': {
        const turn = s.turns[p.turn];
        if (!turn) break;
        turn.items[p.index] = p.item;
        changed.turns.add(p.turn);
        break;
      }
      case 'append': {
        const item = s.turns[p.turn]?.items[p.index];
        if (!item || !('blocks' in item)) break;
        const blocks = item.blocks.slice();
        const b = blocks[p.block];
        if (b && b.type === 'text') blocks[p.block] = { ...b, text: b.text + p.text };
        else blocks[p.block] = { type: 'text', text: p.text };
        s.turns[p.turn].items[p.index] = { ...item, blocks };
        changed.turns.add(p.turn);
        break;
      }
      case 'tool':
        s.toolCalls[p.call.toolCallId] = p.call;
        changed.tools.add(p.call.toolCallId);
        break;
      case 'notice':
        s.notices.push(p.notice);
        changed.notices = true;
        break;
    }
  }
  return changed;
}

export interface Changed { meta: boolean; turns: Set<number>; tools: Set<string>; notices: boolean }

/**
 * Merges a batch before it crosses to the webview: consecutive appends to one block become
 * one, and only the last upsert of a tool call in the batch is kept (order of first sight).
 */
export function coalescePatches(patches: readonly Patch[]): Patch[] {
  const out: Patch[] = [];
  const toolAt = new Map<string, number>();
  for (const p of patches) {
    const prev = out[out.length - 1];
    if (p.op === 'append' && prev?.op === 'append' && prev.turn === p.turn && prev.index === p.index && prev.block === p.block) {
      out[out.length - 1] = { ...prev, text: prev.text + p.text };
    } else if (p.op === 'tool') {
      const at = toolAt.get(p.call.toolCallId);
      // Safe to replace in place: a tool upsert never depends on patches between the two.
      if (at !== undefined) out[at] = p;
      else { toolAt.set(p.call.toolCallId, out.length); out.push(p); }
    } else if (p.op === 'meta' && prev?.op === 'meta') {
      out[out.length - 1] = { op: 'meta', meta: { ...prev.meta, ...p.meta } };
    } else out.push(p);
  }
  return out;
}

export function emptySnapshot(sessionId: string): SessionSnapshot {
  return {
    meta: { sessionId, status: 'idle', plan: [], commands: [], modes: [], configOptions: [] },
    turns: [],
    toolCalls: {},
    notices: [],
  };
}
