// "Restore to here" (tandem.restoreToPrompt, from a user message in the view) and "Undo Restore"
// (tandem.undoRestore): the files that will change are listed first, in a QuickPick whose first
// item is the safe choice (files with unsaved edits are skipped); discarding unsaved edits is a
// choice of its own. The restore is itself a
// checkpoint: undoing it is a restore to that checkpoint. The agent hears of it with the next
// prompt (takeRestoreNotice, in sendPrompt). A buffer is unsaved under whichever path its editor
// has (a symlinked workspace folder's, or the real one), and only a buffer the user chose to
// discard is ever saved over.
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import type { CheckpointStore } from '../../checkpoints/checkpointStore';
import { applyRestore, planRestore, type RestoreResult, type RestoreWriter } from '../../checkpoints/restore';
import { restoreChoices, restoreFileItems, restoreSummary, type RestoreChoice } from '../../checkpoints/restoreChoices';
import type { Checkpoint } from '../../checkpoints/timeline';
import { realPathSync } from '../../client/files/realPath';
import { Disposable } from '../../common/disposable';
import { editorUri, type EditorEdits, findDocument } from '../editor/workspacePorts';

type Item = vscode.QuickPickItem & { choice?: RestoreChoice };

export class RestoreCheckpoints extends Disposable {
  /** Each session's last restore (what Undo Restore goes back to). */
  private readonly lastRestore = new Map<string, Checkpoint>();

  constructor(
    private readonly store: () => CheckpointStore | undefined,
    private readonly edits: EditorEdits,
    private readonly currentSessionId: () => string | undefined,
  ) {
    super();
    this._register(
      vscode.commands.registerCommand('tandem.restoreToPrompt', (arg?: { sessionId?: string; turn?: number }) =>
        this.restoreToPrompt(arg?.sessionId ?? this.currentSessionId(), arg?.turn),
      ),
    );
    this._register(
      vscode.commands.registerCommand('tandem.undoRestore', (arg?: { sessionId?: string }) =>
        this.undoRestore(arg?.sessionId ?? this.currentSessionId()),
      ),
    );
  }

  /** Restores the files the agent changed since prompt `turn` (0-based) of the session; undefined: nothing done. */
  async restoreToPrompt(sessionId: string | undefined, turn: number | undefined): Promise<RestoreResult | undefined> {
    const store = this.store();
    const prompts = (sessionId && store?.checkpoints(sessionId).filter((c) => c.kind === 'prompt')) || [];
    if (!store || !sessionId || !prompts.length) {
      void vscode.window.showInformationMessage('Tandem: this session has no checkpoints to restore.');
      return undefined;
    }
    if (turn === undefined) {
      const pick = await vscode.window.showQuickPick(
        prompts.reverse().map((c) => ({
          label: `Before prompt ${(c.turn ?? 0) + 1}`,
          description: new Date(c.at).toLocaleString(),
          turn: c.turn,
        })),
        { title: 'Tandem: Restore to Prompt', placeHolder: 'The files that will change are listed next' },
      );
      if (pick?.turn === undefined) return undefined;
      turn = pick.turn;
    }
    const cp = store.session(sessionId).timeline.ofTurn(turn);
    if (!cp) {
      void vscode.window.showInformationMessage(`Tandem: prompt ${turn + 1} has no checkpoint.`);
      return undefined;
    }
    return this.restore(store, sessionId, cp);
  }

  /**
   * Edit and resend (vscode/rewind/): the files back to before prompt `turn`, with the same list
   * and choices. 'unchanged': every file is as it was; 'noCheckpoint': the prompt has none (a
   * fork's copied turns, a reopened session); 'cancelled': the user backed out, or nothing could
   * be restored (the reason was shown).
   */
  async restoreForEdit(
    sessionId: string,
    turn: number,
  ): Promise<'restored' | 'unchanged' | 'noCheckpoint' | 'cancelled'> {
    const store = this.store();
    const cp = store?.session(sessionId).timeline.ofTurn(turn);
    if (!store || !cp) return 'noCheckpoint';
    if (!restoreFileItems(await planRestore(store, sessionId, cp.id, new Set())).length) return 'unchanged';
    return (await this.restore(store, sessionId, cp))?.checkpoint ? 'restored' : 'cancelled';
  }

