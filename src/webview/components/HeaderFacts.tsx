// The header's facts from the agent's `_meta` channels, in a chunk of their own (they show once the
// agent reports them): the usage meter (usage_update and the last turn's `_meta.quota`) and who
// the agent works as (`_auth/status_update`).
import { money } from '../../shared/money';
import type { AgentAccountView } from '../../shared/protocol';
import type { SessionMeta, TurnUsageView } from '../../shared/sessionModel';
import { accountText } from '../account';

/** Context used of its size and the cost so far (usage_update), and what the last turn spent (its `_meta.quota`). */
export function Usage({ context, turn }: { context?: SessionMeta['usage']; turn?: TurnUsageView }) {
  const pct = context && context.size > 0 ? Math.round((context.used / context.size) * 100) : 0;
  const k = (n: number) =>
    n >= 1_000_000
      ? `${+(n / 1_000_000).toFixed(1)}M`
      : n >= 1000
        ? `${(n / 1000).toFixed(n >= 100_000 ? 0 : 1)}k`
        : String(n);
  const cost = context?.cost ?? undefined;
  const lines = [
    context && `Context: ${context.used.toLocaleString()} of ${context.size.toLocaleString()} tokens (${pct}%)`,
    cost && `Cost so far: ${money(cost, 4)}`,
    turn &&
      `Last turn: ${turn.total.toLocaleString()} tokens (${turn.input.toLocaleString()} in, ${turn.output.toLocaleString()} out${turn.cachedRead ? `, ${turn.cachedRead.toLocaleString()} from cache` : ''}${turn.cachedWrite ? `, ${turn.cachedWrite.toLocaleString()} cached` : ''})`,
  ].filter(Boolean);
  return (
    <span class="usage muted" data-testid="usage" title={lines.join('\n')}>
      {context && (
        <>
          <span class="usage-bar" aria-hidden="true">
            <span class={`usage-fill${pct > 85 ? ' high' : ''}`} style={{ width: `${Math.min(100, pct)}%` }} />
          </span>
          <span data-testid="usage-context">
            {k(context.used)}/{k(context.size)}
          </span>
        </>
      )}
      {cost && <span class="usage-cost"> · {money(cost, 2)}</span>}
      {turn && (
        <span class="usage-turn" data-testid="usage-turn">
          {context || cost ? ' · ' : ''}
          {k(turn.total)} tokens last turn
        </span>
      )}
    </span>
  );
}

/** Who the agent works as (`_auth/status_update`); signed out, a button to sign in. */
export function Account({ account, signIn }: { account: AgentAccountView; signIn: () => void }) {
  if (account.kind === 'none')
    return (
      <button class="link-button agent-account signed-out" data-testid="agent-account" onClick={signIn}>
        <i class="codicon codicon-account" aria-hidden="true" /> {account.label}: sign in…
      </button>
    );
  return (
    <span class="agent-account muted" data-testid="agent-account" title={`Works as ${accountText(account)}`}>
      <i class="codicon codicon-account" aria-hidden="true" /> {account.label}
    </span>
  );
}
