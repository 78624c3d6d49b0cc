// The host ↔ webview message protocol: string-tagged unions both ways. The host owns state;
// the webview gets a snapshot on `ready`, then patches. Every webview→host message is
// checked by parseIntent before the host acts on it.
import type { Patch, SessionSnapshot } from './sessionModel';

export type AgentState = 'none' | 'untrusted' | 'starting' | 'ready' | 'error' | 'exited';

export interface AgentView {
  /** The configured agent's display name ("Claude Code", "Demo", …). */
  name?: string;
  state: AgentState;
  /** Human text for error/exited/untrusted states, or what is happening while starting. */
  message?: string;
  /** From the agent's initialize answer. */
  info?: { name: string; title?: string; version?: string };
}

export type HostMessage =
  | { type: 'snapshot'; agent: AgentView; session: SessionSnapshot | null }
  | { type: 'patch'; sessionId: string; patches: Patch[] }
  | { type: 'agent'; agent: AgentView }
  | { type: 'error'; message: string };

export type Intent =
  | { type: 'ready' }
  | { type: 'prompt'; text: string }
  | { type: 'cancel' }
  | { type: 'newSession' }
  | { type: 'restartAgent' }
  | { type: 'selectAgent' }
  | { type: 'showLog' }
  | { type: 'openLocation'; path: string; line?: number };

/** Longest prompt accepted from the webview (a pasted file is fine; a runaway loop is not). */
export const MAX_PROMPT_CHARS = 1_000_000;

/**
 * Validates a message from the webview. Returns the intent, or a string saying what is wrong.
 * The webview is ours, but its content renders agent output: never trust what it posts.
 */
export function parseIntent(msg: unknown): Intent | string {
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return 'message is not an object';
  const m = msg as Record<string, unknown>;
  const extra = (allowed: string[]) => Object.keys(m).find((k) => k !== 'type' && !allowed.includes(k));
  switch (m.type) {
    case 'ready': case 'cancel': case 'newSession': case 'restartAgent': case 'selectAgent': case 'showLog': {
      const bad = extra([]);
      return bad ? `unexpected field "${bad}" in ${m.type}` : { type: m.type };
    }
    case 'prompt': {
      const bad = extra(['text']);
      if (bad) return `unexpected field "${bad}" in prompt`;
      if (typeof m.text !== 'string') return 'prompt.text must be a string';
      if (!m.text.trim()) return 'prompt.text is empty';
      if (m.text.length > MAX_PROMPT_CHARS) return `prompt.text is longer than ${MAX_PROMPT_CHARS} characters`;
      return { type: 'prompt', text: m.text };
    }
    case 'openLocation': {
      const bad = extra(['path', 'line']);
      if (bad) return `unexpected field "${bad}" in openLocation`;
      if (typeof m.path !== 'string' || !m.path) return 'openLocation.path must be a non-empty string';
      if (m.line !== undefined && (!Number.isInteger(m.line) || (m.line as number) < 1)) return 'openLocation.line must be a positive integer';
      return m.line === undefined ? { type: 'openLocation', path: m.path } : { type: 'openLocation', path: m.path, line: m.line as number };
    }
    default:
      return `unknown message type ${JSON.stringify(m.type)}`;
  }
}
