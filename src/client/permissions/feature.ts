// The permissions feature on one agent connection: handles session/request_permission through
// the broker, and resolves the connection's pending prompts as cancelled on session/cancel,
// session close and agent exit.
import type { ClientCapabilities } from '@agentclientprotocol/sdk';
import { CLIENT_METHODS } from '../../acp/methods';
import { DisposableStore, type IDisposable } from '../../common/disposable';
import type { ClientFeature, FeatureContext } from '../agentClient';
import type { PermissionBroker, RequestScope } from './broker';

export class PermissionsFeature implements ClientFeature {
  constructor(private readonly broker: PermissionBroker) {}

  capabilities(_caps: ClientCapabilities): void { /* session/request_permission needs no capability */ }

  attach(ctx: FeatureContext): IDisposable {
    const d = new DisposableStore();
    const scope: RequestScope = { store: (id) => ctx.session(id), agentName: ctx.agentName, cwd: ctx.cwd };
    d.add(this.broker.addScope(scope));
    d.add(ctx.connection.onRequest(CLIENT_METHODS.session_request_permission, (params, token) =>
      this.broker.requestFromAgent(scope, params, (cb) => { token.onCancellationRequested(cb); }).then((outcome) => ({ outcome }))));
    if (ctx.onDidCancel) d.add(ctx.onDidCancel((sessionId) => this.broker.cancelSession(sessionId)));
    if (ctx.onDidCloseSession) d.add(ctx.onDidCloseSession((sessionId) => this.broker.cancelSession(sessionId)));
    d.add(ctx.connection.onDidClose(() => this.broker.cancelScope(scope)));
    // Disposing the scope (restart, window close) answers what is still pending.
    d.add({ dispose: () => this.broker.cancelScope(scope) });
    return d;
  }
}
