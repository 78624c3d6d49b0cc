// Every prompt Tandem sends goes through here: the composer in the view, the palette's "Send
// Selection" and "Ask About This File", a queued prompt when its turn comes, "Send now" steered
// into the running turn, and "Resend" of a prompt a reload interrupted. So what must travel with
// a prompt (today the restore notice: which files "Restore to here" changed since the agent last
// looked) travels with every one of them.
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { AgentClient } from '../../client/connection/agentClient';
import type { SteerOutcome } from '../../client/connection/steering';
import type { Attachment } from '../../shared/protocol';
import type { Controller } from '../agent/controller';
import { buildPrompt } from './promptContent';

/** Lines the agent must read with a session's next prompt, taken once (the restore notice). */
export interface PromptNotices {
  take(sessionId: string): string | undefined;
}

/** A prompt's text and attachments, as the composer or the queue holds it. */
export interface PromptDraft {
  /** The queue item's id: a steered prompt's echo in the view is marked with it. */
  readonly id?: string;
  readonly text: string;
  readonly attachments?: readonly Attachment[];
}

export class PromptSender {
  constructor(
    private readonly ctl: Pick<Controller, 'ensureStarted' | 'openingSession' | 'current' | 'agent' | 'queues'>,
    private readonly notices: PromptNotices,
  ) {}

  /**
   * Sends a prompt to the shown session, starting the agent if needed, and resolves when the turn
   * ends. While a turn runs the prompt is queued for that session instead. It does not show the
   * view: the palette's commands do that first; the composer is in the view already, and focusing
   * the view again there would move focus (and race a prompt card the user opens right after).
   */
  async send(text: string, attachments: readonly Attachment[]): Promise<void> {
    await this.ctl.ensureStarted();
    // A new session is opening: the prompt is for it, never for the session still on screen.
    await this.ctl.openingSession;
    const client = this.ctl.current;
    if (!client?.session || this.ctl.agent.state !== 'ready') return;
    const sessionId = client.session.sessionId;
    if (client.session.state.meta.status === 'working') {
      // Sent when the running turn ends (queuedPrompts.ts); the view shows it under the turn.
      this.ctl.queues.add(sessionId, text, attachments);
      return;
    }
    await client.prompt(await this.content(client, sessionId, { text, attachments }), sessionId);
  }

  /** Sends a prompt as a new turn of a session on `client` (a queued prompt whose turn came). */
  async sendTo(client: AgentClient, sessionId: string, draft: PromptDraft): Promise<void> {
    await client.prompt(await this.content(client, sessionId, draft), sessionId);
  }

  /**
   * Adds a prompt to the turn running in the session (client/connection/steering.ts). On
   * 'promptRequired' the same content, notice included, goes out as a new turn.
   */
  async steer(client: AgentClient, sessionId: string, draft: PromptDraft): Promise<SteerOutcome> {
    const content = await this.content(client, sessionId, draft);
    const outcome = await client.steer(sessionId, content);
    if (outcome === 'promptRequired') await client.prompt(content, sessionId);
    else if (outcome === 'injected')
      // The agent does not echo a steered prompt: show it in the turn it joined.
      for (const block of content)
        client.getSession(sessionId)?.dispatch({
          type: 'update',
          at: Date.now(),
          update: { sessionUpdate: 'user_message_chunk', content: block, messageId: `steer-${draft.id ?? Date.now()}` },
        });
    return outcome;
  }

  /** The ACP content of a prompt, with the session's notice first (taken: it is sent once). */
  private async content(client: AgentClient, sessionId: string, draft: PromptDraft): Promise<ContentBlock[]> {
    const caps = client.initializeResult?.agentCapabilities?.promptCapabilities ?? undefined;
    const content = await buildPrompt(draft.text, draft.attachments ?? [], caps);
    // A restore changed files since the agent last looked: one line first, so it does not work from a stale picture.
    const notice = this.notices.take(sessionId);
    return notice ? [{ type: 'text', text: `[${notice}]` }, ...content] : content;
  }
}
