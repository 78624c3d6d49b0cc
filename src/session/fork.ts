// The state a forked session starts from, copied from the session it continues: the turns, tool
// calls, terminals and notices as the view showed them (persistent structures: nothing is copied
// deeply, and neither session sees the other's later changes). Prompts waiting for the user stay
// with the source: they are requests of its running turn, not of the conversation. A fork made
// for Edit and resend starts before a prompt: that turn and the later ones come along folded as
// rewound (the new session's agent never had them).
import type { SessionState } from './reducer';
import { rewindTurns } from './rewind';

export function forkedState(source: SessionState, sessionId: string, rewoundFrom?: number): SessionState {
  const { title } = source.meta;
  const copy: SessionState = {
    ...source,
    meta: { ...source.meta, sessionId, status: 'idle', error: undefined, title: title ? `${title} (fork)` : undefined },
    permissions: [],
    elicitations: [],
  };
  return rewoundFrom === undefined ? copy : rewindTurns(copy, rewoundFrom).state;
}
