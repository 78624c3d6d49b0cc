// The comparison panel's messages (vscode/worktrees/comparisonPanel.ts ↔ media/comparison.js).
// The page renders agent output, so what it posts is checked here before the host acts: only the
// known types, no other fields, and a session id that is one of the comparison's. Anything else is
// refused with a reason, which the host logs.

/** What a column's buttons ask for; each names the column's session. */
export type ComparisonAction = 'showSession' | 'review' | 'runTests' | 'apply';
export const COMPARISON_ACTIONS: readonly ComparisonAction[] = ['showSession', 'review', 'runTests', 'apply'];

/** Page → host. */
export type FromComparison = { type: 'ready' } | { type: 'refresh' } | { type: ComparisonAction; sessionId: string };

/** Host → page: the header's and each column's HTML, already escaped (comparisonHtml.ts). */
export interface ToComparison {
  type: 'render';
  /** Kept in the page's state: a reload's serializer finds the comparison by it. */
  comparisonId: string;
  header: string;
  columns: { id: string; html: string }[];
}

const isAction = (v: unknown): v is ComparisonAction => COMPARISON_ACTIONS.includes(v as ComparisonAction);

/** The message, or a string saying why it is refused. */
export function parseFromComparison(msg: unknown, sessionIds: readonly string[]): FromComparison | string {
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return 'message is not an object';
  const m = msg as Record<string, unknown>;
  const type = m.type;
  const allowed = type === 'ready' || type === 'refresh' ? ['type'] : ['type', 'sessionId'];
  const extra = Object.keys(m).find((k) => !allowed.includes(k));
  if (type === 'ready' || type === 'refresh') return extra ? `${type}: unexpected field ${extra}` : { type };
  if (!isAction(type)) return `unknown message type ${JSON.stringify(String(type)).slice(0, 60)}`;
  if (extra) return `${type}: unexpected field ${extra.slice(0, 60)}`;
  if (typeof m.sessionId !== 'string') return `${type}: sessionId must be a string`;
  if (!sessionIds.includes(m.sessionId))
    return `${type}: session ${m.sessionId.slice(0, 80)} is not in this comparison`;
  return { type, sessionId: m.sessionId };
}
