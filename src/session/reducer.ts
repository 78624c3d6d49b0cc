// The session reducer: a pure function from SessionAction to SessionState, plus the patches
// that describe the change for the webview. No vscode, no DOM, no clock, no I/O.
import type { ContentBlock, SessionUpdate, ToolCall, ToolCallUpdate } from '@agentclientprotocol/sdk';
import { PMap, PVec } from '../common/persistent';
import {
  appendBounded,
  type ElicitationRequestView,
  type ItemView,
  type NoticeView,
  type Patch,
  type PermissionDecisionView,
  type PermissionRequestView,
  type SessionMeta,
  type TerminalView,
  type ToolCallView,
  type TurnView,
} from '../shared/sessionModel';
import type { SessionAction } from './actions';
import { hasTerminalMeta, parentToolUseIdOf, terminalIdOf, withoutTerminalMeta } from './toolCallMeta';

export interface TurnState {
  readonly header: Omit<TurnView, 'items'>;
  readonly items: PVec<ItemView>;
}

export interface SessionState {
  readonly meta: SessionMeta;
  readonly turns: PVec<TurnState>;
  readonly toolCalls: PMap<ToolCallView>;
  readonly notices: PVec<NoticeView>;
  readonly terminals: PMap<TerminalView>;
  readonly permissions: readonly PermissionRequestView[];
  readonly elicitations: readonly ElicitationRequestView[];
}

export interface ReduceResult {
  state: SessionState;
  patches: Patch[];
}

export function createSessionState(sessionId: string): SessionState {
  return {
    meta: { sessionId, status: 'idle', plan: [], commands: [], modes: [], configOptions: [] },
    turns: PVec.empty(),
    toolCalls: PMap.empty(),
    notices: PVec.empty(),
    terminals: PMap.empty(),
    permissions: [],
    elicitations: [],
  };
}

