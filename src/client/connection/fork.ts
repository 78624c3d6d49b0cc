// Forking a session: a new session that continues an open one's conversation. `session/fork` is
// unstable in ACP v1 (schema.unstable.json): the agent advertises it as
// `agentCapabilities.sessionCapabilities.fork: {}` and answers `{sessionId, modes?,
// configOptions?}`, the shape of session/new's answer. claude-agent-acp (0.101) copies its stored
// transcript into a new session and starts it like a resumed one: it replays nothing, so the fork's
// tab shows Tandem's own copy of the earlier turns (session/fork.ts) unless the agent replays them.
import type { AgentCapabilities, NewSessionResponse, SessionNotification } from '@agentclientprotocol/sdk';
import type { ForkSessionRequest } from '@agentclientprotocol/sdk/unstable';
import { RequestType } from 'vscode-jsonrpc';
import type { AcpConnection } from '../../acp/connection';
import { describeErrors, AGENT_RESPONSES } from '../../acp/validation';

export const FORK_METHOD = new RequestType<ForkSessionRequest, unknown, void>('session/fork');

/** Whether the agent said in `initialize` that it accepts `session/fork` (a capability object, `{}` included). */
export function forkSupported(caps: AgentCapabilities | null | undefined): boolean {
  const fork = (caps?.sessionCapabilities as { fork?: unknown } | null | undefined)?.fork;
  return typeof fork === 'object' && fork !== null && !Array.isArray(fork);
}

/** The agent's answer, checked with session/new's validator (the two answers have one shape; unstable methods have none of their own). */
export function parseForkResult(result: unknown): NewSessionResponse {
  const validate = AGENT_RESPONSES.get('session/new')!;
  if (!validate(result)) throw new Error(`Invalid response to session/fork: ${describeErrors(validate.errors)}`);
  return result as NewSessionResponse;
}

/** Sends `session/fork` and reads the answer. */
export async function sendFork(conn: AcpConnection, params: ForkSessionRequest): Promise<NewSessionResponse> {
  return parseForkResult(await conn.sendRequest(FORK_METHOD, params));
}

/**
 * Whether the agent replayed the conversation into the new session itself (updates that arrived
 * before its answer): then those are its history, and Tandem's copy would show every turn twice.
 */
export function agentReplayed(held: readonly SessionNotification[]): boolean {
  return held.some(
    (n) => n.update.sessionUpdate === 'user_message_chunk' || n.update.sessionUpdate === 'agent_message_chunk',
  );
}
