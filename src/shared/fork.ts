// When the shown session can be forked: one rule for the view's "Fork from here" and the palette's
// `tandem.canFork` context key, so the two never disagree.
import type { AgentView } from './protocol';

/**
 * The agent offers session/fork and is ready, and the session has a turn to continue from and is
 * not in the middle of one (a fork copies the conversation as the agent has stored it).
 */
export function forkable(agent: Pick<AgentView, 'state' | 'canFork'>, status?: string, turns = 0): boolean {
  return agent.state === 'ready' && !!agent.canFork && status === 'idle' && turns > 0;
}
