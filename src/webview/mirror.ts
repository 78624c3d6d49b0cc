// The webview's copy of host state. Patches are queued as they arrive and applied once per
// animation frame, so a burst of thousands of chunks costs one render.
import { applyPatches } from '../shared/patches';
import type { Patch, SessionSnapshot } from '../shared/sessionModel';
import type { AgentView, QueueView, SessionTab, ToWebview, WebviewReply } from '../shared/protocol';

export interface ViewModel {
  agent: AgentView;
  session: SessionSnapshot | null;
  /** Bumped on every applied batch; components memoize on object identity below this. */
  version: number;
  /** Bumped when any tool call changed (filters by status/kind depend on it). */
  toolsVersion: number;
  workspaceRoots: string[];
  /** Open sessions, for the switcher. */
  sessions: SessionTab[];
  /** The shown session's queued prompts. */
  queue?: QueueView;
}

/** The messages that carry state (dispatch.ts routes the others: replies and "changes" to the Host, "editing" to PromptEdit). */
export type StateMessage = Exclude<ToWebview, WebviewReply | { type: 'changes' } | { type: 'editing' }>;

type Listener = (vm: ViewModel) => void;
type Announcer = (text: string) => void;

export class Mirror {
  private vm: ViewModel = {
    agent: { state: 'none' },
    session: null,
    version: 0,
    toolsVersion: 0,
    workspaceRoots: [],
    sessions: [],
  };
  private pending: Patch[] = [];
  private frame = 0;
  private listeners: Listener[] = [];
  private announcers: Announcer[] = [];
  /** Scheduler for flushes; tests replace it. */
  schedule: (cb: () => void) => number = (cb) => requestAnimationFrame(cb);

  get current(): ViewModel {
    return this.vm;
  }

  subscribe(l: Listener): () => void {
    this.listeners.push(l);
    return () => {
      this.listeners = this.listeners.filter((x) => x !== l);
    };
  }

  /** Short texts for the polite live region (tool calls finishing, turns ending). */
  onAnnounce(a: Announcer): () => void {
    this.announcers.push(a);
    return () => {
      this.announcers = this.announcers.filter((x) => x !== a);
    };
  }

  /** A state message from the host, handed on by the page's dispatcher (dispatch.ts). */
  receive(msg: StateMessage): void {
    switch (msg.type) {
      case 'snapshot':
        this.pending = [];
        this.vm = {
          ...this.vm,
          agent: msg.agent,
          session: msg.session,
          version: this.vm.version + 1,
          toolsVersion: this.vm.toolsVersion + 1,
          workspaceRoots: msg.workspaceRoots ?? this.vm.workspaceRoots,
          sessions: msg.sessions ?? [],
          queue: msg.queue,
        };
        this.emit();
        break;
      case 'sessions':
        this.vm = { ...this.vm, sessions: msg.sessions, version: this.vm.version + 1 };
        this.emit();
        break;
      case 'agent':
      case 'queue': {
        // Each carries one field of the view model, named as its type.
        const { type: _, ...field } = msg;
        this.vm = { ...this.vm, ...field, version: this.vm.version + 1 };
        this.emit();
        break;
      }
      case 'patch':
        if (!this.vm.session || this.vm.session.meta.sessionId !== msg.sessionId) return;
        for (const p of msg.patches) this.pending.push(p);
        if (!this.frame) this.frame = this.schedule(() => this.flush());
        break;
      default: {
        // A state message without a case here does not compile.
        const _unhandled: never = msg;
      }
    }
  }

  /** Applies what is queued now (normally on the next animation frame). */
  flush(): void {
    this.frame = 0;
    const s = this.vm.session;
    if (!s || !this.pending.length) return;
    const patches = this.pending;
    this.pending = [];
    let done = 0,
      failed = 0,
      lastTitle = '';
    let ended: string | undefined;
    for (const p of patches) {
      if (p.op === 'tool') {
        const was = s.toolCalls[p.call.toolCallId]?.status;
        if (was !== p.call.status && (p.call.status === 'completed' || p.call.status === 'failed')) {
          if (p.call.status === 'completed') done++;
          else failed++;
          lastTitle = p.call.title;
        }
      } else if (
        p.op === 'turn' &&
        (p.turn.stopReason || p.turn.error) &&
        !s.turns[p.turn.index]?.stopReason &&
        !s.turns[p.turn.index]?.error
      ) {
        ended = p.turn.error
          ? 'The turn failed.'
          : p.turn.stopReason === 'end_turn'
            ? 'The agent finished.'
            : `The turn stopped: ${p.turn.stopReason}.`;
      }
    }
    const changed = applyPatches(s, patches);
    // New identities for what changed, so memoized components below re-render only those.
    for (const i of changed.turns) if (s.turns[i]) s.turns[i] = { ...s.turns[i] };
    const session: SessionSnapshot = { ...s, turns: changed.turns.size ? s.turns.slice() : s.turns };
    if (changed.meta) session.meta = { ...s.meta };
    if (changed.terminals.size) session.terminals = { ...s.terminals };
    if (changed.permissions) session.permissions = s.permissions.slice();
    if (changed.elicitations) session.elicitations = s.elicitations.slice();
    if (changed.notices) session.notices = s.notices.slice();
    this.vm = {
      ...this.vm,
      session,
      version: this.vm.version + 1,
      toolsVersion: this.vm.toolsVersion + (changed.tools.size ? 1 : 0),
    };
    this.emit();
    const parts: string[] = [];
    if (done + failed === 1) parts.push(`${lastTitle || 'Tool call'} ${failed ? 'failed' : 'completed'}.`);
    else if (done + failed > 1) parts.push(`${done} tool calls completed${failed ? `, ${failed} failed` : ''}.`);
    if (ended) parts.push(ended);
    if (parts.length) for (const a of this.announcers) a(parts.join(' '));
  }

  private emit(): void {
    for (const l of this.listeners) l(this.vm);
  }
}
