// Keeps the session view in step with the controller: the shown session's patches, the agent's
// state and the open sessions as they change, a new snapshot when the session is replaced. The
// agent starts when the user first opens the view, not at activation.
import { Disposable } from '../common/disposable';
import type { Event } from '../common/event';
import type { QueueView, ToWebview } from '../shared/protocol';
import type { Patch } from '../shared/sessionModel';
import type { TurnSource } from '../shared/turnOutline';
import type { Controller } from './controller';

export interface FedView {
  pushPatches(sessionId: string, patches: Patch[]): void;
  postMessage(msg: ToWebview): void;
  refresh(): void;
  readonly onDidResolve: Event<void>;
}

export class ViewFeed extends Disposable {
  constructor(ctl: Controller, view: FedView) {
    super();
    this._register(ctl.onDidChangeSession((c) => view.pushPatches(c.sessionId, c.patches)));
    this._register(ctl.onDidChangeAgent((agent) => view.postMessage({ type: 'agent', agent })));
    this._register(
      ctl.onDidChangeSessions(() =>
        view.postMessage({ type: 'sessions', sessions: ctl.sessionTabs(), activeId: ctl.current?.session?.sessionId }),
      ),
    );
    this._register(ctl.onDidReplace(() => view.refresh()));
    this._register(view.onDidResolve(() => void ctl.ensureStarted()));
  }
}

/** What the view reads from the controller: the snapshot (with the shown session's queue), and the shown session's turns (for loading outlined ones). */
export function viewSource(ctl: Controller, queue: { queue(): QueueView }) {
  return {
    snapshot: () => ({ ...ctl.snapshot(), queue: queue.queue() }),
    turns: (sessionId: string): TurnSource | undefined => {
      const s = ctl.current?.session;
      return s?.sessionId === sessionId ? s : undefined;
    },
  };
}
