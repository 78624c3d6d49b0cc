// Sending a prompt: one path for the composer in the view and the palette's "Send Selection" and
// "Ask About This File".
import * as vscode from 'vscode';
import type { Attachment } from '../shared/protocol';
import type { Controller } from './controller';
import { buildPrompt } from './promptContent';

/**
 * Sends `text` and `attachments` to the shown session, starting the agent if needed, and resolves
 * when the turn ends. While a turn runs it says so and sends nothing: the user cancels or waits.
 */
export async function sendPrompt(
  ctl: Controller,
  view: { show(): void },
  text: string,
  attachments: readonly Attachment[],
): Promise<void> {
  view.show();
  await ctl.ensureStarted();
  const client = ctl.current;
  if (!client?.session || ctl.agent.state !== 'ready') return;
  if (client.session.state.meta.status === 'working') {
    void vscode.window.showInformationMessage(
      'Tandem: the agent is still working on the last prompt. Cancel it or wait.',
    );
    return;
  }
  const caps = client.initializeResult?.agentCapabilities?.promptCapabilities ?? undefined;
  const content = await buildPrompt(text, attachments, caps);
  // A restore changed files since the agent last looked: one line first, so it does not work from a stale picture.
  const notice = ctl.takePromptNotice(client.session.sessionId);
  await client.prompt(notice ? [{ type: 'text', text: `[${notice}]` }, ...content] : content);
}
