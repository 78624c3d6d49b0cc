// The log line of every permission decision: when, which session and call, what it runs or
// touches, the answer, and who gave it (a rule, a remembered answer, the user, a cancel).
import type { PermissionDecisionView } from '../../shared/sessionModel';
import type { CallFacts } from './callFacts';

const BY: Record<PermissionDecisionView['by'], (rule?: string) => string> = {
  rule: (rule) => `by rule: ${rule}`,
  remembered: (rule) => `remembered: ${rule}`,
  user: () => 'by the user',
  cancelled: () => 'cancelled',
  agent: (rule) => `by the agent's own settings${rule ? `: ${rule}` : ''}`,
};

export function auditLine(sessionId: string, facts: CallFacts, d: PermissionDecisionView): string {
  const what = [facts.kind, facts.tool, facts.command !== undefined ? `\`${facts.command}\`` : facts.title]
    .filter(Boolean)
    .join(' ');
  const answer = d.outcome === 'cancelled' ? 'cancelled' : `${d.optionName ?? d.optionId} [${d.optionKind}]`;
  return `Permission ${new Date(d.at).toISOString()} session ${sessionId} tool call ${facts.toolCallId} (${what}) → ${answer}, ${BY[d.by](d.rule)}`;
}
