// The agent's hands in VS Code: fs + terminal features for each agent connection (with the VS
// Code ports), follow-along, review changes, "Open in terminal", and the checkpoints kept in the
// workspace's storage (the Review Changes entries survive a reload), and the terminals agent
// commands run in when tandem.terminal.visible is on. Extension-lifetime;
// `features()` is called for every new connection.
import type { CheckpointStore } from '../checkpoints/checkpointStore';
import { takeRestoreNotice } from '../checkpoints/restore';
import { CheckpointsFeature } from '../checkpoints/feature';
import type { AgentClient } from '../client/agentClient';
import { ChangeTracker } from '../client/changeTracker';
import type { ClientFeature } from '../client/feature';
import { FileSystemFeature } from '../client/fileSystem';
import type { PermissionPort } from '../client/permissionPort';
import { TerminalsFeature } from '../client/terminals';
import { Disposable } from '../common/disposable';
import type { Event } from '../common/event';
import type { Logger } from '../common/logger';
import type { SessionChange } from '../session/store';
import { FollowAgent } from './followAgent';
import { HunkReview } from './hunkReview';
import { RestoreCheckpoints } from './restoreCheckpoint';
import { SessionChanges } from './sessionChanges';
import { ReviewChanges } from './reviewChanges';
import { TerminalMirror } from './terminalMirror';
import { VisibleTerminals } from './visibleTerminals';
import { WorkspaceCheckpoints } from './workspaceCheckpoints';
import { vscodeDocuments, vscodeEdits, vscodeFs, vscodeWorkspace } from './workspacePorts';

export interface AgentHandsDeps {
  /** The running agent connection, and the changes of the session it shows. */
  controller: { readonly current: AgentClient | undefined; readonly onDidChangeSession: Event<SessionChange> };
  /** Asked before a write outside the workspace. */
  permission: PermissionPort;
  /** The extension's storage folder for this workspace (context.storageUri); no checkpoints without one. */
  storageDir?: string;
  logger: Logger;
}

export class AgentHands extends Disposable {
  readonly tracker = this._register(new ChangeTracker());
  readonly follow: FollowAgent;
  readonly review: ReviewChanges;
  readonly mirror: TerminalMirror;
  /** Runs agent commands in VS Code terminals (setting tandem.terminal.visible), else as processes. */
  readonly terminals: VisibleTerminals;
  readonly restore: RestoreCheckpoints;
  /** The changes list of the session view (the same model as Review Changes). */
  readonly changes: SessionChanges;
  /** Keep / undo per hunk in the editor (the same entries, so the session view follows). */
  readonly hunks: HunkReview;
  private readonly workspaceCheckpoints: WorkspaceCheckpoints;

  constructor(private readonly deps: AgentHandsDeps) {
    super();
    const ctl = deps.controller;
    this.follow = this._register(new FollowAgent(ctl.onDidChangeSession));
    this.review = this._register(new ReviewChanges(this.tracker, vscodeEdits, () => ctl.current?.session?.sessionId));
    const sessionId = () => ctl.current?.session?.sessionId;
    this.changes = this._register(new SessionChanges(this.tracker, this.review, sessionId));
    this.hunks = this._register(new HunkReview(this.tracker, sessionId, (c) => this.review.revert(c)));
    this.mirror = this._register(new TerminalMirror(() => ctl.current?.session));
    this.terminals = this._register(new VisibleTerminals(deps.logger));
    this.workspaceCheckpoints = this._register(new WorkspaceCheckpoints(deps.storageDir, this.tracker));
    this.restore = this._register(new RestoreCheckpoints(() => this.checkpoints, vscodeEdits, sessionId));
  }

  /** Resolves when the checkpoints are open (undefined: none, e.g. no folder or no storage). */
  get checkpointsReady(): Promise<CheckpointStore | undefined> {
    return this.workspaceCheckpoints.ready;
  }

  /** The workspace's checkpoints, once open. */
  get checkpoints(): CheckpointStore | undefined {
    return this.workspaceCheckpoints.store;
  }

  /** The line the agent gets with the session's next prompt: which files a restore changed (once). */
  takeRestoreNotice(sessionId: string): string | undefined {
    const store = this.checkpoints;
    return store && takeRestoreNotice(store, sessionId);
  }

  /** The client features for one new agent connection. */
  features(): ClientFeature[] {
    return [
      new FileSystemFeature({
        documents: vscodeDocuments,
        fs: vscodeFs,
        edits: vscodeEdits,
        workspace: vscodeWorkspace,
        permission: this.deps.permission,
        tracker: this.tracker,
        agentInfoName: () => this.deps.controller.current?.initializeResult?.agentInfo?.name,
      }),
      new TerminalsFeature({ processes: this.terminals }),
      new CheckpointsFeature(() => this.checkpoints),
    ];
  }
}
