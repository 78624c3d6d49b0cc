import { forkable } from '../../shared/fork';
import type { AgentAccountView } from '../../shared/protocol';
import type { SessionMeta, TurnUsageView, TurnView } from '../../shared/sessionModel';
import type { ViewModel } from '../mirror';
import { useHost } from '../host';
import { emptySession as EmptySession, lazyComponent, planView } from '../lazy';
import { memo } from '../memo';
import { RootsContext } from '../toolTitle';
import { Composer as ComposerView } from './Composer';
import { PermissionCards } from './PermissionPrompt';
import { IconButton } from './IconButton';
import { Transcript } from './Transcript';

// Patches re-render App once per frame; the composer and the plan only change with the meta.
const Composer = memo(ComposerView);
const Plan = memo(planView);

/** Rare or only-sometimes parts load on first use: forms (with the schema validator), the prompt queue. */
const LazyElicitations = lazyComponent(() => import('./ElicitationForm').then((m) => m.ElicitationCards));
const LazyQueue = lazyComponent(() => import('./QueueList').then((m) => m.default));
/** Tabs show only with two sessions or more (the eager bundle is at its budget); preloaded when idle. */
export const SessionTabs = lazyComponent(() => import('./SessionTabs.js').then((m) => m.SessionTabs));

/** The view of `vm`; paths and titles in it are relative to its workspace folders. */
export function App({ vm }: { vm: ViewModel }) {
  return (
    <RootsContext.Provider value={vm.workspaceRoots}>
      <View vm={vm} />
    </RootsContext.Provider>
  );
}

function View({ vm }: { vm: ViewModel }) {
  const { post } = useHost();
  const { agent, session } = vm;
  const working = session?.meta.status === 'working';
  const banner =
    agent.state === 'error' || agent.state === 'exited' || agent.state === 'untrusted'
      ? agent.message
      : session?.meta.error;
  const usage = session?.meta.usage;
  const turnUsage = session ? lastTurnUsage(session.turns) : undefined;
  // A session in a git worktree of its own: its branch, beside its title.
  const place = vm.sessions.find(
    (s) => s.sessionId === session?.meta.sessionId && (!s.agentName || s.agentName === agent.name),
  )?.place;
  return (
    <div class="app">
      <header class="header">
        <span class={`agent-dot agent-${agent.state}`} aria-hidden="true" />
        <span class="agent-name" data-testid="agent-name">
          {agent.info?.title ?? agent.name ?? 'No agent'}
        </span>
        <span class="agent-state" data-testid="agent-state">
          {stateText(agent.state, working)}
        </span>
        {agent.account && <Account account={agent.account} signIn={() => post({ type: 'signIn' })} />}
        <span class="spacer" />
        {/* New session and Open session live in the view's title bar, where VS Code puts a view's actions. */}
        <IconButton
          icon="debug-restart"
          label="Restart agent"
          title="Restart agent"
          onClick={() => post({ type: 'restartAgent' })}
        />
      </header>
      {vm.sessions.length > 1 && (
        <SessionTabs sessions={vm.sessions} activeId={session?.meta.sessionId} activeAgent={agent.name} />
      )}
      {(session?.meta.title || usage || turnUsage || place) && (
        <div class="subheader">
          {place && (
            <span class="session-place" data-testid="session-place" title={`Works in its own git worktree on ${place}`}>
              <i class="codicon codicon-git-branch" aria-hidden="true" />
              {place}
            </span>
          )}
          {session?.meta.title && (
            <span class="session-title" data-testid="session-title" title={session.meta.title}>
              {session.meta.title}
            </span>
          )}
          <span class="spacer" />
          {(usage || turnUsage) && <Usage context={usage} turn={turnUsage} />}
        </div>
      )}
      {banner && (
        <div class="banner error" role="alert" data-testid="error">
          <i class="codicon codicon-error" aria-hidden="true" />
          <pre class="banner-text">{banner}</pre>
          <div class="banner-actions">
            {agent.state !== 'untrusted' && (
              <button class="button secondary" onClick={() => post({ type: 'restartAgent' })}>
                Restart agent
              </button>
            )}
            <button class="button secondary" onClick={() => post({ type: 'showLog' })}>
              Show log
            </button>
          </div>
        </div>
      )}
      {agent.state === 'auth' && (
        <div class="banner info" role="alert" data-testid="sign-in">
          <i class="codicon codicon-account" aria-hidden="true" />
          <p class="banner-text">
            {agent.message ?? 'The agent needs you to sign in.'}
            {agent.account && agent.account.kind !== 'none' && ` It reports ${accountText(agent.account)}.`}
          </p>
          <div class="banner-actions">
            {!!agent.authMethods?.length && (
              <button class="button" data-testid="sign-in-button" onClick={() => post({ type: 'signIn' })}>
                Sign in…
              </button>
            )}
            <button class="button secondary" onClick={() => post({ type: 'restartAgent' })}>
              Restart agent
            </button>
          </div>
        </div>
      )}
      {agent.state === 'starting' && (
        <p class="starting" data-testid="starting">
          <i class="codicon codicon-loading codicon-modifier-spin" aria-hidden="true" />{' '}
          {agent.message ?? 'Starting the agent…'}
        </p>
      )}
      {agent.state === 'none' && !session && (
        <div class="welcome">
          <p>No agent is running.</p>
          <button class="button" onClick={() => post({ type: 'selectAgent' })}>
            Select an agent
          </button>
        </div>
      )}
      {session && session.turns.length === 0 && agent.state === 'ready' && (
        <EmptySession
          agent={agent}
          onSend={(text) => post({ type: 'prompt', text })}
          onSelectAgent={() => post({ type: 'selectAgent' })}
        />
      )}
      {session ? (
        <Transcript
          key={session.meta.sessionId}
          session={session}
          toolsVersion={vm.toolsVersion}
          working={working}
          fork={forkable(agent, session.meta.status, session.turns.length)}
        />
      ) : (
        <div class="transcript-wrap" />
      )}
      {/* The host sends the shown session's queue, again with every new snapshot. */}
      {!!vm.queue?.items.length && <LazyQueue queue={vm.queue} working={working} />}
      {session && session.meta.plan.length > 0 && <Plan entries={session.meta.plan} working={working} />}
      {session && <PermissionCards session={session} />}
      {session && !!session.elicitations?.length && <LazyElicitations session={session} />}
      <Composer
        working={working}
        enabled={agent.state === 'ready' && !!session}
        waiting={agent.state === 'starting' && session ? agent.message : undefined}
        commands={session?.meta.commands ?? []}
        modes={session?.meta.modes ?? []}
        currentModeId={session?.meta.currentModeId}
        configOptions={session?.meta.configOptions ?? []}
        caps={agent.promptCapabilities}
        sessionId={session?.meta.sessionId}
      />
    </div>
  );
}

