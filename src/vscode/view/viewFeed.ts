// The one feed of the session view: what it is built from (the snapshot, with the shown session's
// queue; the shown session's turns for loading outlined ones; the answers to its requests) and
// everything that changes it — the shown session's patches, the agent's state, the open
// sessions, the queue, the agent's changes, a new snapshot when the session is replaced. The
// agent starts when the user first opens the view, not at activation.
import { Disposable } from '../../common/disposable';
import type { Event } from '../../common/event';
import type { QueueView, ToWebview } from '../../shared/protocol';
import type { Patch } from '../../shared/sessionModel';
import type { TurnSource } from '../../shared/turnOutline';
import type { Controller } from '../agent/controller';
import type { ServedRequests, ViewSource } from './sessionView';

export interface FedView {
  serve(source: ViewSource, requests: ServedRequests): void;
  pushPatches(sessionId: string, patches: Patch[]): void;
  postMessage(msg: ToWebview): void;
  refresh(): void;
  readonly onDidResolve: Event<void>;
}

export interface ViewFeedSources {
  ctl: Pick<
    Controller,
    | 'snapshot'
    | 'sessionTabs'
    | 'current'
    | 'ensureStarted'
    | 'onDidChangeSession'
    | 'onDidChangeAgent'
    | 'onDidChangeSessions'
    | 'onDidReplace'
  >;
  /** The shown session's queued prompts. */
  queue: { queue(): QueueView; readonly onDidChange: Event<void> };
  /** The agent's changes per turn (the view's changes list). */
  changes: { readonly onDidChange: Event<void> };
  requests: ServedRequests;
}

export class ViewFeed extends Disposable {
  constructor(view: FedView, { ctl, queue, changes, requests }: ViewFeedSources) {
    super();
    view.serve(
      {
        snapshot: () => ({ ...ctl.snapshot(), queue: queue.queue() }),
        turns: (sessionId: string): TurnSource | undefined => {
          const s = ctl.current?.session;
          return s?.sessionId === sessionId ? s : undefined;
        },
      },
      requests,
    );
    this._register(ctl.onDidChangeSession((c) => view.pushPatches(c.sessionId, c.patches)));
    this._register(ctl.onDidChangeAgent((agent) => view.postMessage({ type: 'agent', agent })));
    this._register(
      ctl.onDidChangeSessions(() =>
        view.postMessage({ type: 'sessions', sessions: ctl.sessionTabs(), activeId: ctl.current?.session?.sessionId }),
      ),
    );
    this._register(queue.onDidChange(() => view.postMessage({ type: 'queue', queue: queue.queue() })));
    this._register(changes.onDidChange(() => view.postMessage({ type: 'changes' })));
    this._register(ctl.onDidReplace(() => view.refresh()));
    this._register(view.onDidResolve(() => void ctl.ensureStarted()));
  }
}
