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
  /**
   * How many characters of output there have been in all (absent: `output.length`); `output` is
   * the last `output.length` of them. The terminal renderer tells the new output from the old by
   * it: once the front is dropped, the text alone cannot say where the old tail sits (a command
   * printing the same line over and over).
   */
  outputEnd?: number;
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

/** `agent`: no request came; the agent's own settings (an allow-list, a mode) let the call run. */
export type PermissionDecider = 'user' | 'rule' | 'remembered' | 'cancelled' | 'agent';

export interface PermissionDecisionView {
  outcome: 'selected' | 'cancelled';
  optionId?: string;
  optionName?: string;
  optionKind?: PermissionOption['kind'];
  by: PermissionDecider;
  /** The rule that matched (for by: rule | remembered), in words; for by: agent, where its settings are when known. */
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
  /** What an "always" option remembers, in words (`exactly \`node -e …\``); set when one is offered. */
  alwaysScope?: string;
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
  /**
   * A message of a subagent (claude-agent-acp with `subagent-transcript`: a chunk whose
   * `_meta.claudeCode.parentToolUseId` names its Agent/Task call): shown under that call, never
   * taken for the agent's own answer.
   */
  | {
      kind: 'subagent';
      role: 'user' | 'agent' | 'thought';
      parentId: string;
      blocks: ContentBlock[];
      messageId?: string;
    }
  | { kind: 'compaction'; compactionId: string; status: string; summary: string; error?: string };

export interface TurnView {
  index: number;
  startedAt: number;
  endedAt?: number;
  stopReason?: StopReason;
  /** A prompt that failed (JSON-RPC error or lost agent). */
  error?: string;
  /** What the turn spent, where the prompt's answer says (`_meta.quota`). */
  usage?: TurnUsageView;
  /**
   * Edit and resend rewound the conversation to before an earlier prompt: this turn is no longer
   * in the agent's context (the view folds it; Redo brings it back into view).
   */
  rewound?: true;
  items: ItemView[];
  /**
   * Set on a folded turn sent without its content (see turnOutline.ts): `items` then holds only
   * the prompt, and the turn's tool calls are not in `toolCalls` until a `fullTurn` patch.
   */
  outline?: TurnOutline;
}

/**
 * The tokens one turn spent, from its prompt response's `_meta.quota.token_count` (claude-agent-acp
 * and codex-acp: per turn, the main agent loop). Never the context's size: that is `usage_update`.
 */
export interface TurnUsageView {
  total: number;
  input: number;
  output: number;
  /** Cache reads (`cachedInputTokens`) and writes, and reasoning, where the agent counts them. */
  cachedRead?: number;
  cachedWrite?: number;
  reasoning?: number;
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

/** Appends output to a terminal (the reducer and the view's patches share it): bounded, counted. */
export function appendOutput(t: TerminalView, data: string): TerminalView {
  const { text, dropped } = appendBounded(t.output, data);
  return { ...t, output: text, truncated: t.truncated || dropped, outputEnd: outputEnd(t) + data.length };
}

export function outputEnd(t: Pick<TerminalView, 'output' | 'outputEnd'>): number {
  return t.outputEnd ?? t.output.length;
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
