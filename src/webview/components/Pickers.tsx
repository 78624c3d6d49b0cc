// The session's pickers under the composer: the mode (unless a config option covers it) and
// each config option (a select, or a checkbox for a boolean), sent as setMode / setConfigOption;
// options other than mode and model open from a settings button.
import type { SessionConfigOption, SessionMode } from '@agentclientprotocol/sdk';
import { useState } from 'preact/hooks';
import { useHost } from '../host';
import { IconButton } from './IconButton';

export interface PickersProps {
  modes: SessionMode[];
  currentModeId?: string;
  configOptions: SessionConfigOption[];
  enabled: boolean;
}

/**
 * The text of a picker's option. A closed select shows only the chosen option: "Manual" or
 * "Opus" explain themselves, but claude-agent-acp's effort and fast-mode pickers would read
 * "Default", "Off", "Off". Options outside the mode and model categories carry their name.
 */
export function optionLabel(o: { name: string; category?: unknown }, value: string): string {
  return o.category === 'mode' || o.category === 'model' ? value : `${o.name}: ${value}`;
}

/** What an option is set to, in words ("Fast mode: Off"): the closed settings button's tooltip. */
function currentLabel(o: SessionConfigOption): string {
  type Choice = { value?: string; name: string; options?: Choice[] };
  const x = o as { currentValue?: unknown; options?: Choice[] };
  const all = (x.options ?? []).flatMap((g): Choice[] => g.options ?? [g]);
  const v = all.find((c) => c.value === x.currentValue)?.name ?? String(x.currentValue ?? '');
  return optionLabel(o, v);
}

/** ACP: when config options cover the mode (category "mode"), clients use them instead of
 *  `modes`; codex-acp sends both, which showed the same picker twice. */
export function modePickerShown(p: Pick<PickersProps, 'modes' | 'configOptions'>): boolean {
  return p.modes.length > 0 && !p.configOptions.some((o) => (o as { category?: unknown }).category === 'mode');
}

export function Pickers(p: PickersProps) {
  const { post } = useHost();
  const [open, setOpen] = useState(false);
  const configSelect = (o: SessionConfigOption) => {
    const x = o as SessionConfigOption & { type?: string; currentValue?: unknown; options?: unknown[] };
    if (x.type === 'boolean' || typeof x.currentValue === 'boolean') {
      return (
        <label key={o.id} class="picker-check" title={o.description ?? o.name}>
          <input
            type="checkbox"
            checked={!!x.currentValue}
            disabled={!p.enabled}
            data-testid={`config-${o.id}`}
            onChange={(e) =>
              post({ type: 'setConfigOption', configId: o.id, value: (e.target as HTMLInputElement).checked })
            }
          />{' '}
          {o.name}
        </label>
      );
    }
    const opts = (x.options ?? []) as (
      { value: string; name: string } | { group: string; name: string; options: { value: string; name: string }[] }
    )[];
    return (
      <select
        key={o.id}
        class="picker"
        aria-label={o.name}
        title={o.description ?? o.name}
        value={String(x.currentValue ?? '')}
        disabled={!p.enabled}
        data-testid={`config-${o.id}`}
        onChange={(e) =>
          post({ type: 'setConfigOption', configId: o.id, value: (e.target as HTMLSelectElement).value })
        }
      >
        {opts.map((g) =>
          'group' in g ? (
            <optgroup key={g.group} label={g.name}>
              {g.options.map((v) => (
                <option key={v.value} value={v.value}>
                  {optionLabel(x, v.name)}
                </option>
              ))}
            </optgroup>
          ) : (
            <option key={g.value} value={g.value}>
              {optionLabel(x, g.name)}
            </option>
          ),
        )}
      </select>
    );
  };

  // Mode and model stay in view; the rest (claude-agent-acp: effort, fast mode, ultracode) sit
  // behind one button, so five pickers take one row, not five.
  const main = (o: SessionConfigOption) => ['mode', 'model'].includes((o as { category?: string }).category ?? '');
  const more = p.configOptions.filter((o) => !main(o));
  return (
    <div class="pickers">
      {modePickerShown(p) && (
        <select
          class="picker"
          aria-label="Mode"
          title="Mode"
          value={p.currentModeId ?? ''}
          disabled={!p.enabled}
          data-testid="mode-picker"
          onChange={(e) => post({ type: 'setMode', modeId: (e.target as HTMLSelectElement).value })}
        >
          {p.modes.map((m) => (
            <option key={m.id} value={m.id} title={m.description ?? undefined}>
              {m.name}
            </option>
          ))}
        </select>
      )}
      {p.configOptions.filter(main).map(configSelect)}
      {more.length > 0 && (
        <IconButton
          icon="settings"
          label={`${open ? 'Hide' : 'Show'} ${more.length} more options`}
          title={more.map(currentLabel).join(' · ')}
          aria-expanded={open}
          data-testid="more-pickers"
          onClick={() => setOpen(!open)}
        />
      )}
      {open && more.map(configSelect)}
    </div>
  );
}
