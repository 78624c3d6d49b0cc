// The session as the UI sees it: plain JSON, shared by the host (snapshots, patches) and the
// webview (its mirror). ACP types are imported as types only, so nothing of the SDK ships.
import type {
  AvailableCommand,
  ContentBlock,
  Cost,
  PermissionOption,
  PlanEntry,
  SessionConfigOption,
  SessionMode,
  StopReason,
  ToolCallContent,
  ToolCallLocation,
  ToolCallStatus,
  ToolCallUpdate,
  ToolKind,
} from '@agentclientprotocol/sdk';
import type { ElicitationSchema } from '@agentclientprotocol/sdk';

export type {
  ContentBlock,
  PermissionOption,
  ToolCallContent,
  ToolCallLocation,
  ToolCallStatus,
  ToolKind,
  PlanEntry,
  StopReason,
};

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
  /** Set when the call reaches completed or failed (or was interrupted). */
  endedAt?: number;
  /** Its turn ended (cancelled, failed, agent gone) before the call finished; it never will. */
  interrupted?: boolean;
  /** How the last permission request about this call was decided (audit, shown in the call). */
  permission?: PermissionDecisionView;
  /**
   * An agent-side terminal (claude-agent-acp, codex-acp: `_meta.terminal_info`) whose output lives
   * in `terminals`, rendered like a client terminal even when `content` does not list it.
   */
  agentTerminalId?: string;
  /**
   * The call whose subagent made this one (claude-agent-acp: `_meta.claudeCode.parentToolUseId`
   * of an Agent/Task call): the tree shows it under that call.
   */
  parentId?: string;
}

/** A command's output, from a client terminal (terminal/create) or an agent-side one (_meta.terminal_*). */
export interface TerminalView {
  terminalId: string;
  /** Command line as shown to the user. */
  command?: string;
  cwd?: string;
  /** The tail of the output, at most TERMINAL_VIEW_MAX_CHARS. */
  output: string;
  /** Output was dropped at the front (the view's cap or the agent's outputByteLimit). */
  truncated: boolean;
  exitCode?: number | null;
  signal?: string | null;
  /** True once the process ended (exit code or signal known, or it was killed/released). */
  exited: boolean;
  /** Released by the agent: no more output will come, the view keeps what it has. */
  released?: boolean;
}

/** The view keeps this much of a terminal's output (the tail): enough to read, bounded in memory. */
export const TERMINAL_VIEW_MAX_CHARS = 256 * 1024;

export type PermissionDecider = 'user' | 'rule' | 'remembered' | 'cancelled';

export interface PermissionDecisionView {
  outcome: 'selected' | 'cancelled';
  optionId?: string;
  optionName?: string;
  optionKind?: PermissionOption['kind'];
  by: PermissionDecider;
  /** The rule that matched (for by: rule | remembered), in words. */
  rule?: string;
  at: number;
}

/** A session/request_permission waiting for the user, in arrival order. */
export interface PermissionRequestView {
  /** Tandem's own id for the pending request (the JSON-RPC id is the agent's business). */
  requestId: string;
  toolCallId: string;
  /** The call as the request describes it (gemini-cli sends no tool_call before asking). */
  toolCall: ToolCallUpdate;
  options: PermissionOption[];
  at: number;
  /** Who asks: the agent (session/request_permission) or Tandem itself (a file outside the workspace, a client tool). */
  origin?: 'agent' | 'client';
}

/**
 * An elicitation/create shown in the view: a form waiting for the user (mode "form"), or a URL
 * the user chose to open whose completion the agent has not announced yet (mode "url").
 */
export interface ElicitationRequestView {
  /** Tandem's own id for it (the JSON-RPC id is the agent's business). */
  requestId: string;
  mode: 'form' | 'url';
  message: string;
  /** The tool call it belongs to, when the agent says so. */
  toolCallId?: string;
  /** mode "form": the schema the form is generated from. */
  requestedSchema?: ElicitationSchema;
  /** mode "url": where the user was sent, and its host as shown. */
  url?: string;
  host?: string;
  elicitationId?: string;
  at: number;
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
  /**
   * Set on a folded turn sent without its content (see turnOutline.ts): `items` then holds only
   * the prompt, and the turn's tool calls are not in `toolCalls` until a `fullTurn` patch.
   */
  outline?: TurnOutline;
}

export interface TurnOutline {
  tools: number;
  failed: number;
  running: number;
}

export interface NoticeView {
  severity: string;
  title: string;
  description?: string;
  at: number;
}

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
  terminals: Record<string, TerminalView>;
  /** Pending permission requests, oldest first. */
  permissions: PermissionRequestView[];
  /** Pending elicitations (forms, URLs in progress), oldest first. */
  elicitations: ElicitationRequestView[];
}

