import { useEffect, useRef } from 'preact/hooks';
import type { SessionTab } from '../../shared/protocol';
import { useHost } from '../host';
import { IconButton } from './IconButton';

/**
 * Each tab's label: its title (or "Session N"), led by its agent's name when sessions of several
 * agents are open, with " (2)", " (3)"… on labels already used.
 */
export function tabLabels(sessions: readonly SessionTab[]): string[] {
  const seen = new Map<string, number>();
  const agents = new Set(sessions.map((s) => s.agentName));
  // An untitled session is numbered among its agent's sessions: "Beta · Session 1", not 2.
  const numbered = new Map<string | undefined, number>();
  return sessions.map((s) => {
    const index = (numbered.get(s.agentName) ?? 0) + 1;
    numbered.set(s.agentName, index);
    const title = s.title || `Session ${index}`;
    const t = agents.size > 1 && s.agentName ? `${s.agentName} · ${title}` : title;
    const n = (seen.get(t) ?? 0) + 1;
    seen.set(t, n);
    return n > 1 ? `${t} (${n})` : t;
  });
}

/**
 * The open sessions as tabs: click to switch, × to close; a spinner marks one that is working.
 * The strip scrolls sideways (also with the wheel) and keeps the active tab in view; the list
 * button at its end reaches every session however many there are.
 */
export function SessionTabs({
  sessions,
  activeId,
  activeAgent,
}: {
  sessions: SessionTab[];
  activeId?: string;
  /** The shown session's agent: two agents may give their sessions the same id. */
  activeAgent?: string;
}) {
  const { post } = useHost();
  const strip = useRef<HTMLDivElement>(null);
  const labels = tabLabels(sessions);
  const key = (s: SessionTab) => `${s.agentName ?? ''}\u0000${s.sessionId}`;
  const isActive = (s: SessionTab) =>
    s.sessionId === activeId && (activeAgent === undefined || s.agentName === undefined || s.agentName === activeAgent);
  const activeKey = sessions.find(isActive);
  const show = (s: SessionTab | undefined) =>
    s && post({ type: 'switchSession', sessionId: s.sessionId, ...(s.agentName ? { agentName: s.agentName } : {}) });
  useEffect(() => {
    strip.current?.querySelector('.session-tab.active')?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
    // (A title can arrive after the tab: its width changes, so the labels are a dependency too.)
  }, [activeId, activeAgent, labels.join('\n')]);
  return (
    <div class="session-tabs" data-testid="session-tabs">
      <div
        ref={strip}
        class="session-tab-strip"
        role="tablist"
        aria-label="Open sessions"
        onWheel={(e) => {
          if (e.deltaX || !strip.current) return;
          strip.current.scrollLeft += e.deltaY;
        }}
      >
        {sessions.map((s, i) => {
          const active = s === activeKey;
          return (
            <div class={`session-tab${active ? ' active' : ''}`} key={key(s)}>
              <button
                role="tab"
                aria-selected={active}
                class="session-tab-label"
                title={`${labels[i]}${s.place ? ` — in its worktree on ${s.place}` : ''}${s.forkOf ? ` — forked from ${s.forkOf}` : ''}`}
                data-testid="session-tab"
                onClick={() => show(s)}
              >
                {s.status === 'working' && (
                  <i class="codicon codicon-loading codicon-modifier-spin" aria-label="working" />
                )}
                {s.status === 'disconnected' && (
                  <i class="codicon codicon-debug-disconnect" aria-label="disconnected" />
                )}
                {s.place && <i class="codicon codicon-git-branch" aria-label="in a worktree" />}
                {s.forkOf && <i class="codicon codicon-repo-forked" aria-label="forked" data-testid="tab-forked" />}
                {labels[i]}
              </button>
              <IconButton
                icon="close"
                class="session-tab-close"
                label={`Close ${labels[i]}`}
                title="Close session"
                onClick={() =>
                  post({
                    type: 'closeSession',
                    sessionId: s.sessionId,
                    ...(s.agentName ? { agentName: s.agentName } : {}),
                  })
                }
              />
            </div>
          );
        })}
      </div>
      {/* The list icon with a native select over it: every session, keyboard and screen-reader ready. */}
      <span class="session-list icon-button" title="All open sessions">
        <i class="codicon codicon-list-selection" aria-hidden="true" />
        <select
          aria-label="All open sessions"
          data-testid="session-list"
          value={activeKey ? key(activeKey) : undefined}
          onChange={(e) => show(sessions.find((s) => key(s) === (e.target as HTMLSelectElement).value))}
        >
          {sessions.map((s, i) => (
            <option key={key(s)} value={key(s)}>
              {labels[i]}
            </option>
          ))}
        </select>
      </span>
    </div>
  );
}
