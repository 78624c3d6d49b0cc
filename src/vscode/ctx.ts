// What every feature's register function gets (rust-analyzer's ctx.ts): the extension context,
// the log, and the extension-lifetime disposal scope. The other scope, one agent connection's,
// belongs to the controller (agent/controller.ts): a restart disposes it.
import type * as vscode from 'vscode';
import type { IDisposable } from '../common/disposable';
import type { Logger } from '../common/logger';
import { createLog } from './logging';

export interface Ctx {
  readonly extension: vscode.ExtensionContext;
  /** The "Tandem" log channel (traffic at trace level) and the logger writing to it. */
  readonly log: vscode.LogOutputChannel;
  readonly logger: Logger;
  /** Adds `d` to the extension's scope (disposed on deactivation) and returns it. */
  own<T extends IDisposable>(d: T): T;
}

export function createCtx(extension: vscode.ExtensionContext): Ctx {
  const { channel, logger } = createLog();
  extension.subscriptions.push(channel);
  return {
    extension,
    log: channel,
    logger,
    own: (d) => {
      extension.subscriptions.push(d);
      return d;
    },
  };
}
