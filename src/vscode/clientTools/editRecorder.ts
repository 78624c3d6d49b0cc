// Edits the agent makes through client tools (Code · Rename, Code · QuickFixes): applied as one
// WorkspaceEdit — one undo step across every file — then saved where the file had no unsaved
// changes (agents that read the disk see the result; the user's unsaved work is not saved for
// them), and recorded in the ChangeTracker so Review Changes lists them with the agent's turn.
import * as vscode from 'vscode';
import type { ChangeTracker } from '../../client/changes/changeTracker';

export interface EditRecorder {
  /** False: VS Code did not apply the edit (nothing changed). */
  apply(edit: vscode.WorkspaceEdit, sessionId: string | undefined): Promise<boolean>;
}

export interface EditRecorderDeps {
  tracker: ChangeTracker;
  /** The turn index a session is in now, if it is open. */
  turnOf(sessionId: string): number | undefined;
}

function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString() && !d.isClosed);
}

async function before(uri: vscode.Uri): Promise<{ bytes: Uint8Array | null; dirty: boolean }> {
  const doc = openDocument(uri);
  // An unsaved buffer is what the user sees: that is what a revert should bring back.
  if (doc?.isDirty) return { bytes: new TextEncoder().encode(doc.getText()), dirty: true };
  try {
    return { bytes: await vscode.workspace.fs.readFile(uri), dirty: false };
  } catch {
    return { bytes: null, dirty: false };
  }
}

export function editRecorder(deps: () => EditRecorderDeps | undefined): EditRecorder {
  return {
    async apply(edit, sessionId) {
      const files = edit
        .entries()
        .map(([uri]) => uri)
        .filter((u) => u.scheme === 'file');
      const snapshots = await Promise.all(files.map(async (uri) => ({ uri, ...(await before(uri)) })));
      if (!(await vscode.workspace.applyEdit(edit, { isRefactoring: true }))) return false;
      for (const s of snapshots) {
        const doc = openDocument(s.uri);
        if (!s.dirty && doc?.isDirty) await doc.save();
      }
      const d = deps();
      const turn = sessionId !== undefined ? d?.turnOf(sessionId) : undefined;
      if (d && sessionId !== undefined && turn !== undefined) {
        for (const s of snapshots) {
          const path = s.uri.fsPath;
          d.tracker.snapshot(sessionId, turn, path, s.bytes, { source: 'write', exact: true });
          d.tracker.markApplied(sessionId, turn, path);
        }
      }
      return true;
    },
  };
}
