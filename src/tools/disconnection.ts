// What a client tool call gets when VS Code cannot run it (the window is closing, the session is
// gone from VS Code): the client-tools spec's disconnection strategies, chosen with
// tandem.clientTools.disconnection.strategy.
//  - fallbackMessage (default): an error result with tandem.clientTools.disconnectedMessage;
//  - failFast: the MCP call itself fails (a JSON-RPC error, not a result);
//  - retryWithBackoff: a call that arrives while VS Code cannot run it checks again after
//    250 ms, 500 ms, 1 s, … up to maxRetries times, runs when it can, else falls back. A call
//    whose handler already started is never run again (client tools have effects: a rename
//    applied twice is not a retry); it ends with the fallback message.
import { textResult, type ToolResult, type ToolsConfig } from './types';

export type DisconnectionStrategy = 'fallbackMessage' | 'failFast' | 'retryWithBackoff';
export const DISCONNECTION_STRATEGIES: readonly DisconnectionStrategy[] = [
  'fallbackMessage',
  'failFast',
  'retryWithBackoff',
];

/** First wait of retryWithBackoff; each retry doubles it. */
export const RETRY_BASE_MS = 250;

/** failFast: thrown out of invokeTool, so the transport answers the call with an error. */
export class ClientDisconnectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClientDisconnectedError';
  }
}

export function disconnectedText(template: string, tool: string): string {
  return template.replace(/\{0\}|\{tool\}/g, tool);
}

/** The final answer for a call VS Code could not run (throws under failFast). */
export function disconnectedAnswer(config: ToolsConfig, tool: string, retries = 0): ToolResult {
  const text = `${disconnectedText(config.disconnectedMessage, tool)}${retries ? ` (checked again ${retries} time${retries === 1 ? '' : 's'})` : ''}`;
  if (config.disconnection === 'failFast') throw new ClientDisconnectedError(text);
  return textResult(text, true);
}

/**
 * Under retryWithBackoff, waits for VS Code to be able to run calls again; returns how many
 * times it checked again and whether it can now. Other strategies do not wait.
 */
export async function awaitConnection(
  config: ToolsConfig,
  isDisconnected: () => boolean,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<{ connected: boolean; retries: number }> {
  if (!isDisconnected()) return { connected: true, retries: 0 };
  if (config.disconnection !== 'retryWithBackoff') return { connected: false, retries: 0 };
  const max = Math.max(0, Math.floor(config.maxRetries));
  for (let i = 0; i < max; i++) {
    await sleep(RETRY_BASE_MS * 2 ** i);
    if (!isDisconnected()) return { connected: true, retries: i + 1 };
  }
  return { connected: false, retries: max };
}
