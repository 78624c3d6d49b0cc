// A prompt whose turn was still running when the window reloaded (or the extension host died):
// what is kept of it while it runs, and how the reopened session shows it. Agents differ on what
// their restored history holds (claude-code-acp drops the unanswered prompt, claude-agent-acp
// replays it with no answer) and neither says what happened: the turn is shown, marked
// interrupted, whichever they do.
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { SessionStore } from './store';

/** The running prompt as kept across a reload: its text and the files it mentioned. */
export interface InFlightPrompt {
  agentName: string;
  sessionId: string;
  text: string;
  files: string[];
  startedAt: number;
}

export const INTERRUPTED_ERROR = 'Interrupted: the window reloaded before the answer finished.';
/** The same, when the agent could not reopen the prompt's session and it shows in a new one. */
export const INTERRUPTED_ELSEWHERE_ERROR = `${INTERRUPTED_ERROR} The agent could not reopen its session, so it is shown in this new one.`;

/** Bound on the kept text: a pasted log must not bloat the workspace state. */
const MAX_TEXT = 100_000;

/** The running prompt of `store`, when a turn runs. Images and embedded selections are not kept. */
export function inFlightPrompt(store: SessionStore, agentName: string): InFlightPrompt | undefined {
  const { state } = store;
  const last = state.turns.last();
  if (state.meta.status !== 'working' || !last) return undefined;
  const user = last.items.toArray().find((i) => i.kind === 'user');
  const blocks = user && 'blocks' in user ? user.blocks : [];
  const text = textOf(blocks);
  const files = blocks.flatMap((b) => (b.type === 'resource_link' && b.uri.startsWith('file:') ? [b.uri] : []));
  return {
    agentName,
    sessionId: store.sessionId,
    text: text.slice(0, MAX_TEXT),
    files,
    startedAt: last.header.startedAt,
  };
}

/** What the workspace state holds, checked (it outlives versions of Tandem). */
export function parseInFlight(v: unknown): InFlightPrompt | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const p = v as Partial<InFlightPrompt>;
  if (typeof p.agentName !== 'string' || typeof p.sessionId !== 'string' || typeof p.text !== 'string')
    return undefined;
  const files = Array.isArray(p.files) ? p.files.filter((f): f is string => typeof f === 'string') : [];
  return { agentName: p.agentName, sessionId: p.sessionId, text: p.text, files, startedAt: Number(p.startedAt) || 0 };
}

/**
 * Shows `p` in its reopened session as a turn that ended interrupted: the replayed turn of that
 * prompt when the agent's history has it as its last turn, else a turn added with the prompt.
 * `reopened` false: `store` is a new session (the agent could not reopen the prompt's one).
 */
export function markInterrupted(store: SessionStore, p: InFlightPrompt, now: number, reopened = true): void {
  const last = store.state.turns.last();
  const user = last?.items.toArray().find((i) => i.kind === 'user');
  const replayedText = user && 'blocks' in user ? textOf(user.blocks) : undefined;
  if (replayedText?.trim() !== p.text.trim()) {
    const prompt: ContentBlock[] = [
      { type: 'text', text: p.text },
      ...p.files.map((uri) => ({ type: 'resource_link' as const, uri, name: uri.slice(uri.lastIndexOf('/') + 1) })),
    ];
    store.dispatch({ type: 'promptStarted', at: p.startedAt || now, prompt });
  }
  store.dispatch({ type: 'promptFailed', at: now, error: reopened ? INTERRUPTED_ERROR : INTERRUPTED_ELSEWHERE_ERROR });
}

function textOf(blocks: readonly ContentBlock[]): string {
  return blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
}
