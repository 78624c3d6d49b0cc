// A child session's updates in its root session's terms (subagentSessions.ts says why): the row
// that stands for the child, and the child's calls and messages placed under that row through
// `_meta.claudeCode.parentToolUseId`, the link the session store already nests by.
import { canStop, type SubagentMeta } from '../../shared/subagentRow';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A child session as its announcements left it. */
export interface Child {
  readonly id: string;
  /** The session that announced it. */
  readonly parent: string;
  /** The session it shows in: its parent's root (the parent itself for a direct child). */
  readonly root: string;
  /** The id of the row that stands for it. */
  readonly row: string;
  /** The row of its parent, when the parent is a child too. */
  readonly parentRow?: string;
  /** The agent-side terminals of its calls (their ids are prefixed like its call ids). */
  readonly terminals: Set<string>;
  /** The ids of the prompts to it shown so far (a prompt comes in two views). */
  readonly prompts: Set<string>;
  title?: string;
  description?: string;
  cwd?: string;
  state?: { state: string; stopReason?: string };
  /** Whether the agent lets the client stop the child's work (session/cancel on its id). */
  cancel: boolean;
}

const TERMINAL_META = ['terminal_info', 'terminal_output', 'terminal_output_delta', 'terminal_exit'];

/** `_meta` that places an update under `row`. */
function under(meta: unknown, row: string): Obj {
  const m = isObj(meta) ? meta : {};
  return { ...m, claudeCode: { ...(isObj(m.claudeCode) ? m.claudeCode : {}), parentToolUseId: row } };
}

const prefixed = (child: Child, id: string) => `${child.id}/${id}`;

/** A child's tool call (or update, or a permission request's call) under its row. */
export function childCall(child: Child, call: Obj): Obj {
  const meta = under(call._meta, child.row);
  for (const k of TERMINAL_META) {
    const v = meta[k];
    if (isObj(v) && typeof v.terminal_id === 'string') {
      child.terminals.add(v.terminal_id);
      meta[k] = { ...v, terminal_id: prefixed(child, v.terminal_id) };
    }
  }
  const out: Obj = { ...call, _meta: meta };
  if (typeof call.toolCallId === 'string') out.toolCallId = prefixed(child, call.toolCallId);
  // A terminal of the agent's own is named like its meta; a client terminal (terminal/create) keeps its id.
  if (Array.isArray(call.content))
    out.content = call.content.map((c: unknown) =>
      isObj(c) && c.type === 'terminal' && typeof c.terminalId === 'string' && child.terminals.has(c.terminalId)
        ? { ...c, terminalId: prefixed(child, c.terminalId) }
        : c,
    );
  return out;
}

/** A child's message or thought chunk, under its row. */
export function childChunk(child: Child, chunk: Obj): Obj {
  return { ...chunk, _meta: under(chunk._meta, child.row) };
}

/** A parent's prompt to `child` (a session_message): its text blocks as user chunks under the row. */
export function promptChunks(child: Child, message: Obj): Obj[] {
  const content = Array.isArray(message.content) ? message.content : [];
  const id = typeof message.messageId === 'string' ? { messageId: prefixed(child, message.messageId) } : {};
  return content
    .filter((b: unknown) => isObj(b) && typeof b.type === 'string')
    .map((b) => ({ sessionUpdate: 'user_message_chunk', content: b, ...id, _meta: under(undefined, child.row) }));
}

/**
 * The row of a child as a tool_call (the store takes one on a known id as an update): an Agent
 * call titled with what the parent called the child, running until the child is idle.
 */
export function rowUpdate(child: Child): Obj {
  const label = child.title ?? child.description ?? 'Subagent';
  const role = child.title ? child.description : undefined;
  const rawInput: Obj = {
    description: label,
    ...(role ? { subagent_type: role } : {}),
    ...(child.cwd ? { cwd: child.cwd } : {}),
  };
  const subagent: SubagentMeta = {
    sessionId: child.id,
    cancel: child.cancel,
    ...(child.state ? { state: child.state } : {}),
    stoppable: canStop(child.cancel, child.state?.state),
  };
  return {
    sessionUpdate: 'tool_call',
    toolCallId: child.row,
    title: label,
    name: 'Agent',
    kind: 'think', // as claude-agent-acp's Agent calls
    ...(statusOf(child.state) ? { status: statusOf(child.state) } : {}),
    rawInput,
    _meta: { ...(child.parentRow ? under(undefined, child.parentRow) : {}), tandem: { subagent } },
  };
}

/** running: in progress; idle: done, failed when it stopped on an error or a refusal; else as it was. */
function statusOf(state: Child['state']): string | undefined {
  switch (state?.state) {
    case 'running':
    case 'requires_action':
      return 'in_progress';
    case 'idle':
      return state.stopReason === 'error' || state.stopReason === 'refusal' ? 'failed' : 'completed';
    default:
      return undefined;
  }
}
