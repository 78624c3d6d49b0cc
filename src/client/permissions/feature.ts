// The permissions feature on one agent connection: handles session/request_permission through
// the broker, and resolves the connection's pending prompts as cancelled on session/cancel,
// session close and agent exit.
import type { ClientCapabilities } from '@agentclientprotocol/sdk';
import { CLIENT_METHODS } from '../../acp/methods';
import { DisposableStore, type IDisposable } from '../../common/disposable';
import type { ClientFeature, FeatureContext } from '../connection/feature';
import { watchAgentAllowed, type AgentAllowListPort } from './agentAllowed';
import type { PermissionBroker, RequestScope } from './broker';
import type { CallFacts } from './callFacts';

/** Spotting calls the agent's own settings let through (see agentAllowed.ts). */
export interface AgentAllowedWatch {
  /** `roots`: the session's own folder when it has a place (a worktree); else the workspace's. */
  wouldAllow(facts: CallFacts, agentName: string, roots?: readonly string[]): boolean;
  port: AgentAllowListPort;
}

export class PermissionsFeature implements ClientFeature {
  constructor(
    private readonly broker: PermissionBroker,
    private readonly agentAllowed?: AgentAllowedWatch,
  ) {}

  capabilities(_caps: ClientCapabilities): void {
    /* session/request_permission needs no capability */
  }

  attach(ctx: FeatureContext): IDisposable {
    const d = new DisposableStore();
    const scope: RequestScope = {
      store: (id) => ctx.session(id),
      agentName: ctx.agentName,
      cwd: ctx.cwd,
      placeOf: (id) => ctx.placeOf?.(id),
    };
    d.add(this.broker.addScope(scope));
    if (this.agentAllowed) d.add(watchAgentAllowed(ctx, this.agentAllowed.wouldAllow, this.agentAllowed.port));
    // Turns the user cancelled (session id → turn count then): a prompt arriving while such a
    // turn winds down is answered `cancelled` at once, never shown (the user already said stop).
    const cancelledTurns = new Map<string, number>();
    const afterCancel = (sessionId: string): boolean => {
      const turns = cancelledTurns.get(sessionId);
      if (turns === undefined) return false;
      const st = ctx.session(sessionId)?.state;
      if (st && st.meta.status === 'working' && st.turns.length === turns) return true;
      cancelledTurns.delete(sessionId);
      return false;
    };
    d.add(
      ctx.connection.onRequest(CLIENT_METHODS.session_request_permission, (params, token) => {
        if (afterCancel(params.sessionId)) {
          ctx.logger.info(
            `Permission request for ${params.toolCall?.toolCallId} arrived after the turn was cancelled: answered cancelled`,
          );
          return { outcome: { outcome: 'cancelled' as const } };
        }
        return this.broker
          .requestFromAgent(scope, params, (cb) => {
            token.onCancellationRequested(cb);
          })
          .then((outcome) => ({ outcome }));
      }),
    );
    if (ctx.onDidCancel) {
      d.add(
        ctx.onDidCancel((sessionId) => {
          const st = ctx.session(sessionId)?.state;
          if (st) cancelledTurns.set(sessionId, st.turns.length);
          this.broker.cancelSession(sessionId);
        }),
      );
    }
    if (ctx.onDidCloseSession) d.add(ctx.onDidCloseSession((sessionId) => this.broker.cancelSession(sessionId)));
    d.add(ctx.connection.onDidClose(() => this.broker.cancelScope(scope)));
    // Disposing the scope (restart, window close) answers what is still pending.
    d.add({ dispose: () => this.broker.cancelScope(scope) });
    return d;
  }
}
