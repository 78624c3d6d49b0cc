import * as vscode from 'vscode';
import type { Logger } from '../common/logger';

/** The "Tandem" log: agent stderr, errors; every JSON-RPC message at trace level (see traffic.ts). */
export function createLog(): { channel: vscode.LogOutputChannel; logger: Logger } {
  const channel = vscode.window.createOutputChannel('Tandem', { log: true });
  const logger: Logger = {
    trace: (m, ...a) => channel.trace(m, ...a),
    debug: (m, ...a) => channel.debug(m, ...a),
    info: (m, ...a) => channel.info(m, ...a),
    warn: (m, ...a) => channel.warn(m, ...a),
    error: (m, ...a) => channel.error(m, ...a),
  };
  return { channel, logger };
}
