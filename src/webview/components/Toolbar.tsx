// Above the tree: collapse all / expand all, and the filter by tool kind and status.
import { useState } from 'preact/hooks';
import type { Filter } from '../rows';
import { IconButton } from './IconButton';
import { KIND_ICON, KIND_LABEL, STATUS } from './ToolCallRow';

export function Toolbar({
  filter,
  setFilter,
  onCollapseAll,
  onExpandAll,
  active,
}: {
  filter: Filter;
  setFilter: (f: Filter) => void;
  onCollapseAll: () => void;
  onExpandAll: () => void;
  count: number;
  active: boolean;
}) {
  const [open, setOpen] = useState(false);
  const toggle = (set: 'kinds' | 'statuses', v: string) => {
    const n = new Set(filter[set]);
    if (n.has(v)) n.delete(v);
    else n.add(v);
    setFilter({ ...filter, [set]: n });
  };
  return (
    <div class="toolbar">
      <div class="toolbar-row" role="toolbar" aria-label="Conversation view">
        <IconButton
          icon="collapse-all"
          label="Collapse all"
          title="Collapse all"
          data-testid="collapse-all"
          onClick={onCollapseAll}
        />
        <IconButton
          icon="expand-all"
          label="Expand all"
          title="Expand all"
          data-testid="expand-all"
          onClick={onExpandAll}
        />
        <IconButton
          icon={active ? 'filter-filled' : 'filter'}
          class={active ? 'active' : undefined}
          label="Filter tool calls"
          title="Filter tool calls"
          aria-expanded={open}
          aria-pressed={active}
          data-testid="filter-toggle"
          onClick={() => setOpen(!open)}
        />
        {active && (
          <button
            type="button"
            class="link-button"
            onClick={() => setFilter({ kinds: new Set(), statuses: new Set() })}
          >
            Clear filter
          </button>
        )}
      </div>
      {open && (
        <div class="filter-panel" data-testid="filter-panel">
          <div class="filter-group" role="group" aria-label="Kind">
            {Object.keys(KIND_LABEL).map((k) => (
              <button
                key={k}
                type="button"
                class={`chip${filter.kinds.has(k) ? ' selected' : ''}`}
                aria-pressed={filter.kinds.has(k)}
                data-testid={`filter-kind-${k}`}
                onClick={() => toggle('kinds', k)}
              >
                <i class={`codicon codicon-${KIND_ICON[k]}`} aria-hidden="true" /> {KIND_LABEL[k]}
              </button>
            ))}
          </div>
          <div class="filter-group" role="group" aria-label="Status">
            {Object.keys(STATUS).map((s) => (
              <button
                key={s}
                type="button"
                class={`chip${filter.statuses.has(s) ? ' selected' : ''}`}
                aria-pressed={filter.statuses.has(s)}
                data-testid={`filter-status-${s}`}
                onClick={() => toggle('statuses', s)}
              >
                {STATUS[s].label}
              </button>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}
