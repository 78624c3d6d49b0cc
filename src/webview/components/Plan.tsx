// The agent's plan: entries with status and priority, replaced in place on each `plan` update,
// pinned above the composer so it stays visible while the turn runs.
import { useState } from 'preact/hooks';
import type { PlanEntry } from '../../shared/sessionModel';

const ICON: Record<string, string> = {
  pending: 'circle-large-outline',
  in_progress: 'loading codicon-modifier-spin',
  completed: 'pass-filled',
};
const LABEL: Record<string, string> = { pending: 'Pending', in_progress: 'In progress', completed: 'Completed' };

export function Plan({ entries, working }: { entries: PlanEntry[]; working: boolean }) {
  const [open, setOpen] = useState<boolean | undefined>(undefined);
  if (!entries.length) return null;
  const done = entries.filter((e) => e.status === 'completed').length;
  const shown = open ?? (working || done < entries.length);
  return (
    <section class="plan" data-testid="plan" aria-label="Plan">
      <button type="button" class="plan-head" aria-expanded={shown} onClick={() => setOpen(!shown)}>
        <i class={`codicon codicon-chevron-${shown ? 'down' : 'right'}`} aria-hidden="true" />
        <i class="codicon codicon-checklist" aria-hidden="true" /> Plan{' '}
        <span class="muted">
          {done}/{entries.length} done
        </span>
      </button>
      {shown && (
        <ol class="plan-list">
          {entries.map((e, i) => (
            <li
              key={i}
              class={`plan-entry plan-${e.status}`}
              data-testid="plan-entry"
              data-status={e.status}
              data-priority={e.priority}
            >
              <i
                class={`codicon codicon-${ICON[e.status] ?? 'circle-large-outline'}`}
                role="img"
                aria-label={LABEL[e.status] ?? e.status}
              />
              <span class="plan-content">{e.content}</span>
              {e.priority !== 'medium' && (
                <span class={`badge prio-${e.priority}`} title={`${e.priority} priority`}>
                  {e.priority}
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
