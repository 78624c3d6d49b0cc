// The VS Code side of elicitations: for a URL, a modal that names the URL's host plainly before
// anything is opened ("Open" / "Decline"; closing the dialog declines), then the system browser;
// for a form asked while the view is hidden (per tandem.notifications), a notification with a way to it.
import * as vscode from 'vscode';
import type { ElicitationFeature, UrlPort } from '../../client/elicitation';
import type { IDisposable } from '../../common/disposable';
import { httpHost } from '../../shared/elicitation';
import { notifyNow } from './attention';

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

/** A form waiting while the view is hidden: say so, with a way to it. */
export function notifyHiddenForms(
  elicitation: Pick<ElicitationFeature, 'onDidAskForm'>,
  view: { readonly isVisible: boolean; show(): void },
): IDisposable {
  return elicitation.onDidAskForm((f) => {
    if (!notifyNow(view)) return;
    void vscode.window
      .showInformationMessage(`${f.agentName} asks for input: ${f.message}`, 'Show in Tandem')
      .then((pick) => {
        if (pick) view.show();
      });
  });
}
