// What one agent connection is doing, as the connection itself knows it. The VS Code side maps
// this to what the view shows (Controller): the client knows nothing of the webview.
import type { AuthMethod } from '@agentclientprotocol/sdk';

export type AgentConnectionState = 'none' | 'starting' | 'auth' | 'ready' | 'error' | 'exited';

/** A sign-in method the agent offers (initialize's authMethods), flattened for a picker. */
export interface AgentAuthMethod {
  id: string;
  name: string;
  description?: string;
  /** The agent's own login runs in a terminal (not through `authenticate`). */
  terminal: boolean;
}

export interface AgentStatus {
  /** The configured agent's name. */
  name: string;
  state: AgentConnectionState;
  /** Human text for error/exited states, or what is happening while starting. */
  message?: string;
  /** From the agent's initialize answer. */
  info?: { name: string; title?: string; version?: string };
  /** state 'auth': the sign-in methods the agent offers. */
  authMethods?: AgentAuthMethod[];
}

/** The picker's form of one of initialize's authMethods. */
export function toAuthMethod(m: AuthMethod): AgentAuthMethod {
  return {
    id: m.id,
    name: m.name,
    description: m.description ?? undefined,
    terminal: 'type' in m && m.type === 'terminal',
  };
}
