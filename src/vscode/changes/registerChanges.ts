// The agent's changes: fs reads and writes through VS Code's buffers (a write outside the
// workspace asks first) and the checkpoints, on every connection; Review Changes, the hunks, the
// view's changes list, "Restore to here" and "Open diff" for the window (agentChanges.ts).
import * as vscode from 'vscode';
import { CheckpointsFeature } from '../../checkpoints/feature';
import { FileSystemFeature } from '../../client/files/fileSystem';
import type { PermissionPort } from '../../client/permissions/permissionPort';
import type { Controller } from '../agent/controller';
import type { Ctx } from '../ctx';
import { vscodeDocuments, vscodeEdits, vscodeFs, vscodeWorkspace } from '../editor/workspacePorts';
import { AgentChanges } from './agentChanges';

export function registerChanges(
  ctx: Ctx,
  d: { ctl: Pick<Controller, 'current' | 'registerFeatures' | 'clientOf'>; permission: PermissionPort },
): AgentChanges {
  const { ctl } = d;
  const changes = ctx.own(
    new AgentChanges({
      shownSession: () => ctl.current?.session,
      storageDir: ctx.extension.storageUri?.fsPath,
      state: ctx.extension.workspaceState,
      working: (id) => ctl.clientOf(id)?.getSession(id)?.state.meta.status === 'working',
    }),
  );
  ctx.own(
    ctl.registerFeatures(() => [
      new FileSystemFeature({
        documents: vscodeDocuments,
        fs: vscodeFs,
        edits: vscodeEdits,
        workspace: vscodeWorkspace,
        permission: d.permission,
        tracker: changes.tracker,
      }),
      new CheckpointsFeature(() => changes.checkpoints),
    ]),
  );
  // The editor title (also the diff editor's: its modified side is the file) and the palette.
  const mark = (reviewed: boolean) => (uri?: unknown) =>
    changes.reviewed.toggleActive(reviewed, uri instanceof vscode.Uri ? uri : undefined);
  ctx.own(vscode.commands.registerCommand('tandem.markReviewed', mark(true)));
  ctx.own(vscode.commands.registerCommand('tandem.unmarkReviewed', mark(false)));
  return changes;
}
