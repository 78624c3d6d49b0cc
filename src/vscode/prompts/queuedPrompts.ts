// Runs the prompt queues (session/promptQueue.ts): sends the next queued prompt when a session's
// turn ends, acts on what the user does with a queued prompt in the view (edit, remove, reorder,
// "Send now", "Send" after a cancel), and says when the shown session's queue changed (the view
// feed sends it). "Send now" steers the prompt into the running turn where the agent supports it
// (client/connection/steering.ts); elsewhere it cancels the turn, and the cancel sends it. Every
// prompt goes out through the PromptSender.
import * as vscode from 'vscode';
import type { AgentClient } from '../../client/connection/agentClient';
import { steeringSupported } from '../../client/connection/steering';
import { Disposable } from '../../common/disposable';
import { Emitter } from '../../common/event';
import type { Logger } from '../../common/logger';
import type { QueuedPrompt } from '../../session/promptQueue';
import type { QueueOp, QueueView } from '../../shared/protocol';
import type { Controller } from '../agent/controller';
import type { PromptSender } from './promptSender';
import type { TurnEnds } from './turnEnds';

export class QueuedPrompts extends Disposable {
  private readonly changed = this._register(new Emitter<void>());
  /** The shown session's queue changed. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly ctl: Pick<Controller, 'current' | 'queues' | 'clientOf'>,
    turns: Pick<TurnEnds, 'onDidEnd'>,
    private readonly sender: Pick<PromptSender, 'sendTo' | 'steer'>,
    private readonly logger: Logger,
  ) {
    super();
    this._register(
      turns.onDidEnd(({ client, sessionId, outcome }) => {
        const next = ctl.queues.turnEnded(sessionId, outcome);
        // Not from inside the store's change event: the view must get this turn's end first.
        if (next) setTimeout(() => void this.send(client, sessionId, next), 0);
      }),
    );
    this._register(
      ctl.queues.onDidChange((sessionId) => {
        if (sessionId === ctl.current?.session?.sessionId) this.changed.fire();
      }),
    );
  }

  /** The shown session's queue, as the view shows it. */
  queue(): QueueView {
    const client = this.ctl.current;
    const sessionId = client?.session?.sessionId ?? '';
    const q = this.ctl.queues.get(sessionId);
    return {
      sessionId,
      items: q.items.map((x) => ({ id: x.id, text: x.text, attachments: x.attachments?.length ?? 0 })),
      held: q.held,
      steer: steeringSupported(client?.initializeResult),
    };
  }

  /** A queue operation from the view, on the shown session's queue. */
  async handle(op: QueueOp): Promise<void> {
    const client = this.ctl.current;
    const store = client?.session;
    if (!client || !store) return;
    const { queues } = this.ctl;
    const id = store.sessionId;
    switch (op.op) {
      case 'edit':
        queues.edit(id, op.id, op.text);
        return;
      case 'remove':
        queues.remove(id, op.id);
        return;
      case 'move':
        queues.move(id, op.id, op.to);
        return;
      case 'resume':
        await this.send(client, id, queues.release(id, store.state.meta.status !== 'working'));
        return;
      case 'sendNow':
        await this.sendNow(client, id, op.id);
        return;
    }
  }

  private async sendNow(client: AgentClient, sessionId: string, itemId: string): Promise<void> {
    const { queues } = this.ctl;
    const working = client.getSession(sessionId)?.state.meta.status === 'working';
    if (!working) return this.send(client, sessionId, queues.take(sessionId, itemId));
    if (!steeringSupported(client.initializeResult)) {
      // Cancel, then send: the cancelled turn's end sends this prompt (turnEnded).
      if (queues.sendAfterCancel(sessionId, itemId)) client.cancel(sessionId);
      return;
    }
    const item = queues.take(sessionId, itemId);
    if (!item) return;
    try {
      const outcome = await this.sender.steer(client, sessionId, item);
      this.logger.info(`Steered a queued prompt into the running turn of ${sessionId}: ${outcome}`);
    } catch (err) {
      queues.putFirst(sessionId, item);
      void vscode.window.showErrorMessage(
        `Tandem: could not send the queued prompt now: ${err instanceof Error ? err.message : err}`,
      );
    }
  }

  /** Sends a queued prompt as a new turn; back to the front of the queue when a turn runs after all. */
  private async send(client: AgentClient, sessionId: string, item: QueuedPrompt | undefined): Promise<void> {
    if (!item) return;
    const store = client.getSession(sessionId);
    // Its agent may run in the background (another is shown): it only must still hold the session.
    if (!store || this.ctl.clientOf(sessionId) !== client) return this.ctl.queues.putFirst(sessionId, item);
    if (store.state.meta.status === 'working') return this.ctl.queues.putFirst(sessionId, item);
    try {
      await this.sender.sendTo(client, sessionId, item);
    } catch (err) {
      this.ctl.queues.putFirst(sessionId, item);
      this.logger.error(`Sending a queued prompt failed: ${err instanceof Error ? err.message : err}`);
    }
  }
}