  async undoRestore(sessionId: string | undefined): Promise<RestoreResult | undefined> {
    const store = this.store();
    const last = sessionId ? this.lastRestoreOf(store, sessionId) : undefined;
    if (!store || !sessionId || !last) {
      void vscode.window.showInformationMessage('Tandem: there is no restore to undo in this session.');
      return undefined;
    }
    return this.restore(store, sessionId, last);
  }

  private lastRestoreOf(store: CheckpointStore | undefined, sessionId: string): Checkpoint | undefined {
    return (
      this.lastRestore.get(sessionId) ??
      store
        ?.checkpoints(sessionId)
        .filter((c) => c.kind === 'restore')
        .at(-1)
    );
  }

  private async restore(store: CheckpointStore, sessionId: string, cp: Checkpoint): Promise<RestoreResult | undefined> {
    const unsaved = new Set(
      vscode.workspace.textDocuments
        .filter((d) => d.isDirty && d.uri.scheme === 'file')
        .flatMap((d) => [d.uri.fsPath, inRealFolder(d.uri.fsPath)]),
    );
    const plan = await planRestore(store, sessionId, cp.id, unsaved);
    const files = restoreFileItems(plan);
    if (!files.some((f) => f.file.action === 'write' || f.file.action === 'delete')) {
      void vscode.window.showInformationMessage(
        files.length
          ? `Tandem: nothing can be restored to ${plan.title}: ${files.map((f) => f.description).join('; ')}`
          : `Tandem: every file is as it was ${plan.title}.`,
      );
      return undefined;
    }
    const items: Item[] = [
      ...restoreChoices(plan),
      { label: 'Files', kind: vscode.QuickPickItemKind.Separator },
      ...files.map((f) => ({ label: f.label, description: f.description })),
    ];
    const pick = await vscode.window.showQuickPick(items, {
      title: `Tandem: restore to ${plan.title}`,
      placeHolder: 'These files will change. Choose how to restore them.',
      matchOnDescription: true,
      // A decision about files: it stays open when focus moves (the view updating, a notification).
      ignoreFocusOut: true,
    });
    if (!pick?.choice || pick.choice === 'cancel') return undefined;
    const overwrite = pick.choice === 'overwrite';
    const result = await applyRestore(store, plan, this.writer(overwrite ? plan.conflicts : []), {
      overwriteUnsaved: overwrite,
    });
    if (result.checkpoint) this.lastRestore.set(sessionId, result.checkpoint);
    const message = `Tandem: ${restoreSummary(plan.title, result)}`;
    if (result.failed.length) void vscode.window.showErrorMessage(message);
    else if (result.checkpoint) {
      void vscode.window.showInformationMessage(message, 'Undo Restore').then((a) => {
        if (a) void this.undoRestore(sessionId);
      });
    } else void vscode.window.showWarningMessage(message);
    return result;
  }

  /**
   * A file without unsaved edits is written on disk (its editor, if open, follows); a buffer with
   * unsaved edits the user chose to discard (`discard`) is replaced and saved through the editor;
   * one that got unsaved edits while the user looked at the plan is left alone. (Saving through
   * the editor fails when a save participant times out on a busy machine; undoing the restore is
   * a restore of its own, so the editor's undo stack is not needed.)
   */
  private writer(discard: readonly string[]): RestoreWriter {
    const dirty = (file: string) => {
      if (!findDocument(file)?.isDirty) return false;
      if (!discard.includes(file)) throw new Error(`${file} got unsaved edits after the restore was planned`);
      return true;
    };
    return {
      write: async (file, bytes) => {
        if (dirty(file)) {
          await this.edits.restoreBytes(file, bytes, { saveDirty: true });
          return;
        }
        const uri = editorUri(file);
        await vscode.workspace.fs.createDirectory(vscode.Uri.file(nodePath.dirname(uri.fsPath)));
        await vscode.workspace.fs.writeFile(uri, bytes);
      },
      delete: async (file) => {
        dirty(file);
        await this.edits.deleteFile(file);
      },
    };
  }
}

/** `p` with its folder's symlinks resolved (not its own name: a file that is a link stays itself). */
function inRealFolder(p: string): string {
  return nodePath.join(realPathSync(nodePath.dirname(p)), nodePath.basename(p));
}