/** Fine-grained changes: text streaming appends, it never resends a whole message. */
export type Patch =
  | { op: 'meta'; meta: Partial<SessionMeta> }
  | { op: 'turn'; turn: Omit<TurnView, 'items'> }
  /** A whole turn with its tool calls, replacing an outline (or anything held for it). */
  | { op: 'fullTurn'; turn: TurnView; calls: ToolCallView[] }
  | { op: 'item'; turn: number; index: number; item: ItemView }
  | { op: 'append'; turn: number; index: number; block: number; text: string }
  | { op: 'tool'; call: ToolCallView }
  | { op: 'notice'; notice: NoticeView }
  /** Upsert a terminal's header fields (everything but output), or create it. */
  | { op: 'terminal'; terminal: Omit<TerminalView, 'output'> & { output?: string } }
  /** Output appended to a terminal; `truncated` set when the front was dropped to stay bounded. */
  | { op: 'terminalOutput'; terminalId: string; data: string }
  | { op: 'permissions'; permissions: PermissionRequestView[] }
  | { op: 'elicitations'; elicitations: ElicitationRequestView[] };

/**
 * Applies patches to a mutable snapshot (the webview's mirror). Returns what changed so a
 * view can re-render only those parts. Unknown ops are ignored, never thrown on.
 */
export function applyPatches(s: SessionSnapshot, patches: readonly Patch[]): Changed {
  const changed: Changed = {
    meta: false,
    turns: new Set(),
    tools: new Set(),
    notices: false,
    terminals: new Set(),
    permissions: false,
    elicitations: false,
  };
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
      case 'fullTurn': {
        const { outline: _, ...turn } = p.turn;
        s.turns[turn.index] = { ...turn, items: turn.items.slice() };
        for (const c of p.calls) {
          s.toolCalls[c.toolCallId] = c;
          changed.tools.add(c.toolCallId);
        }
        changed.turns.add(turn.index);
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
      case 'terminal': {
        const prev = s.terminals[p.terminal.terminalId];
        s.terminals[p.terminal.terminalId] = {
          ...prev,
          ...p.terminal,
          output: p.terminal.output ?? prev?.output ?? '',
        };
        changed.terminals.add(p.terminal.terminalId);
        break;
      }
      case 'terminalOutput': {
        const t = s.terminals[p.terminalId];
        if (!t) break;
        const { text, dropped } = appendBounded(t.output, p.data);
        s.terminals[p.terminalId] = { ...t, output: text, truncated: t.truncated || dropped };
        changed.terminals.add(p.terminalId);
        break;
      }
      case 'permissions':
        s.permissions = p.permissions;
        changed.permissions = true;
        break;
      case 'elicitations':
        s.elicitations = p.elicitations;
        changed.elicitations = true;
        break;
    }
  }
  return changed;
}

export interface Changed {
  meta: boolean;
  turns: Set<number>;
  tools: Set<string>;
  notices: boolean;
  terminals: Set<string>;
  permissions: boolean;
  elicitations: boolean;
}

/** Appends and keeps the last TERMINAL_VIEW_MAX_CHARS; the reducer and the mirror share it. */
export function appendBounded(output: string, data: string): { text: string; dropped: boolean } {
  const text = output + data;
  if (text.length <= TERMINAL_VIEW_MAX_CHARS) return { text, dropped: false };
  let cut = text.length - TERMINAL_VIEW_MAX_CHARS;
  // Never split a surrogate pair.
  const c = text.charCodeAt(cut);
  if (c >= 0xdc00 && c <= 0xdfff) cut++;
  return { text: text.slice(cut), dropped: true };
}

/**
 * Merges a batch before it crosses to the webview: consecutive appends to one block become
 * one, and only the last upsert of a tool call in the batch is kept (order of first sight).
 */
export function coalescePatches(patches: readonly Patch[]): Patch[] {
  const out: Patch[] = [];
  const toolAt = new Map<string, number>();
  for (const p of patches) {
    const prev = out[out.length - 1];
    if (
      p.op === 'append' &&
      prev?.op === 'append' &&
      prev.turn === p.turn &&
      prev.index === p.index &&
      prev.block === p.block
    ) {
      out[out.length - 1] = { ...prev, text: prev.text + p.text };
    } else if (p.op === 'tool') {
      const at = toolAt.get(p.call.toolCallId);
      // Safe to replace in place: a tool upsert never depends on patches between the two.
      if (at !== undefined) out[at] = p;
      else {
        toolAt.set(p.call.toolCallId, out.length);
        out.push(p);
      }
    } else if (p.op === 'terminalOutput' && prev?.op === 'terminalOutput' && prev.terminalId === p.terminalId) {
      out[out.length - 1] = { ...prev, data: prev.data + p.data };
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
    terminals: {},
    permissions: [],
    elicitations: [],
  };
}
