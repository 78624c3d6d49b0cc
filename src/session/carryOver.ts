// The first prompt of a new session that stands in for a rewind the agent cannot do (Edit and
// resend, "Send in a new session"): the text of the turns before the edited prompt, marked off
// from the prompt itself so the agent reads them as earlier conversation, not as new asks. Tool
// calls are listed by title only (their output would swamp the prompt). Pure.
import type { ItemView } from '../shared/sessionModel';
import type { SessionState } from './reducer';
import { messageText } from './rewind';

/** The carried text's bound: the oldest turns are left out first. */
export const MAX_CARRIED_CHARS = 100_000;

/**
 * `prompt` preceded by the conversation's turns before turn `before` (the rewound ones left out),
 * or `prompt` alone when there are none.
 */
export function carriedPrompt(state: SessionState, before: number, prompt: string): string {
  const turns: string[] = [];
  state.turns.forEach((turn, t) => {
    if (t >= before || turn.header.rewound) return;
    turns.push(turnText(t, turn.items.toArray(), state));
  });
  if (!turns.length) return prompt;
  let kept = turns;
  let size = kept.reduce((n, s) => n + s.length, 0);
  while (kept.length > 1 && size > MAX_CARRIED_CHARS) {
    size -= kept[0].length;
    kept = kept.slice(1);
  }
  const left = turns.length - kept.length;
  return [
    `[Earlier conversation, carried over from another session as text (${turns.length} turn${turns.length === 1 ? '' : 's'}${left ? `, the first ${left} left out` : ''}). It is context, not a request.]`,
    ...kept,
    '[End of the earlier conversation. My prompt:]',
    prompt,
  ].join('\n\n');
}

function turnText(t: number, items: readonly ItemView[], state: SessionState): string {
  const lines = [`--- Turn ${t + 1} ---`];
  const tools: string[] = [];
  const flushTools = () => {
    if (tools.length) lines.push(`(Tool calls: ${tools.splice(0).join('; ')})`);
  };
  items.forEach((it, i) => {
    if (it.kind === 'tool') {
      tools.push(state.toolCalls.get(it.toolCallId)?.title ?? it.toolCallId);
      return;
    }
    if (it.kind !== 'user' && it.kind !== 'agent') return;
    const text = messageText(it).trim();
    if (!text) return;
    flushTools();
    lines.push(`${it.kind === 'user' ? (i === 0 ? 'User' : 'User (added)') : 'Agent'}: ${text}`);
  });
  flushTools();
  return lines.join('\n');
}
