// Prompt turns on one agent connection: session/prompt recorded in the session's store (started,
// ended, failed), and a turn ended here when the agent does not answer session/cancel in time:
// a hung agent must not keep the view busy forever.
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { AcpConnection } from '../../acp/connection';
import { errorDetail } from '../../acp/errors';
import { AGENT_METHODS } from '../../acp/methods';
import type { IDisposable } from '../../common/disposable';
import type { Logger } from '../../common/logger';
import type { SessionStore } from '../../session/store';
import { isAuthRequired } from './authRequired';
import { turnUsageOf } from './turnUsage';

export interface PromptTurnsDeps {
  agentName: string;
  logger: Logger;
  /** How long after session/cancel the agent may take to answer `cancelled`. Default 5000 ms. */
  cancelTimeoutMs?: number;
  now(): number;
  /** The connection closed mid-turn: resolves truthy once the agent's exit is reported (for every session). */
  lost(): Promise<unknown>;
  /** The agent answered the prompt "authentication required". */
  authRequired(err: unknown): void;
}

export class PromptTurns implements IDisposable {
  /** Turns waiting for the answer to session/cancel: ends them here when the agent never answers. */
  private readonly cancelWaits = new Map<string, { give: () => void; timer?: ReturnType<typeof setTimeout> }>();

  constructor(private readonly deps: PromptTurnsDeps) {}

  /** Runs one turn; resolves when it ends. Errors land in the turn. */
  async run(conn: AcpConnection, store: SessionStore, prompt: ContentBlock[]): Promise<void> {
    const { deps } = this;
    store.dispatch({ type: 'promptStarted', at: deps.now(), prompt });
    const sent = conn.sendRequest(AGENT_METHODS.session_prompt, { sessionId: store.sessionId, prompt });
    sent.catch(() => {
      /* handled below, or abandoned after an unanswered cancel */
    });
    let giveUp!: () => void;
    const abandoned = new Promise<'abandoned'>((resolve) => {
      giveUp = () => resolve('abandoned');
    });
    this.cancelWaits.set(store.sessionId, { give: giveUp });
    try {
      const res = await Promise.race([sent, abandoned]);
      if (res === 'abandoned') {
        const message = `${deps.agentName} did not answer the cancel within ${this.cancelTimeoutMs} ms: the turn was ended here. Restart the agent if it stays busy.`;
        deps.logger.warn(message);
        store.dispatch({ type: 'promptFailed', at: deps.now(), error: message });
        return;
      }
      store.dispatch({ type: 'promptEnded', at: deps.now(), stopReason: res.stopReason, usage: turnUsageOf(res) });
    } catch (err) {
      // A lost agent is reported once, by the client's exit handling, for every session.
      if (conn.isClosed && (await deps.lost())) return;
      store.dispatch({ type: 'promptFailed', at: deps.now(), error: errorDetail(err) });
      if (isAuthRequired(err)) deps.authRequired(err);
    } finally {
      const w = this.cancelWaits.get(store.sessionId);
      if (w?.give === giveUp) {
        clearTimeout(w.timer);
        this.cancelWaits.delete(store.sessionId);
      }
    }
  }

  /** session/cancel was sent for this session: its turn now has cancelTimeoutMs to end. */
  cancelled(sessionId: string): void {
    const w = this.cancelWaits.get(sessionId);
    if (w && !w.timer) w.timer = setTimeout(w.give, this.cancelTimeoutMs);
  }

  private get cancelTimeoutMs(): number {
    return this.deps.cancelTimeoutMs ?? 5000;
  }

  dispose(): void {
    for (const w of this.cancelWaits.values()) clearTimeout(w.timer);
    this.cancelWaits.clear();
  }
}