export function reduce(state: SessionState, action: SessionAction): ReduceResult {
  switch (action.type) {
    case 'update':
      return applyUpdate(state, action.update, action.at);
    case 'started':
      return setMeta(state, {
        status: 'idle',
        ...(action.modes ? { modes: action.modes } : {}),
        ...(action.currentModeId ? { currentModeId: action.currentModeId } : {}),
        ...(action.configOptions ? { configOptions: action.configOptions } : {}),
      });
    case 'promptStarted': {
      const r = newTurn(state, action.at);
      const user: ItemView = { kind: 'user', blocks: action.prompt };
      const withUser = pushItem(r.state, user);
      const meta = setMeta(withUser.state, { status: 'working', error: undefined });
      return { state: meta.state, patches: [...r.patches, ...withUser.patches, ...meta.patches] };
    }
    case 'promptEnded':
      return endTurn(state, { endedAt: action.at, stopReason: action.stopReason }, { status: 'idle' });
    case 'promptFailed':
      return endTurn(state, { endedAt: action.at, error: action.error }, { status: 'idle' });
    case 'disconnected': {
      // The agent is gone: the lost turn fails, and its unfinished calls show as interrupted like
      // those of any turn that ended early (their outcome is unknown, not a failure).
      const working = state.meta.status === 'working';
      return endTurn(state, working ? { endedAt: action.at, error: action.error } : undefined, {
        status: 'disconnected',
        error: action.error,
      });
    }
    case 'modeChanged':
      return setMeta(state, { currentModeId: action.currentModeId });
    case 'configOptionsChanged':
      return setMeta(state, { configOptions: action.configOptions });
    case 'terminal': {
      const prev = state.terminals.get(action.terminal.terminalId);
      const terminal: TerminalView = { output: '', truncated: false, ...prev, ...action.terminal };
      if (prev?.truncated) terminal.truncated = true;
      const { output: _o, ...header } = terminal;
      return {
        state: { ...state, terminals: state.terminals.set(terminal.terminalId, terminal) },
        patches: [{ op: 'terminal', terminal: header }],
      };
    }
    case 'terminalOutput': {
      const prev = state.terminals.get(action.terminalId);
      if (!prev || !action.data) return { state, patches: [] };
      const { text, dropped } = appendBounded(prev.output, action.data);
      const terminal = { ...prev, output: text, truncated: prev.truncated || dropped };
      return {
        state: { ...state, terminals: state.terminals.set(prev.terminalId, terminal) },
        patches: [{ op: 'terminalOutput', terminalId: prev.terminalId, data: action.data }],
      };
    }
    case 'permissionRequested': {
      const permissions = [...state.permissions, action.request];
      return { state: { ...state, permissions }, patches: [{ op: 'permissions', permissions }] };
    }
    case 'permissionResolved': {
      const req = state.permissions.find((p) => p.requestId === action.requestId);
      if (!req) return { state, patches: [] };
      const permissions = state.permissions.filter((p) => p.requestId !== action.requestId);
      const patches: Patch[] = [{ op: 'permissions', permissions }];
      state = { ...state, permissions };
      // (Tandem's own questions, e.g. a read outside the workspace, are not tool calls.)
      const loose =
        req.origin !== 'client' && !state.toolCalls.get(req.toolCallId) && looseCallOutcome(action.decision);
      if (loose) {
        // gemini-cli asks before it sends any tool_call and reports only the result: the answered
        // request becomes the call's row, so it shows while it runs (and Tandem's client tools find it).
        const r = upsertToolCall(state, { ...req.toolCall, status: loose }, action.at, true);
        state = r.state;
        patches.push(...r.patches.filter((p) => p.op !== 'tool'));
      }
      const call = state.toolCalls.get(req.toolCallId);
      if (call) {
        const updated = { ...call, permission: action.decision };
        state = { ...state, toolCalls: state.toolCalls.set(call.toolCallId, updated) };
        patches.push({ op: 'tool', call: updated });
      }
      return { state, patches };
    }
    case 'elicitationRequested': {
      const elicitations = [
        ...state.elicitations.filter((e) => e.requestId !== action.request.requestId),
        action.request,
      ];
      return { state: { ...state, elicitations }, patches: [{ op: 'elicitations', elicitations }] };
    }
    case 'elicitationResolved': {
      if (!state.elicitations.some((e) => e.requestId === action.requestId)) return { state, patches: [] };
      const elicitations = state.elicitations.filter((e) => e.requestId !== action.requestId);
      return { state: { ...state, elicitations }, patches: [{ op: 'elicitations', elicitations }] };
    }
  }
  return { state, patches: [] };
}

/** What an answered request with no row of its own becomes: allowed → running, denied → failed, unanswered → nothing. */
function looseCallOutcome(d: PermissionDecisionView): 'in_progress' | 'failed' | undefined {
  if (d.outcome !== 'selected') return undefined;
  if (d.optionKind?.startsWith('allow')) return 'in_progress';
  if (d.optionKind?.startsWith('reject')) return 'failed';
  return undefined;
}

/** Reduces many actions; the patches of all of them, in order. */
export function reduceAll(state: SessionState, actions: readonly SessionAction[]): ReduceResult {
  const patches: Patch[] = [];
  for (const a of actions) {
    const r = reduce(state, a);
    state = r.state;
    for (const p of r.patches) patches.push(p);
  }
  return { state, patches };
}

