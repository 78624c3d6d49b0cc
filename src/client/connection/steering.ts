// Steering: adding a prompt to the turn that is running instead of waiting for it to end. Not in
// ACP v1; claude-agent-acp (0.101) offers it as an extension: it advertises
// `InitializeResponse._meta.steering.supported: true` (top level, beside agentCapabilities) and
// answers the request `_session/steering {sessionId, prompt, _meta}` with `{outcome}`:
// `injected` (the prompt joined the running turn), `promptRequired` (no turn was running and we
// asked it not to start one: send it as a normal session/prompt) or `startedNewTurn` (the agent
// started a detached turn itself; we always ask for promptRequired, so only an agent that ignores
// that answers this).
import type { ContentBlock, InitializeResponse } from '@agentclientprotocol/sdk';
import { RequestType } from 'vscode-jsonrpc';
import type { AcpConnection } from '../../acp/connection';

export interface SteerParams {
  sessionId: string;
  prompt: ContentBlock[];
  _meta: { steering: { idleBehavior: 'promptRequired' } };
}
export type SteerOutcome = 'injected' | 'promptRequired' | 'startedNewTurn';

export const STEER_METHOD = new RequestType<SteerParams, unknown, void>('_session/steering');

/** Whether the agent said in `initialize` that it accepts `_session/steering`. */
export function steeringSupported(init: InitializeResponse | undefined): boolean {
  const steering = (init?._meta as { steering?: { supported?: unknown } } | null | undefined)?.steering;
  return steering?.supported === true;
}

/**
 * The request for steering `prompt` into the session's running turn. When no turn runs, the agent
 * is asked to leave the prompt to us (idleBehavior promptRequired), so it goes out as a normal
 * turn whose end we see.
 */
export function steerParams(sessionId: string, prompt: ContentBlock[]): SteerParams {
  return { sessionId, prompt, _meta: { steering: { idleBehavior: 'promptRequired' } } };
}

/** The agent's answer, checked (the response of an extension method is not schema-validated). */
export function parseSteerResult(result: unknown): SteerOutcome {
  const outcome = (result as { outcome?: unknown } | null)?.outcome;
  if (outcome === 'injected' || outcome === 'promptRequired' || outcome === 'startedNewTurn') return outcome;
  throw new Error(`the agent answered _session/steering with ${JSON.stringify(result)?.slice(0, 200)}`);
}

/** Sends `_session/steering` and reads the outcome. */
export async function steer(conn: AcpConnection, sessionId: string, prompt: ContentBlock[]): Promise<SteerOutcome> {
  return parseSteerResult(await conn.sendRequest(STEER_METHOD, steerParams(sessionId, prompt)));
}
