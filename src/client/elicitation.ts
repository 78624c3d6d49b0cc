// Elicitation (ACP `elicitation/create`, `elicitation/complete`): the agent asks the user for
// structured input.
// - mode "form": a pending entry in the session's store; the view renders a form from the
//   requested schema. It is answered exactly once: by the user (accept with content the host
//   validates again, decline, cancel), or as `cancel` on session/cancel, session close, a
//   $/cancel_request and agent exit. A forged or invalid answer is refused (logged), the form stays.
//   A request scoped to a JSON-RPC request rather than a session shows in the active session;
//   with no session open it is declined.
// - mode "url": the user is asked first (UrlPort: a modal naming the URL's host); only http(s)
//   URLs are ever opened. Accepted → opened, answered `accept`, and a "finish in your browser" card
//   stays in the session until `elicitation/complete` names its elicitationId (or it is dismissed).
// Unknown modes are declined: they must never be shown as a known kind.
import type {
  ClientCapabilities,
  CreateElicitationRequest,
  CreateElicitationResponse,
  ElicitationSchema,
} from '@agentclientprotocol/sdk';
import type { AcpConnection } from '../acp/connection';
import { CLIENT_METHODS } from '../acp/methods';
import { DisposableStore, type IDisposable } from '../common/disposable';
import { Emitter } from '../common/event';
import type { Logger } from '../common/logger';
import type { SessionStore } from '../session/store';
import { httpHost, type ElicitationContent } from '../shared/elicitation';
import { validateElicitationContent } from '../shared/elicitationValidation';
import type { ElicitationRequestView } from '../shared/sessionModel';
import type { ClientFeature, FeatureContext } from './connection/feature';

/** How a URL elicitation reaches the user. */
export interface UrlPort {
  /** Asks whether to open `url` (http/https only ever reach this). */
  confirmUrl(message: string, url: string, agentName?: string): Promise<boolean>;
  /** Opens it in the browser; false when it could not be opened. */
  openUrl(url: string): Promise<boolean>;
}

export type ElicitationAction = 'accept' | 'decline' | 'cancel';

interface Pending {
  readonly requestId: string;
  readonly mode: 'form' | 'url';
  readonly conn: AcpConnection;
  readonly sessionId?: string;
  readonly store?: SessionStore;
  readonly schema?: ElicitationSchema;
  readonly elicitationId?: string;
  resolve(r: CreateElicitationResponse): void;
}

/** A URL the user opened, shown until the agent says the elicitation is complete. */
interface Card {
  readonly requestId: string;
  readonly conn: AcpConnection;
  readonly store: SessionStore;
  readonly sessionId: string;
  readonly elicitationId: string;
}

export class ElicitationFeature implements ClientFeature {
  private readonly pendingById = new Map<string, Pending>();
  private readonly cards = new Map<string, Card>();
  private seq = 0;
  private readonly asked = new Emitter<{ requestId: string; agentName: string; message: string }>();
  /** A form is waiting in a session (the host tells the user when the view is hidden). */
  readonly onDidAskForm = this.asked.event;

  constructor(private readonly deps: { url: UrlPort; logger: Logger }) {}

  capabilities(caps: ClientCapabilities): void {
    caps.elicitation = { form: {}, url: {} };
  }

  attach(ctx: FeatureContext): IDisposable {
    const d = new DisposableStore();
    const conn = ctx.connection;
    d.add(
      conn.onRequest(CLIENT_METHODS.elicitation_create, (params, token) => {
        const p = this.create(ctx, params);
        if (p.entry)
          token.onCancellationRequested(() =>
            this.cancelWhere((e) => e === p.entry, 'the agent cancelled the request'),
          );
        return p.answer;
      }),
    );
    d.add(
      conn.onNotification(CLIENT_METHODS.elicitation_complete, ({ elicitationId }) =>
        this.complete(conn, elicitationId),
      ),
    );
    const bySession = (why: string) => (sessionId: string) =>
      this.cancelWhere((e) => e.conn === conn && e.sessionId === sessionId, why);
    if (ctx.onDidCancel) d.add(ctx.onDidCancel(bySession('the turn was cancelled')));
    if (ctx.onDidCloseSession) d.add(ctx.onDidCloseSession(bySession('the session was closed')));
    d.add(conn.onDidClose(() => this.cancelWhere((e) => e.conn === conn, 'the agent connection closed')));
    // Disposing the scope (restart, window close) answers what is still pending.
    d.add({ dispose: () => this.cancelWhere((e) => e.conn === conn, 'the agent connection closed') });
    return d;
  }

