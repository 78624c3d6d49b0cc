// Subagents as child sessions (the draft subagents RFD, which codex-acp 2.6 and claude-agent-acp
// 0.101 speak once the client advertises `clientCapabilities.subagents`): the agent announces a
// child with `subagent_update` on its parent session, then sends the child's own updates and
// requests under the child's session id. Tandem shows a child inside its root session, as an
// Agent row whose sub-tree holds the child's calls and messages (the same tree as claude's
// `parentToolUseId`), so every message naming a child is put in its root session's terms before
// it is validated: the session id becomes the root's, the child's call ids are prefixed with its
// session id (ids are unique per session only), and what only the child's own view would show
// (its usage, modes, commands, plan) is dropped rather than mixed into the root session's.
import type { Logger } from '../../common/logger';
import { childCall, childChunk, promptChunks, rowUpdate, type Child } from './subagentTerms';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const CHUNKS: ReadonlySet<unknown> = new Set(['agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk']);

export class SubagentSessions {
  private readonly children = new Map<string, Child>();
  private readonly dropped = new Set<string>();

  constructor(private readonly logger: Logger) {}

  /** The announced child with this session id. */
  child(sessionId: string): Child | undefined {
    return this.children.get(sessionId);
  }

  /** An incoming message in its root session's terms: none (dropped), itself, or several. */
  translate(message: unknown): readonly unknown[] {
    try {
      return this.rewrite(message);
    } catch (err) {
      this.logger.error(`Could not read a subagent's message: ${err instanceof Error ? err.message : err}`);
      return [message];
    }
  }

  /** Forgets the children of a closed session (a reload announces them again). */
  forget(rootSessionId: string): void {
    for (const [id, c] of this.children) if (c.root === rootSessionId) this.children.delete(id);
  }

  private rewrite(message: unknown): readonly unknown[] {
    if (!isObj(message) || typeof message.method !== 'string' || !isObj(message.params)) return [message];
    const params = message.params;
    const sid = params.sessionId;
    if (typeof sid !== 'string') return [message];
    const as = (sessionId: string, update: Obj) => ({ ...message, params: { ...params, sessionId, update } });
    if (message.method === 'session/update' && isObj(params.update)) {
      const u = params.update;
      if (u.sessionUpdate === 'subagent_update') return this.announce(sid, u, as);
      if (u.sessionUpdate === 'session_message') return this.sessionMessage(u, as);
      const child = this.children.get(sid);
      if (!child) return [message];
      if (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update')
        return [as(child.root, childCall(child, u))];
      if (CHUNKS.has(u.sessionUpdate)) return [as(child.root, childChunk(child, u))];
      this.drop(String(u.sessionUpdate));
      return [];
    }
    const child = this.children.get(sid);
    if (!child) return [message];
    // A child's request (a permission, a file, a terminal): the root session's, its call the row's.
    const toolCall = message.method === 'session/request_permission' && isObj(params.toolCall);
    const p = {
      ...params,
      sessionId: child.root,
      ...(toolCall ? { toolCall: childCall(child, params.toolCall as Obj) } : {}),
    };
    return [{ ...message, params: p }];
  }

  /** A child announced or changed on `parentId`: the row that shows it, made or updated. */
  private announce(parentId: string, u: Obj, as: (sessionId: string, update: Obj) => unknown): readonly unknown[] {
    const id = u.sessionId;
    if (typeof id !== 'string' || !id || id === parentId) {
      this.logger.warn(`Ignoring a subagent_update without a child session id on session ${parentId}`);
      return [];
    }
    let child = this.children.get(id);
    if (!child) {
      const parent = this.children.get(parentId);
      child = {
        id,
        parent: parentId,
        root: parent?.root ?? parentId,
        row: `subagent:${id}`,
        parentRow: parent?.row,
        terminals: new Set(),
        prompts: new Set(),
        cancel: false,
      };
      this.children.set(id, child);
    }
    // Omitted fields keep their value, null clears it (the RFD's patch rules).
    if ('title' in u) child.title = typeof u.title === 'string' && u.title ? u.title : undefined;
    if ('description' in u)
      child.description = typeof u.description === 'string' && u.description ? u.description : undefined;
    if ('cwd' in u) child.cwd = typeof u.cwd === 'string' && u.cwd ? u.cwd : undefined;
    if ('capabilities' in u) child.cancel = isObj(u.capabilities) && isObj(u.capabilities.cancel);
    if ('state' in u) child.state = stateOf(u.state);
    return [as(child.root, rowUpdate(child))];
  }

  /**
   * A message between sessions: a prompt to a child shows under the child's row, once (the
   * parent's outgoing view and the child's incoming one share its id; a later message to a
   * running child may come in the child's view only). A child's reply to its parent is dropped:
   * it is the child's own last message, under its row already.
   */
  private sessionMessage(u: Obj, as: (sessionId: string, update: Obj) => unknown): readonly unknown[] {
    const to = typeof u.recipientSessionId === 'string' ? this.children.get(u.recipientSessionId) : undefined;
    const from = typeof u.senderSessionId === 'string' ? this.children.get(u.senderSessionId) : undefined;
    if (!to || from?.parent === to.id) return [];
    if (typeof u.messageId === 'string') {
      if (to.prompts.has(u.messageId)) return [];
      to.prompts.add(u.messageId);
    }
    return promptChunks(to, u).map((chunk) => as(to.root, chunk));
  }

  private drop(kind: string): void {
    if (this.dropped.has(kind)) return;
    this.dropped.add(kind);
    this.logger.debug(`A subagent's ${kind} is not shown (its own session's state, not the parent's)`);
  }
}

/** A state snapshot as far as the row uses it (the rest, such as an error's data, is not kept). */
function stateOf(v: unknown): Child['state'] {
  if (!isObj(v) || typeof v.state !== 'string') return undefined;
  return { state: v.state, ...(typeof v.stopReason === 'string' ? { stopReason: v.stopReason } : {}) };
}
