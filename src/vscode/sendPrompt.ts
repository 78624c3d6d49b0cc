// Sending a prompt: one path for the composer in the view and the palette's "Send Selection" and
// "Ask About This File".
import type { Attachment } from '../shared/protocol';
import type { Controller } from './controller';
import { buildPrompt } from './promptContent';

/**
 * Sends `text` and `attachments` to the shown session, starting the agent if needed, and resolves
 * when the turn ends. While a turn runs the prompt is queued for that session instead. It does not
 * show the view: the palette's commands do that first; the composer is in the view already, and
 * focusing the view again there would move focus (and race a prompt card or a command palette
 * the user opens right after sending).
 */
export async function sendPrompt(ctl: Controller, text: string, attachments: readonly Attachment[]): Promise<void> {
  await ctl.ensureStarted();
  // A new session is opening: the prompt is for it, never for the session still on screen.
  await ctl.openingSession;
  const client = ctl.current;
  if (!client?.session || ctl.agent.state !== 'ready') return;
  if (client.session.state.meta.status === 'working') {
    // Sent when the running turn ends (queuedPrompts.ts); the view shows it under the turn.
    ctl.queues.add(client.session.sessionId, text, attachments);
    return;
  }
  const caps = client.initializeResult?.agentCapabilities?.promptCapabilities ?? undefined;
  const content = await buildPrompt(text, attachments, caps);
  // A restore changed files since the agent last looked: one line first, so it does not work from a stale picture.
  const notice = ctl.takePromptNotice(client.session.sessionId);
  await client.prompt(notice ? [{ type: 'text', text: `[${notice}]` }, ...content] : content);
}