  /** Forms waiting for the user, oldest first (tests, status). */
  pending(): Array<{ requestId: string; mode: 'form' | 'url'; sessionId?: string }> {
    return [...this.pendingById.values()].map((e) => ({
      requestId: e.requestId,
      mode: e.mode,
      sessionId: e.sessionId,
    }));
  }

  /**
   * The user's answer from the view. Accepted only for a pending form, and for accept only with
   * content that passes the form's schema; otherwise refused (logged) and the form stays. For a
   * URL card, any action dismisses the card.
   */
  answer(requestId: string, action: ElicitationAction, content?: ElicitationContent): boolean {
    const card = this.cards.get(requestId);
    if (card) {
      this.dropCard(card);
      return true;
    }
    const e = this.pendingById.get(requestId);
    if (!e || e.mode !== 'form') {
      this.deps.logger.warn(`Elicitation answer for ${requestId} ignored: no form is waiting under that id.`);
      return false;
    }
    if (action !== 'accept') {
      if (content !== undefined) {
        this.deps.logger.warn(`Elicitation answer for ${requestId} refused: content goes only with accept.`);
        return false;
      }
      this.finish(e, { action }, 'by you');
      return true;
    }
    const answer = content ?? {};
    const problems = validateElicitationContent(e.schema, answer);
    if (problems.length) {
      this.deps.logger.warn(`Elicitation answer for ${requestId} refused, the form stays: ${problems.join(' ')}`);
      return false;
    }
    this.finish(
      e,
      { action: 'accept', content: answer },
      `by you (fields: ${Object.keys(answer).join(', ') || 'none'})`,
    );
    return true;
  }

  private create(
    ctx: FeatureContext,
    params: CreateElicitationRequest,
  ): { entry?: Pending; answer: Promise<CreateElicitationResponse> } {
    const { logger } = this.deps;
    const requestId = `elic-${++this.seq}`;
    const sessionId = 'sessionId' in params && typeof params.sessionId === 'string' ? params.sessionId : undefined;
    const toolCallId = 'toolCallId' in params && typeof params.toolCallId === 'string' ? params.toolCallId : undefined;
    const store = sessionId ? ctx.session(sessionId) : ctx.activeSession?.();
    const where = sessionId
      ? `session ${sessionId}`
      : `request ${String((params as { requestId?: unknown }).requestId)}`;
    const declined = (why: string) => {
      logger.warn(`Elicitation ${requestId} (${params.mode}, ${where}) declined: ${why}`);
      return { answer: Promise.resolve<CreateElicitationResponse>({ action: 'decline' }) };
    };

    if (params.mode === 'form') {
      const schema = (params as { requestedSchema?: ElicitationSchema }).requestedSchema;
      if (!store)
        return declined(sessionId ? 'that session is not open here.' : 'no session is open to show the form in.');
      let entry!: Pending;
      const answer = new Promise<CreateElicitationResponse>((resolve) => {
        entry = { requestId, mode: 'form', conn: ctx.connection, sessionId: store.sessionId, store, schema, resolve };
      });
      this.pendingById.set(requestId, entry);
      const view: ElicitationRequestView = {
        requestId,
        mode: 'form',
        message: params.message,
        at: store.timestamp(),
        ...(toolCallId ? { toolCallId } : {}),
        ...(schema ? { requestedSchema: schema } : {}),
      };
      store.dispatch({ type: 'elicitationRequested', at: view.at, request: view });
      logger.info(`Elicitation ${requestId} (form, ${where}): waiting for you — ${params.message}`);
      this.asked.fire({ requestId, agentName: ctx.agentName, message: params.message });
      return { entry, answer };
    }

    if (params.mode === 'url') {
      const { url, elicitationId } = params as { url: string; elicitationId: string };
      if (!httpHost(url))
        return declined(`only http and https URLs are opened, not ${JSON.stringify(url.slice(0, 200))}.`);
      let entry!: Pending;
      const answer = new Promise<CreateElicitationResponse>((resolve) => {
        entry = {
          requestId,
          mode: 'url',
          conn: ctx.connection,
          sessionId: store?.sessionId ?? sessionId,
          store,
          elicitationId,
          resolve,
        };
      });
      this.pendingById.set(requestId, entry);
      logger.info(`Elicitation ${requestId} (url, ${where}): asking before opening ${url}`);
      void this.askUrl(entry, params.message, url, ctx.agentName).catch((err) => {
        logger.error(`Elicitation ${requestId}: ${err instanceof Error ? err.message : err}`);
        this.finish(entry, { action: 'cancel' }, 'after an error');
      });
      return { entry, answer };
    }

    return declined(`Tandem does not know the elicitation mode ${JSON.stringify(params.mode)}.`);
  }