function applyUpdate(state: SessionState, u: SessionUpdate, at: number): ReduceResult {
  switch (u.sessionUpdate) {
    case 'user_message_chunk':
      return appendChunk(state, 'user', u.content, u.messageId ?? undefined, at);
    case 'agent_message_chunk':
      return appendChunk(state, 'agent', u.content, u.messageId ?? undefined, at);
    case 'agent_thought_chunk':
      return appendChunk(state, 'thought', u.content, u.messageId ?? undefined, at);
    case 'tool_call':
      return upsertToolCall(state, u, at, true);
    case 'tool_call_update':
      return upsertToolCall(state, u, at, false);
    case 'plan':
      return setMeta(state, { plan: u.entries });
    case 'available_commands_update':
      return setMeta(state, { commands: u.availableCommands });
    case 'current_mode_update':
      return setMeta(state, { currentModeId: u.currentModeId });
    case 'config_option_update':
      return setMeta(state, { configOptions: u.configOptions });
    case 'session_info_update': {
      const m: Partial<SessionMeta> = {};
      // null clears, absent leaves as is (ACP's partial-update convention).
      if (u.title !== undefined) m.title = u.title ?? undefined;
      if (u.updatedAt !== undefined) m.updatedAt = u.updatedAt ?? undefined;
      return setMeta(state, m);
    }
    case 'usage_update':
      return setMeta(state, { usage: { used: u.used, size: u.size, cost: u.cost ?? undefined } });
    case 'notice': {
      const notice: NoticeView = {
        severity: u.severity,
        title: u.title,
        at,
        ...(u.description ? { description: u.description } : {}),
      };
      return { state: { ...state, notices: state.notices.push(notice) }, patches: [{ op: 'notice', notice }] };
    }
    case 'compaction_update':
      return upsertCompaction(state, u.compactionId, at, (c) => ({
        ...c,
        status: u.status,
        ...(u.summary ? { summary: u.summary.map(blockText).join('') } : {}),
        ...(u.error ? { error: u.error } : {}),
      }));
    case 'compaction_summary_chunk':
      return upsertCompaction(state, u.compactionId, at, (c) => ({
        ...c,
        summary: c.summary + blockText(u.content),
      }));
  }
  // Unknown kinds were filtered by validation; stay total anyway.
  return { state, patches: [] };
}

function setMeta(state: SessionState, m: Partial<SessionMeta>): ReduceResult {
  return { state: { ...state, meta: { ...state.meta, ...m } }, patches: [{ op: 'meta', meta: m }] };
}

function newTurn(state: SessionState, at: number): ReduceResult {
  const header = { index: state.turns.length, startedAt: at };
  const turn: TurnState = { header, items: PVec.empty() };
  return { state: { ...state, turns: state.turns.push(turn) }, patches: [{ op: 'turn', turn: header }] };
}

/** The turn updates land in; one is opened when the agent speaks before any prompt (e.g. load replay). */
function currentTurn(state: SessionState, at: number): { state: SessionState; patches: Patch[] } {
  return state.turns.length ? { state, patches: [] } : newTurn(state, at);
}

