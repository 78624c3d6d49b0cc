// The row that stands for a subagent's child session: its `_meta.tandem.subagent`, written where
// the child's messages are put in its root session's terms (client/connection/subagentTerms.ts)
// and read by the row's Stop button and the host that sends the stop.
import type { ToolCallView } from './sessionModel';

export interface SubagentMeta {
  /** The child's own session id (the agent's). */
  sessionId: string;
  /** Whether the agent lets the client stop the child's work (session/cancel on its id). */
  cancel: boolean;
  /** Its last state: running, requires_action, idle (with a stop reason), unknown. */
  state?: { state: string; stopReason?: string };
  /** Its work can be stopped now: the agent allows it and it works (the row shows Stop). */
  stoppable: boolean;
}

/** Whether a child in `state` whose agent grants `cancel` can be stopped now. */
export const canStop = (cancel: boolean, state: string | undefined) =>
  cancel && (state === 'running' || state === 'requires_action');

const subagentOf = (call: Pick<ToolCallView, 'meta'> | undefined) =>
  (call?.meta?.tandem as { subagent?: SubagentMeta } | undefined)?.subagent;

/** Whether the row stands for a child session whose work was stopped (cancelled, not done). */
export const stoppedChild = (call: Pick<ToolCallView, 'meta'>) => subagentOf(call)?.state?.stopReason === 'cancelled';

/** The child session a row stands for, when its work can be stopped now: the session id, else undefined. */
export function stoppableChild(call: Pick<ToolCallView, 'meta'> | undefined): string | undefined {
  const s = subagentOf(call);
  return s?.stoppable === true ? s.sessionId : undefined;
}
