// What one agent connection is doing, as the connection itself knows it, and who the agent says it
// works as. The VS Code side maps this to what the view shows (Controller): the client knows
// nothing of the webview.
import type { AuthMethod } from '@agentclientprotocol/sdk';
import { NotificationType } from 'vscode-jsonrpc';
import type { AgentAccountView } from '../../shared/protocol';

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
  /** Who the agent says it works as (`_auth/status_update`, below), in any state. */
  account?: AgentAccountView;
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

// Who the agent works as: claude-agent-acp (0.100 and later; marker
// `agentCapabilities._meta.authStatus: {}`) pushes the notification `_auth/status_update
// {authStatus: {kind, label, detail?, account?: {plan, email?, organization?}, vendor?}}` for the
// whole connection: at initialize, after authenticate or logout, for each new session (a refused
// one too: it names the account that was refused) and when a prompt finds the login changed.
// `kind` "none" is a known signed-out state; silence means the agent cannot tell. Not ACP v1:
// read defensively, and only what the view shows.
export const AUTH_STATUS_UPDATE = new NotificationType<unknown>('_auth/status_update');

/** Long enough for any label the agent means to show, short enough that none floods the header. */
const MAX = 200;
const text = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() ? v.trim().slice(0, MAX) : undefined;

/** The identity an `_auth/status_update` reports, or undefined for one that says nothing usable. */
export function parseAuthStatus(params: unknown): AgentAccountView | undefined {
  const s = (params as { authStatus?: unknown } | null | undefined)?.authStatus as Record<string, unknown> | undefined;
  const kind = text(s?.kind);
  const label = text(s?.label);
  if (!s || !kind || !label) return undefined;
  const account = (s.account ?? {}) as Record<string, unknown>;
  const view: AgentAccountView = { kind, label };
  for (const [key, value] of [
    ['detail', s.detail],
    ['email', account.email],
    ['organization', account.organization],
    ['plan', account.plan],
  ] as const) {
    const v = text(value);
    if (v) view[key] = v;
  }
  return view;
}

/** The status change an `_auth/status_update` makes: the account it reports (nothing when unusable). */
export function accountChange(params: unknown): Partial<AgentStatus> {
  const account = parseAuthStatus(params);
  return account ? { account } : {};
}