function endTurn(
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

function pushItem(state: SessionState, item: ItemView, ti = state.turns.length - 1): ReduceResult {
  const turn = state.turns.get(ti)!;
  const index = turn.items.length;
  const turns = state.turns.set(ti, { ...turn, items: turn.items.push(item) });
  return { state: { ...state, turns }, patches: [{ op: 'item', turn: ti, index, item }] };
}

function replaceItem(state: SessionState, ti: number, index: number, item: ItemView): SessionState {
  const turn = state.turns.get(ti)!;
  return { ...state, turns: state.turns.set(ti, { ...turn, items: turn.items.set(index, item) }) };
}

function appendChunk(
  state: SessionState,
  kind: 'user' | 'agent' | 'thought',
  block: ContentBlock,
  messageId: string | undefined,
  at: number,
): ReduceResult {
  const patches: Patch[] = [];
  // A user message after the agent has spoken starts a new turn (session/load replays history).
  const lastTurn = state.turns.last();
  if (kind === 'user' && lastTurn && hasAgentOutput(lastTurn)) {
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

/**
 * A subagent's call names the Agent/Task call that started it. Only a known call can be a parent,
 * and never one that descends from the call itself (the tree would lose both).
 */
function parentIdOf(meta: Record<string, unknown> | undefined, state: SessionState, self: string): string | undefined {
  const id = parentToolUseIdOf(meta);
  if (!id || !state.toolCalls.has(id)) return undefined;
  for (let p: string | undefined = id, n = 0; p !== undefined && n < 1000; p = state.toolCalls.get(p)?.parentId, n++)
    if (p === self) return undefined;
  return id;
}

function upsertToolCall(state: SessionState, u: ToolCall | ToolCallUpdate, at: number, full: boolean): ReduceResult {
  const patches: Patch[] = [];
  let meta = u._meta ?? undefined;
  let terminal: ReduceResult | undefined;
  if (meta && hasTerminalMeta(meta)) {
    terminal = agentTerminal(state, meta, u, at);
    state = terminal.state;
    meta = withoutTerminalMeta(meta);
  }
  const prev = state.toolCalls.get(u.toolCallId);
  let call: ToolCallView;
  if (!prev) {
    const r = currentTurn(state, at);
    state = r.state;
    patches.push(...r.patches);
    // A subagent that outlives its turn (claude-agent-acp runs them in the background) still
    // reports into the turn of the Agent call that started it.
    const parent = parentIdOf(meta, state, u.toolCallId);
    const turn = parent ? state.toolCalls.get(parent)!.turn : state.turns.length - 1;
    call = {
      toolCallId: u.toolCallId,
      title: u.title ?? (full ? '' : 'Tool call'),
      kind: u.kind ?? 'other',
      status: u.status ?? 'pending',
      content: u.content ?? [],
      locations: u.locations ?? [],
      turn,
      startedAt: at,
    };
    if (u.name) call.name = u.name;
    if (u.rawInput !== undefined) call.rawInput = u.rawInput;
    if (u.rawOutput !== undefined) call.rawOutput = u.rawOutput;
    if (meta) call.meta = meta;
    if (parent) call.parentId = parent;
    const item = pushItem(state, { kind: 'tool', toolCallId: u.toolCallId }, turn);
    state = item.state;
    patches.push(...item.patches);
  } else {
    // A tool_call on a known id is an update; content/locations replace, never append.
    call = { ...prev };
    if (u.title != null) call.title = u.title;
    if (u.name != null) call.name = u.name;
    if (u.kind != null) call.kind = u.kind;
    if (u.status != null) call.status = u.status;
    if (u.content != null) call.content = u.content;
    if (u.locations != null) call.locations = u.locations;
    if (u.rawInput !== undefined) call.rawInput = u.rawInput;
    if (u.rawOutput !== undefined) call.rawOutput = u.rawOutput;
    if (meta) call.meta = { ...prev.meta, ...meta };
    const parent = prev.parentId ? undefined : parentIdOf(meta, state, u.toolCallId);
    if (parent) call.parentId = parent;
  }
  if (terminal) {
    const id = terminalIdOf(u._meta!);
    if (id) call.agentTerminalId = id;
    patches.push(...terminal.patches);
  }
  if (prev?.interrupted && u.status != null) delete call.interrupted;
  if ((call.status === 'completed' || call.status === 'failed') && call.endedAt === undefined) call.endedAt = at;
  if (call.status !== 'completed' && call.status !== 'failed' && !call.interrupted) delete call.endedAt;
  state = { ...state, toolCalls: state.toolCalls.set(call.toolCallId, call) };
  patches.push({ op: 'tool', call });
  return { state, patches };
}

/** Turns `_meta.terminal_info / terminal_output / terminal_exit` into the same terminal state a client terminal has. */
function agentTerminal(
  state: SessionState,
  meta: Record<string, unknown>,
  u: ToolCall | ToolCallUpdate,
  at: number,
): ReduceResult {
  const id = terminalIdOf(meta);
  if (!id) return { state, patches: [] };
  const patches: Patch[] = [];
  const step = (a: SessionAction) => {
    const r = reduce(state, a);
    state = r.state;
    patches.push(...r.patches);
  };
  if (!state.terminals.get(id)) {
    const input = u.rawInput as { command?: unknown } | undefined;
    const command = typeof input?.command === 'string' ? input.command : undefined;
    step({ type: 'terminal', at, terminal: { terminalId: id, exited: false, ...(command ? { command } : {}) } });
  }
  const out = meta.terminal_output as { data?: unknown } | undefined;
  if (out && typeof out.data === 'string') step({ type: 'terminalOutput', at, terminalId: id, data: out.data });
  const exit = meta.terminal_exit as { exit_code?: unknown; signal?: unknown } | undefined;
  if (exit) {
    step({
      type: 'terminal',
      at,
      terminal: {
        terminalId: id,
        exited: true,
        exitCode: typeof exit.exit_code === 'number' ? exit.exit_code : null,
        signal: typeof exit.signal === 'string' ? exit.signal : null,
      },
    });
  }
  return { state, patches };
}

function upsertCompaction(
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

function blockText(b: ContentBlock): string {
  return b.type === 'text' ? b.text : '';
}
