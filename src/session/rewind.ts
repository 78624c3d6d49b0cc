// Edit and resend of an earlier prompt: the turns from that prompt on leave the agent's context
// (rewound: the view folds them and says so), and Redo brings them back into view. Which way the
// conversation can go back depends on the agent: `_session/rewind` in place, a fork at the agent's
// last message before the prompt, or neither (the user is asked). Pure: no I/O.
import type { ItemView } from '../shared/sessionModel';
import type { ReduceResult, SessionState, TurnState } from './reducer';

/**
 * How the conversation goes back to before a prompt:
 * - `rewind`: `_session/rewind` truncates the agent's session in place;
 * - `fork`: a new session forked at the agent's message `messageId` (the last before the prompt),
 *   or, before the first prompt (no `messageId`), a new session: there is nothing to keep;
 * - `ask`: the agent can do neither; the user chooses a fallback before anything is sent.
 */
export type EditWay = { kind: 'rewind' } | { kind: 'fork'; messageId?: string } | { kind: 'ask' };

/** What the agent offers: `_session/rewind` (initialize), session/fork (initialize). */
export interface RewindCaps {
  rewind: boolean;
  fork: boolean;
}

/**
 * The way to edit prompt `turn` (0-based). A fork needs a point to fork at: the agent must name
 * its messages (ACP message ids on its chunks) for Tandem to say where, so an agent that forks only
 * whole sessions (no ids) gets the question instead of a fork that would keep the later turns.
 */
export function editWay(caps: RewindCaps, state: SessionState, turn: number): EditWay {
  if (caps.rewind) return { kind: 'rewind' };
  if (!caps.fork || !usesMessageIds(state)) return { kind: 'ask' };
  if (turn === 0) return { kind: 'fork' };
  const messageId = lastAgentMessageId(state, turn);
  return messageId ? { kind: 'fork', messageId } : { kind: 'ask' };
}

/** Whether the agent names its messages (any of its messages in the session carries an ACP message id). */
export function usesMessageIds(state: SessionState): boolean {
  let found = false;
  state.turns.forEach((t) => {
    if (!found) t.items.forEach((it) => (found ||= it.kind === 'agent' && !!it.messageId));
  });
  return found;
}

/** The id of the agent's last message before turn `before` that is still in its context (not rewound). */
export function lastAgentMessageId(state: SessionState, before: number): string | undefined {
  for (let t = Math.min(before, state.turns.length) - 1; t >= 0; t--) {
    const turn = state.turns.get(t)!;
    if (turn.header.rewound) continue;
    for (let i = turn.items.length - 1; i >= 0; i--) {
      const it = turn.items.get(i)!;
      if (it.kind === 'agent' && it.messageId) return it.messageId;
    }
  }
  return undefined;
}

/** Marks turns `from` and later as rewound (those that are not yet); a header patch for each. */
export function rewindTurns(state: SessionState, from: number): ReduceResult {
  return setRewound(state, (t, turn) => t >= from && !turn.header.rewound, true);
}

/** Brings rewound turns back into view (Redo). */
export function unrewindTurns(state: SessionState, turns: readonly number[]): ReduceResult {
  const which = new Set(turns);
  return setRewound(state, (t, turn) => which.has(t) && !!turn.header.rewound, false);
}

/** The turns a rewind from `from` would fold: the ones that are in the agent's context now. */
export function turnsFrom(state: SessionState, from: number): number[] {
  const out: number[] = [];
  state.turns.forEach((turn, t) => {
    if (t >= from && !turn.header.rewound) out.push(t);
  });
  return out;
}

function setRewound(
  state: SessionState,
  pick: (t: number, turn: TurnState) => boolean,
  rewound: boolean,
): ReduceResult {
  const patches: ReduceResult['patches'] = [];
  let turns = state.turns;
  state.turns.forEach((turn, t) => {
    if (!pick(t, turn)) return;
    const { rewound: _, ...rest } = turn.header;
    const header = rewound ? { ...rest, rewound: true as const } : rest;
    turns = turns.set(t, { ...turn, header });
    patches.push({ op: 'turn', turn: header });
  });
  return patches.length ? { state: { ...state, turns }, patches } : { state, patches };
}

/** A user message's text as the agent read it: its text blocks, with files as `@name`. */
export function messageText(item: ItemView | undefined): string {
  if (!item || !('blocks' in item)) return '';
  return item.blocks
    .map((b) => (b.type === 'text' ? b.text : b.type === 'resource_link' ? `@${b.name}` : ''))
    .filter(Boolean)
    .join('\n');
}
