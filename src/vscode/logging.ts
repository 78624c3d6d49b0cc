import * as vscode from 'vscode';
import type { Logger } from '../common/logger';

/** The "Tandem" log: agent stderr, errors, and at trace level every JSON-RPC message. */
export function createLog(): { channel: vscode.LogOutputChannel; logger: Logger; traffic: (dir: 'in' | 'out', msg: unknown) => void } {
  const channel = vscode.window.createOutputChannel('Tandem', { log: true });
  const logger: Logger = {
    trace: (m, ...a) => channel.trace(m, ...a),
    debug: (m, ...a) => channel.debug(m, ...a),
    info: (m, ...a) => channel.info(m, ...a),
    warn: (m, ...a) => channel.warn(m, ...a),
    error: (m, ...a) => channel.error(m, ...a),
  };
  const traffic = (dir: 'in' | 'out', msg: unknown) => {
    // Serializing every message costs; only pay it when someone is looking at trace level.
    if (channel.logLevel !== vscode.LogLevel.Trace) return;
    channel.trace(`${dir === 'in' ? '◀ agent' : '▶ agent'} ${JSON.stringify(msg)}`);
  };
  return { channel, logger, traffic };
}
