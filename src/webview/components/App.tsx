import type { ViewModel } from '../mirror';
import { post } from '../vscodeApi';
import { Composer } from './Composer';
import { Transcript } from './Transcript';

export function App({ vm }: { vm: ViewModel }) {
  const { agent, session } = vm;
  const working = session?.meta.status === 'working';
  const banner = agent.state === 'error' || agent.state === 'exited' || agent.state === 'untrusted'
    ? agent.message
    : session?.meta.error;
  return (
    <div class="app">
      <header class="header">
        <span class={`agent-dot agent-${agent.state}`} aria-hidden="true" />
        <span class="agent-name" data-testid="agent-name">{agent.info?.title ?? agent.name ?? 'No agent'}</span>
        <span class="agent-state" data-testid="agent-state">{stateText(agent.state, working)}</span>
        {session?.meta.title && <span class="session-title" title={session.meta.title}>{session.meta.title}</span>}
        <span class="spacer" />
        <button class="icon-button" aria-label="New session" title="New session" onClick={() => post({ type: 'newSession' })}><i class="codicon codicon-add" aria-hidden="true" /></button>
        <button class="icon-button" aria-label="Restart agent" title="Restart agent" onClick={() => post({ type: 'restartAgent' })}><i class="codicon codicon-debug-restart" aria-hidden="true" /></button>
      </header>
      {banner && (
        <div class="banner error" role="alert" data-testid="error">
          <i class="codicon codicon-error" aria-hidden="true" />
          <pre class="banner-text">{banner}</pre>
          <div class="banner-actions">
            {agent.state !== 'untrusted' && <button class="button secondary" onClick={() => post({ type: 'restartAgent' })}>Restart agent</button>}
            <button class="button secondary" onClick={() => post({ type: 'showLog' })}>Show log</button>
          </div>
        </div>
      )}
      {agent.state === 'starting' && <p class="starting" data-testid="starting"><i class="codicon codicon-loading codicon-modifier-spin" aria-hidden="true" /> {agent.message ?? 'Starting the agent…'}</p>}
      {agent.state === 'none' && !session && (
        <div class="welcome">
          <p>No agent is configured.</p>
          <button class="button" onClick={() => post({ type: 'selectAgent' })}>Select an agent</button>
        </div>
      )}
      {session && <Transcript session={session} />}
      <Composer working={working} enabled={agent.state === 'ready' && !!session} />
    </div>
  );
}

function stateText(state: string, working: boolean): string {
  if (state === 'ready') return working ? 'working…' : 'idle';
  return { none: 'not started', untrusted: 'restricted', starting: 'starting…', error: 'error', exited: 'stopped' }[state] ?? state;
}
