// The session reducer: a pure function from SessionAction to SessionState, plus the patches
// that describe the change for the webview. No vscode, no DOM, no clock, no I/O. Its helpers:
// turns.ts (turns, items, chunks, meta) and toolCalls.ts (tool calls and their terminals).
import type { ContentBlock, SessionUpdate } from '@agentclientprotocol/sdk';
import { PMap, PVec } from '../common/persistent';
import {
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
import { appendTerminalOutput, mergeRequestedCall, setTerminal, upsertToolCall } from './toolCalls';
import { appendChunk, endTurn, newTurn, pushItem, setMeta, upsertCompaction } from './turns';
import { rewindTurns, unrewindTurns } from './rewind';
import { subagentChunk } from './subagentMessages';

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
    case 'promptEnded': {
      const usage = action.usage ? { usage: action.usage } : {};
      return endTurn(state, { endedAt: action.at, stopReason: action.stopReason, ...usage }, { status: 'idle' });
    }
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
    case 'titleListed':
      // The agent's title by either way it tells it: the latest wins (Tandem has no title of its own to keep).
      return action.title === state.meta.title ? { state, patches: [] } : setMeta(state, { title: action.title });
    case 'rewound':
      return rewindTurns(state, action.fromTurn);
    case 'unrewound':
      return unrewindTurns(state, action.turns);
    case 'terminal':
      return setTerminal(state, action.terminal);
    case 'terminalOutput':
      return appendTerminalOutput(state, action.terminalId, action.data);
    case 'permissionRequested': {
      const permissions = [...state.permissions, action.request];
      const r = mergeRequestedCall({ ...state, permissions }, action.request, action.at);
      return { state: r.state, patches: [...r.patches, { op: 'permissions', permissions }] };
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
    case 'agentAllowed': {
      const call = state.toolCalls.get(action.toolCallId);
      if (!call || call.permission) return { state, patches: [] };
      const permission: PermissionDecisionView = {
        outcome: 'selected',
        by: 'agent',
        rule: action.source,
        at: action.at,
      };
      const updated = { ...call, permission };
      state = { ...state, toolCalls: state.toolCalls.set(call.toolCallId, updated) };
      return { state, patches: [{ op: 'tool', call: updated }] };
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
  // A subagent's messages go under its Agent call (subagentMessages.ts), not into the conversation.
  const sub = subagentChunk(state, u);
  if (sub) return sub;
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
    case 'usage_update': {
      // The cost is the session's total so far, and optional: an update without it (claude-agent-acp
      // sends several mid-turn) keeps the last one; null clears it.
      const cost = u.cost === undefined ? state.meta.usage?.cost : u.cost;
      return setMeta(state, { usage: { used: u.used, size: u.size, ...(cost ? { cost } : {}) } });
    }
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

function blockText(b: ContentBlock): string {
  return b.type === 'text' ? b.text : '';
}
