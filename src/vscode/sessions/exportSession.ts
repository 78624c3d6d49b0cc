// "Tandem: Export Session as Markdown": the shown session, written where the user chooses.
import * as vscode from 'vscode';
import { sessionToMarkdown } from '../../session/exportMarkdown';
import type { Controller } from '../agent/controller';

/** Writes the shown session as Markdown to `target`, or where a save dialog says. Returns the file written. */
export async function exportSession(ctl: Controller, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
  const session = ctl.current?.session;
  if (!session) {
    void vscode.window.showInformationMessage('Tandem: there is no session to export.');
    return undefined;
  }
  const snap = session.snapshot();
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = `${(snap.meta.title || 'tandem-session').replace(/[^\w.-]+/g, '-').slice(0, 60)}.md`;
  const uri =
    target ??
    (await vscode.window.showSaveDialog({
      defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
      filters: { Markdown: ['md'] },
    }));
  if (!uri) return undefined;
  const md = sessionToMarkdown(snap, { agentName: ctl.agent.info?.title ?? ctl.agent.name, exportedAt: new Date() });
  await vscode.workspace.fs.writeFile(uri, Buffer.from(md, 'utf8'));
  return uri;
}
