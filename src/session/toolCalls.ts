// Tool calls in the session state: a tool_call or tool_call_update creates or changes a call (in
// the turn of its parent call for a subagent's), and the terminals calls show: client terminals,
// and agent-side ones reported in a call's `_meta` (terminal_info / terminal_output / terminal_exit).
import type { ToolCall, ToolCallUpdate } from '@agentclientprotocol/sdk';
import {
  appendOutput,
  type Patch,
  type PermissionRequestView,
  type TerminalView,
  type ToolCallView,
} from '../shared/sessionModel';
import { stoppedChild } from '../shared/subagentRow';
import type { SessionAction } from './actions';
import type { ReduceResult, SessionState } from './reducer';
import { hasTerminalMeta, parentToolUseIdOf, terminalIdOf, withoutTerminalMeta } from './toolCallMeta';
import { currentTurn, pushItem } from './turns';

/** A terminal's header (command, exit, …) set or changed; a truncated terminal stays truncated. */
export function setTerminal(
  state: SessionState,
  change: Extract<SessionAction, { type: 'terminal' }>['terminal'],
): ReduceResult {
  const prev = state.terminals.get(change.terminalId);
  const terminal: TerminalView = { output: '', truncated: false, ...prev, ...change };
  if (prev?.truncated) terminal.truncated = true;
  const { output: _o, outputEnd: _e, ...header } = terminal;
  return {
    state: { ...state, terminals: state.terminals.set(terminal.terminalId, terminal) },
    patches: [{ op: 'terminal', terminal: header }],
  };
}

/** Output of a known terminal, kept within the view's bound. */
export function appendTerminalOutput(state: SessionState, terminalId: string, data: string): ReduceResult {
  const prev = state.terminals.get(terminalId);
  if (!prev || !data) return { state, patches: [] };
  const terminal = appendOutput(prev, data);
  return {
    state: { ...state, terminals: state.terminals.set(prev.terminalId, terminal) },
    patches: [{ op: 'terminalOutput', terminalId: prev.terminalId, data }],
  };
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

export function upsertToolCall(
  state: SessionState,
  u: ToolCall | ToolCallUpdate,
  at: number,
  full: boolean,
): ReduceResult {
  const patches: Patch[] = [];
  let meta = u._meta ?? undefined;
  let terminal: ReduceResult | undefined;
  if (meta && hasTerminalMeta(meta)) {
    terminal = agentTerminal(state, meta, u);
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
  // claude-agent-acp announces the terminal while the input still streams (rawInput {}); the
  // command arrives in a later update without terminal meta: name the terminal after it then.
  const term = call.agentTerminalId ? state.terminals.get(call.agentTerminalId) : undefined;
  const command = (call.rawInput as { command?: unknown } | undefined)?.command;
  if (term && !term.command && typeof command === 'string' && command) {
    const r = setTerminal(state, { terminalId: term.terminalId, exited: term.exited, command });
    state = r.state;
    patches.push(...r.patches);
  }
  if (prev?.interrupted && u.status != null) delete call.interrupted;
  // A subagent's child session whose work was stopped: its row ended, but not as a success.
  if (stoppedChild(call)) call.interrupted = true;
  if ((call.status === 'completed' || call.status === 'failed') && call.endedAt === undefined) call.endedAt = at;
  if (call.status !== 'completed' && call.status !== 'failed' && !call.interrupted) delete call.endedAt;
  state = { ...state, toolCalls: state.toolCalls.set(call.toolCallId, call) };
  patches.push({ op: 'tool', call });
  return { state, patches };
}

/**
 * What an agent's permission request says about a call the session shows already, merged into its
 * row as an update, as Zed does: Qwen Code names the file and the command only in the request
 * (its rows would stay "Edit" and "Shell"). The agent's later updates win as usual. Not merged:
 * the request's status (the row's is the agent's report of the call, a prompt says it waits) and
 * its `_meta` (terminal meta there would start a terminal); Tandem's own questions (a read outside
 * the workspace) describe the question, not the call. A call with no row yet gets one only once
 * the request is answered (permissionResolved).
 */
export function mergeRequestedCall(state: SessionState, request: PermissionRequestView, at: number): ReduceResult {
  if (request.origin === 'client' || !state.toolCalls.has(request.toolCallId)) return { state, patches: [] };
  const { status: _s, _meta: _m, ...fields } = request.toolCall;
  return upsertToolCall(state, { ...fields, toolCallId: request.toolCallId }, at, false);
}

/** Turns `_meta.terminal_info / terminal_output / terminal_exit` into the same terminal state a client terminal has. */
function agentTerminal(state: SessionState, meta: Record<string, unknown>, u: ToolCall | ToolCallUpdate): ReduceResult {
  const id = terminalIdOf(meta);
  if (!id) return { state, patches: [] };
  const patches: Patch[] = [];
  const step = (r: ReduceResult) => {
    state = r.state;
    patches.push(...r.patches);
  };
  if (!state.terminals.get(id)) {
    const input = u.rawInput as { command?: unknown } | undefined;
    const command = typeof input?.command === 'string' ? input.command : undefined;
    step(setTerminal(state, { terminalId: id, exited: false, ...(command ? { command } : {}) }));
  }
  // Zed's terminal_output and JetBrains' terminal_output_delta: both chunks to append.
  for (const key of ['terminal_output', 'terminal_output_delta']) {
    const out = meta[key] as { data?: unknown } | undefined;
    if (out && typeof out.data === 'string') step(appendTerminalOutput(state, id, out.data));
  }
  const exit = meta.terminal_exit as { exit_code?: unknown; signal?: unknown } | undefined;
  if (exit) {
    step(
      setTerminal(state, {
        terminalId: id,
        exited: true,
        exitCode: typeof exit.exit_code === 'number' ? exit.exit_code : null,
        signal: typeof exit.signal === 'string' ? exit.signal : null,
      }),
    );
  }
  return { state, patches };
}
