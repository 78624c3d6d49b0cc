// Who the agent works as, in words (the header's chip and the sign-in banner say it alike).
import type { AgentAccountView } from '../shared/protocol';

/** The account as a sentence's words: label, then detail or email and organization. */
export function accountText(a: AgentAccountView): string {
  const more = [a.detail ?? a.email, a.organization].filter(Boolean).join(', ');
  return `${a.label}${more ? ` (${more})` : ''}`;
}
