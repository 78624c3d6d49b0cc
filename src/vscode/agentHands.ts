// Composition of the agent's hands in VS Code: fs + terminal features for each agent connection
// (with the VS Code ports), follow-along, review changes, "Open in terminal", and the
// checkpoints kept in the workspace's storage (the Review Changes entries survive a reload).
// Extension-lifetime; `features()` is called for every new connection (Controller.launch).
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { CheckpointStore } from '../checkpoints/checkpointStore';
import { CheckpointsFeature } from '../checkpoints/feature';
import type { AgentClient } from '../client/agentClient';
import type { ClientFeature } from '../client/feature';
import { ChangeTracker } from '../client/changeTracker';
import { FileSystemFeature } from '../client/fileSystem';
import type { PermissionPort } from '../client/permissionPort';
import { TerminalsFeature } from '../client/terminals';
import type { ToWebview } from '../shared/protocol';
import type { Patch } from '../shared/sessionModel';
import { FollowAgent } from './followAgent';
import { ModalPermission } from './modalPermission';
import { ReviewChanges } from './reviewChanges';
import { TerminalMirror } from './terminalMirror';
import { vscodeDocuments, vscodeEdits, vscodeFs, vscodeWorkspace } from './workspacePorts';

export interface AgentHandsDeps {
  /** The running agent connection, if any. */
  current(): AgentClient | undefined;
  /** Host messages of the controller (patches of the current session). */
  onDidChange(listener: (m: ToWebview) => void): { dispose(): void };
  /** The permission prompt; default: a modal dialog (until the inline prompt is wired). */
  permission?: PermissionPort;
  /** The extension's storage folder for this workspace (context.storageUri); no checkpoints without one. */
  storageDir?: string;
}

export class AgentHands implements vscode.Disposable {
  readonly tracker = new ChangeTracker();
  readonly follow: FollowAgent;
  readonly review: ReviewChanges;
  readonly mirror: TerminalMirror;
  private permission: PermissionPort;
  private readonly subs: vscode.Disposable[] = [];
  private store: CheckpointStore | undefined;
  private disposed = false;
  /** Resolves when the checkpoints are open (undefined: none, e.g. no folder or no storage). */
  readonly checkpointsReady: Promise<CheckpointStore | undefined>;

  constructor(private readonly deps: AgentHandsDeps) {
    this.permission = deps.permission ?? new ModalPermission(() => deps.current()?.agent.name ?? 'The agent');
    const patches = (l: (p: readonly Patch[]) => void) =>
      deps.onDidChange((m) => {
        if (m.type === 'patch') l(m.patches);
      });
    this.follow = new FollowAgent(patches);
    this.review = new ReviewChanges(this.tracker, vscodeEdits, () => deps.current()?.session?.sessionId);
    this.mirror = new TerminalMirror({
      get: (id) => deps.current()?.session?.state.terminals.get(id),
      all: () => {
        const s = deps.current()?.session?.snapshot();
        return s ? Object.values(s.terminals) : [];
      },
      onPatches: patches,
    });
    this.subs.push(this.follow, this.review, this.mirror, { dispose: () => this.tracker.dispose() });
    this.checkpointsReady = deps.storageDir ? this.openCheckpoints(deps.storageDir) : Promise.resolve(undefined);
  }

  /** The workspace's checkpoints, once open. */
  get checkpoints(): CheckpointStore | undefined {
    return this.store;
  }

  private async openCheckpoints(storageDir: string): Promise<CheckpointStore | undefined> {
    const roots = (vscode.workspace.workspaceFolders ?? [])
      .filter((f) => f.uri.scheme === 'file')
      .map((f) => f.uri.fsPath);
    if (!roots.length) return undefined;
    let store: CheckpointStore;
    try {
      store = await CheckpointStore.open({
        dir: nodePath.join(storageDir, 'checkpoints'),
        roots,
        tracker: this.tracker,
      });
    } catch (err) {
      void vscode.window.showWarningMessage(`Tandem: checkpoints are off: ${err instanceof Error ? err.message : err}`);
      return undefined;
    }
    if (this.disposed) {
      store.dispose();
      return undefined;
    }
    this.store = store;
    const shown = new Set<string>();
    store.onDidWarn((m) => {
      if (shown.has(m)) return;
      shown.add(m);
      void vscode.window.showWarningMessage(`Tandem: ${m}`);
    });
    // A save or a file event captures the file's new content at once (CheckpointStore.noteChanged);
    // a save also says the content is the user's buffer, not the agent's.
    const pending = new Set<string>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const note = (uri: vscode.Uri) => {
      if (uri.scheme !== 'file') return;
      pending.add(uri.fsPath);
      timer ??= setTimeout(() => {
        timer = undefined;
        const files = [...pending];
        pending.clear();
        void store.noteChanged(files);
      }, 100);
    };
    const watcher = vscode.workspace.createFileSystemWatcher('**/*', true, false, false);
    this.subs.push(
      watcher,
      watcher.onDidChange(note),
      watcher.onDidDelete(note),
      vscode.workspace.onDidSaveTextDocument((d) => {
        if (d.uri.scheme === 'file') void store.noteSaved(d.uri.fsPath);
      }),
      {
        dispose: () => {
          clearTimeout(timer);
          store.dispose();
        },
      },
    );
    void store.prepare();
    return store;
  }

  /** Replaces the permission prompt (the permissions feature wires its inline prompt here). */
  setPermissionPort(p: PermissionPort): void {
    this.permission = p;
  }

  /** The client features for one new agent connection. */
  features(): ClientFeature[] {
    return [
      new FileSystemFeature({
        documents: vscodeDocuments,
        fs: vscodeFs,
        edits: vscodeEdits,
        workspace: vscodeWorkspace,
        permission: { request: (...a) => this.permission.request(...a) },
        tracker: this.tracker,
        agentInfoName: () => this.deps.current()?.initializeResult?.agentInfo?.name,
      }),
      new TerminalsFeature(),
      new CheckpointsFeature(() => this.store),
    ];
  }

  dispose(): void {
    this.disposed = true;
    for (const s of this.subs) s.dispose();
  }
}
