import type { SessionTab } from '../../shared/protocol';
import { useHost } from '../host';
import { IconButton } from './IconButton';

/** The open sessions as tabs: click to switch, × to close; a spinner marks one that is working. */
export function SessionTabs({ sessions, activeId }: { sessions: SessionTab[]; activeId?: string }) {
  const { post } = useHost();
  return (
    <div class="session-tabs" role="tablist" aria-label="Open sessions" data-testid="session-tabs">
      {sessions.map((s, i) => {
        const active = s.sessionId === activeId;
        const label = s.title || `Session ${i + 1}`;
        return (
          <div class={`session-tab${active ? ' active' : ''}`} key={s.sessionId}>
            <button
              role="tab"
              aria-selected={active}
              class="session-tab-label"
              title={label}
              data-testid="session-tab"
              onClick={() => post({ type: 'switchSession', sessionId: s.sessionId })}
            >
              {s.status === 'working' && (
                <i class="codicon codicon-loading codicon-modifier-spin" aria-label="working" />
              )}
              {s.status === 'disconnected' && <i class="codicon codicon-debug-disconnect" aria-label="disconnected" />}
              {label}
            </button>
            <IconButton
              icon="close"
              class="session-tab-close"
              label={`Close ${label}`}
              title="Close session"
              onClick={() => post({ type: 'closeSession', sessionId: s.sessionId })}
            />
          </div>
        );
      })}
    </div>
  );
}