/** Context used of its size and the cost so far (usage_update), and what the last turn spent (its `_meta.quota`). */
function Usage({ context, turn }: { context?: SessionMeta['usage']; turn?: TurnUsageView }) {
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
function Account({ account, signIn }: { account: AgentAccountView; signIn: () => void }) {
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

function accountText(a: AgentAccountView): string {
  const more = [a.detail ?? a.email, a.organization].filter(Boolean).join(', ');
  return `${a.label}${more ? ` (${more})` : ''}`;
}

/** An amount in its unit; a sum too small for `digits` says so instead of showing 0. */
function money(cost: { amount: number; currency: string }, digits: number): string {
  const [sign, unit] = cost.currency === 'USD' ? ['$', ''] : ['', ` ${cost.currency}`];
  const min = 10 ** -digits;
  if (cost.amount > 0 && cost.amount < min) return `<${sign}${min.toFixed(digits)}${unit}`;
  return `${sign}${cost.amount.toFixed(digits)}${unit}`;
}

/** What the last turn that reported it spent. */
function lastTurnUsage(turns: readonly (TurnView | undefined)[]): TurnUsageView | undefined {
  for (let i = turns.length - 1; i >= 0; i--) if (turns[i]?.usage) return turns[i]!.usage;
  return undefined;
}

function stateText(state: string, working: boolean): string {
  if (state === 'ready') return working ? 'working…' : 'idle';
  return (
    {
      none: 'not started',
      untrusted: 'restricted',
      starting: 'starting…',
      auth: 'sign-in needed',
      error: 'error',
      exited: 'stopped',
    }[state] ?? state
  );
}
