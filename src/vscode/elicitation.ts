// The VS Code side of URL elicitations: a modal that names the URL's host plainly before anything
// is opened ("Open" / "Decline"; closing the dialog declines), then the system browser.
import * as vscode from 'vscode';
import type { UrlPort } from '../client/elicitation';
import { httpHost } from '../shared/elicitation';

export class VsCodeUrlPort implements UrlPort {
  async confirmUrl(message: string, url: string, agentName = 'The agent'): Promise<boolean> {
    const host = httpHost(url);
    if (!host) return false;
    const pick = await vscode.window.showWarningMessage(
      `${agentName} wants you to open a page on ${host}`,
      { modal: true, detail: `${message}\n\n${url}` },
      'Open',
      'Decline',
    );
    return pick === 'Open';
  }

  async openUrl(url: string): Promise<boolean> {
    if (!httpHost(url)) return false;
    return vscode.env.openExternal(vscode.Uri.parse(url, true));
  }
}
