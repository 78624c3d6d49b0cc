// The state a forked session starts from, copied from the session it continues: the turns, tool
// calls, terminals and notices as the view showed them (persistent structures: nothing is copied
// deeply, and neither session sees the other's later changes). Prompts waiting for the user stay
// with the source: they are requests of its running turn, not of the conversation.
import type { SessionState } from './reducer';

export function forkedState(source: SessionState, sessionId: string): SessionState {
  const { title } = source.meta;
  return {
    ...source,
    meta: { ...source.meta, sessionId, status: 'idle', error: undefined, title: title ? `${title} (fork)` : undefined },
    permissions: [],
    elicitations: [],
  };
}
