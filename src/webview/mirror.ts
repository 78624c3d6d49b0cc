// The webview's copy of host state. Patches are queued as they arrive and applied once per
// animation frame, so a burst of thousands of chunks costs one render.
import { applyPatches, type Patch, type SessionSnapshot } from '../shared/sessionModel';
import type { AgentView, HostMessage } from '../shared/protocol';

export interface ViewModel {
  agent: AgentView;
  session: SessionSnapshot | null;
  /** Bumped on every applied batch; components memoize on object identity below this. */
  version: number;
}

type Listener = (vm: ViewModel) => void;

export class Mirror {
  private vm: ViewModel = { agent: { state: 'none' }, session: null, version: 0 };
  private pending: Patch[] = [];
  private frame = 0;
  private listeners: Listener[] = [];

  get current(): ViewModel { return this.vm; }

  subscribe(l: Listener): () => void {
    this.listeners.push(l);
    return () => { this.listeners = this.listeners.filter((x) => x !== l); };
  }

  receive(msg: HostMessage): void {
    switch (msg.type) {
      case 'snapshot':
        this.pending = [];
        this.vm = { agent: msg.agent, session: msg.session, version: this.vm.version + 1 };
        this.emit();
        break;
      case 'agent':
        this.vm = { ...this.vm, agent: msg.agent, version: this.vm.version + 1 };
        this.emit();
        break;
      case 'patch':
        if (!this.vm.session || this.vm.session.meta.sessionId !== msg.sessionId) return;
        for (const p of msg.patches) this.pending.push(p);
        if (!this.frame) this.frame = requestAnimationFrame(() => this.flush());
        break;
      case 'error':
        break;
    }
  }

  private flush(): void {
    this.frame = 0;
    const s = this.vm.session;
    if (!s || !this.pending.length) return;
    const patches = this.pending;
    this.pending = [];
    const changed = applyPatches(s, patches);
    for (const id of changed.tools) {
      const t = s.toolCalls[id]?.turn;
      if (t !== undefined) changed.turns.add(t);
    }
    // New identities for what changed, so memoized components below re-render only those.
    for (const i of changed.turns) if (s.turns[i]) s.turns[i] = { ...s.turns[i] };
    const session: SessionSnapshot = { ...s, turns: changed.turns.size ? s.turns.slice() : s.turns };
    if (changed.meta) session.meta = { ...s.meta };
    if (changed.terminals.size) session.terminals = { ...s.terminals };
    if (changed.permissions) session.permissions = s.permissions.slice();
    this.vm = { ...this.vm, session, version: this.vm.version + 1 };
    this.emit();
  }

  private emit(): void { for (const l of this.listeners) l(this.vm); }
}
