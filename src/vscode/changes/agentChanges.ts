// The agent's changes in VS Code: what it changed per turn (the tracker), Review Changes, the
// session view's changes list, keep/undo per hunk in the editor, "Open diff", the checkpoints kept
// in the workspace's storage (the entries survive a reload), "Restore to here", and the notice the
// agent reads after a restore. Extension-lifetime; fs/read_text_file and fs/write_text_file and the
// checkpoints join each new connection as client features (registerChanges).
import type * as vscode from 'vscode';
import type { CheckpointStore } from '../../checkpoints/checkpointStore';
import { takeRestoreNotice } from '../../checkpoints/restore';
import { ChangeTracker } from '../../client/changes/changeTracker';
import { Disposable } from '../../common/disposable';
import type { SessionState } from '../../session/reducer';
import type { PromptNotices } from '../prompts/promptSender';
import { DiffDocuments } from './diffDocuments';
import { HunkReview } from './hunkReview';
import { RestoreCheckpoints } from './restoreCheckpoint';
import { ReviewChanges } from './reviewChanges';
import { ReviewedFiles } from './reviewedFiles';
import { SessionChanges } from './sessionChanges';
import { WorkspaceCheckpoints } from './workspaceCheckpoints';
import { vscodeEdits } from '../editor/workspacePorts';

export interface AgentChangesDeps {
  /** The session the view shows: Review Changes, the hunks and a restore act on it. */
  shownSession(): { readonly sessionId: string; readonly state: SessionState } | undefined;
  /** The extension's storage folder for this workspace (context.storageUri); no checkpoints without one. */
  storageDir?: string;
  /** The workspace state: the files marked reviewed are kept there. */
  state: vscode.Memento;
  /** Whether a turn of the session runs now. */
  working(sessionId: string): boolean;
}

export class AgentChanges extends Disposable implements PromptNotices {
  readonly tracker = this._register(new ChangeTracker());
  readonly review: ReviewChanges;
  /** The changes list of the session view (the same model as Review Changes). */
  readonly changes: SessionChanges;
  /** Keep / undo per hunk in the editor (the same entries, so the session view follows). */
  readonly hunks: HunkReview;
  readonly restore: RestoreCheckpoints;
  /** "Open diff": a tool call's diff content in VS Code's diff editor. */
  readonly diffs: DiffDocuments;
  /** The files the user marked as reviewed, per session. */
  readonly reviewed: ReviewedFiles;
  private readonly workspaceCheckpoints: WorkspaceCheckpoints;

  constructor(deps: AgentChangesDeps) {
    super();
    const sessionId = () => deps.shownSession()?.sessionId;
    this.review = this._register(new ReviewChanges(this.tracker, vscodeEdits, sessionId));
    this.reviewed = this._register(
      new ReviewedFiles({ tracker: this.tracker, state: deps.state, shownSession: sessionId, working: deps.working }),
    );
    this.changes = this._register(new SessionChanges(this.tracker, this.review, sessionId, this.reviewed));
    this.hunks = this._register(new HunkReview(this.tracker, sessionId, (c) => this.review.revert(c)));
    this.workspaceCheckpoints = this._register(new WorkspaceCheckpoints(deps.storageDir, this.tracker));
    this.restore = this._register(new RestoreCheckpoints(() => this.checkpoints, vscodeEdits, sessionId));
    this.diffs = this._register(new DiffDocuments(() => deps.shownSession()?.state));
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
  take(sessionId: string): string | undefined {
    const store = this.checkpoints;
    return store && takeRestoreNotice(store, sessionId);
  }

  /** Deletes a session's checkpoints (when it leaves the history). */
  async removeSession(sessionId: string): Promise<void> {
    await (await this.checkpointsReady)?.removeSession(sessionId);
  }
}
