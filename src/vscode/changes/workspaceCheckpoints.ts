// The checkpoints kept in the workspace's storage (context.storageUri), fed by VS Code: a save or a
// file event captures the file's new content at once, so a change made by a command the agent ran is
// recorded too. Opening is asynchronous; `ready` resolves with the store, or undefined when there is
// no folder, no storage or the store could not open (the user is told why). The folders are given
// as VS Code names them; the store and the change tracker record their real paths
// (checkpoints/pathForms.ts), so a folder opened through a symlink lists each file once.
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { CheckpointStore } from '../../checkpoints/checkpointStore';
import type { ChangeTracker } from '../../client/changes/changeTracker';
import { Disposable, toDisposable } from '../../common/disposable';
import { workspacePaths } from '../editor/workspacePorts';

export class WorkspaceCheckpoints extends Disposable {
  private opened: CheckpointStore | undefined;
  readonly ready: Promise<CheckpointStore | undefined>;

  constructor(storageDir: string | undefined, tracker: ChangeTracker) {
    super();
    // Also without storage: the agent's writes (real paths) and the editor's edits are one entry.
    tracker.setCanonical((p) => workspacePaths().canonical(p));
    this.ready = storageDir ? this.open(storageDir, tracker) : Promise.resolve(undefined);
  }

  /** The workspace's checkpoints, once open. */
  get store(): CheckpointStore | undefined {
    return this.opened;
  }

  private async open(storageDir: string, tracker: ChangeTracker): Promise<CheckpointStore | undefined> {
    const roots = (vscode.workspace.workspaceFolders ?? [])
      .filter((f) => f.uri.scheme === 'file')
      .map((f) => f.uri.fsPath);
    if (!roots.length) return undefined;
    let store: CheckpointStore;
    try {
      store = await CheckpointStore.open({ dir: nodePath.join(storageDir, 'checkpoints'), roots, tracker });
    } catch (err) {
      void vscode.window.showWarningMessage(`Tandem: checkpoints are off: ${err instanceof Error ? err.message : err}`);
      return undefined;
    }
    if (this.isDisposed) {
      store.dispose();
      return undefined;
    }
    this.opened = this._register(store);
    this.watch(store);
    void store.prepare();
    return store;
  }

  private watch(store: CheckpointStore): void {
    const shown = new Set<string>();
    this._register(
      store.onDidWarn((m) => {
        if (shown.has(m)) return;
        shown.add(m);
        void vscode.window.showWarningMessage(`Tandem: ${m}`);
      }),
    );
    // Events come in bursts (a formatter, `npm install`): note them in one batch.
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
    const watcher = this._register(vscode.workspace.createFileSystemWatcher('**/*', true, false, false));
    this._register(watcher.onDidChange(note));
    this._register(watcher.onDidDelete(note));
    // A save says the content is the user's buffer, not the agent's.
    this._register(
      vscode.workspace.onDidSaveTextDocument((d) => {
        if (d.uri.scheme === 'file') void store.noteSaved(d.uri.fsPath);
      }),
    );
    this._register(toDisposable(() => clearTimeout(timer)));
  }
}