  private async askUrl(e: Pending, message: string, url: string, agentName: string): Promise<void> {
    const yes = await this.deps.url.confirmUrl(message, url, agentName);
    if (!this.pendingById.has(e.requestId)) return; // cancelled or completed while the dialog was open: never open it
    if (!yes) {
      this.finish(e, { action: 'decline' }, 'by you');
      return;
    }
    const opened = await this.deps.url.openUrl(url);
    if (!this.pendingById.has(e.requestId)) return;
    if (!opened) {
      this.finish(e, { action: 'decline' }, '(the URL could not be opened)');
      return;
    }
    this.finish(e, { action: 'accept' }, `by you (opened ${httpHost(url)})`);
    if (e.store && e.elicitationId !== undefined) {
      const card: Card = {
        requestId: e.requestId,
        conn: e.conn,
        store: e.store,
        sessionId: e.store.sessionId,
        elicitationId: e.elicitationId,
      };
      this.cards.set(card.requestId, card);
      const view: ElicitationRequestView = {
        requestId: e.requestId,
        mode: 'url',
        message,
        url,
        host: httpHost(url),
        elicitationId: e.elicitationId,
        at: e.store.timestamp(),
      };
      e.store.dispatch({ type: 'elicitationRequested', at: view.at, request: view });
    }
  }

  /** elicitation/complete: the out-of-band part is done; close its card (or a dialog still waiting). */
  private complete(conn: AcpConnection, elicitationId: string): void {
    let found = false;
    for (const c of [...this.cards.values()])
      if (c.conn === conn && c.elicitationId === elicitationId) {
        this.dropCard(c);
        found = true;
      }
    for (const e of [...this.pendingById.values()]) {
      if (e.conn === conn && e.mode === 'url' && e.elicitationId === elicitationId) {
        this.finish(e, { action: 'cancel' }, '(completed before you chose)');
        found = true;
      }
    }
    this.deps.logger.info(`Elicitation ${elicitationId} complete${found ? '' : ' (nothing was showing it)'}`);
  }

  private cancelWhere(pred: (e: Pending | Card) => boolean, why: string): void {
    for (const e of [...this.pendingById.values()]) if (pred(e)) this.finish(e, { action: 'cancel' }, `because ${why}`);
    for (const c of [...this.cards.values()]) if (pred(c)) this.dropCard(c);
  }

  private finish(e: Pending, r: CreateElicitationResponse, how: string): void {
    if (!this.pendingById.delete(e.requestId)) return;
    if (e.mode === 'form' && e.store)
      e.store.dispatch({ type: 'elicitationResolved', at: e.store.timestamp(), requestId: e.requestId });
    this.deps.logger.info(`Elicitation ${e.requestId} (${e.mode}): ${r.action} ${how}`);
    e.resolve(r);
  }

  private dropCard(c: Card): void {
    if (!this.cards.delete(c.requestId)) return;
    c.store.dispatch({ type: 'elicitationResolved', at: c.store.timestamp(), requestId: c.requestId });
  }
}
