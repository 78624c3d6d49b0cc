import { forkable } from '../../shared/fork';
import type { TurnUsageView, TurnView } from '../../shared/sessionModel';
import type { ViewModel } from '../mirror';
import { useHost } from '../host';
import { emptySession as EmptySession, lazyComponent, planView } from '../lazy';
import { memo } from '../memo';
import { RootsContext } from '../toolTitle';
import { Composer as ComposerView } from './Composer';
import { PermissionCards } from './PermissionPrompt';
import { IconButton } from './IconButton';
import { Transcript } from './Transcript';
import { accountText } from '../account';

// Patches re-render App once per frame; the composer and the plan only change with the meta.
const Composer = memo(ComposerView);
const Plan = memo(planView);

/** Rare or only-sometimes parts load on first use: forms (with the schema validator), the prompt queue. */
const LazyElicitations = lazyComponent(() => import('./ElicitationForm').then((m) => m.ElicitationCards));
const LazyQueue = lazyComponent(() => import('./QueueList').then((m) => m.default));
/** Tabs show only with two sessions or more (the eager bundle is at its budget); preloaded when idle. */
export const SessionTabs = lazyComponent(() => import('./SessionTabs.js').then((m) => m.SessionTabs));
/** The usage meter and the account chip: they show once the agent reports usage or an account. */
const Usage = lazyComponent(() => import('./HeaderFacts.js').then((m) => m.Usage));
const Account = lazyComponent(() => import('./HeaderFacts.js').then((m) => m.Account));

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
