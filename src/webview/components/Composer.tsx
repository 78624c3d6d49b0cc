// The composer: multi-line input (Enter sends, Shift+Enter new line, Esc cancels a running
// turn), slash-command completion with input hints, @-mention of workspace files, the editor
// selection and pasted images as attachments, and the mode / config option pickers.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { AvailableCommand, SessionConfigOption, SessionMode } from '@agentclientprotocol/sdk';
import { MAX_SEARCH_QUERY, type FileHit, type PromptCaps } from '../../shared/protocol';
import { useHost } from '../host';
import { loadDraft, saveDraft, type DraftChip } from '../draft';

export interface ComposerProps {
  working: boolean;
  enabled: boolean;
  commands: AvailableCommand[];
  modes: SessionMode[];
  currentModeId?: string;
  configOptions: SessionConfigOption[];
  caps?: PromptCaps;
}

type Chip = DraftChip;
type Popup =
  | { kind: 'command'; items: AvailableCommand[]; sel: number }
  | { kind: 'file'; items: FileHit[]; sel: number; start: number; query: string };

let nextId = 1;
const MAX_IMAGE_BYTES = 6 * 1024 * 1024;

/**
 * The text of a picker's option. A closed select shows only the chosen option: "Manual" or
 * "Opus" explain themselves, but claude-agent-acp's effort and fast-mode pickers would read
 * "Default", "Off", "Off". Options outside the mode and model categories carry their name.
 */
export function optionLabel(o: { name: string; category?: unknown }, value: string): string {
  return o.category === 'mode' || o.category === 'model' ? value : `${o.name}: ${value}`;
}

/** ACP: when config options cover the mode (category "mode"), clients use them instead of
 *  `modes`; codex-acp sends both, which showed the same picker twice. */
export function modePickerShown(p: Pick<ComposerProps, 'modes' | 'configOptions'>): boolean {
  return p.modes.length > 0 && !p.configOptions.some((o) => (o as { category?: unknown }).category === 'mode');
}

export function Composer(p: ComposerProps) {
  const host = useHost();
  const { post } = host;
  const [draft] = useState(() => loadDraft(host.state));
  const [text, setText] = useState(draft.text);
  const [chips, setChips] = useState<Chip[]>(draft.chips);
  const [popup, setPopup] = useState<Popup | undefined>(undefined);
  const [note, setNote] = useState('');
  const ref = useRef<HTMLTextAreaElement>(null);
  const search = useRef(0);
  const caret = useRef(0);

  useEffect(() => {
    for (const c of draft.chips) nextId = Math.max(nextId, c.id + 1);
  }, []);
  useEffect(() => saveDraft(host.state, { text, chips }), [text, chips]);

  const searchFiles = (query: string) => {
    const id = ++search.current;
    host.request('searchFiles', { query }).then(
      (files) => {
        if (id !== search.current) return; // a later search is on its way
        setPopup((cur) => (cur?.kind === 'file' ? { ...cur, items: files, sel: 0 } : cur));
      },
      (err: Error) => {
        if (id === search.current) setNote(`File search failed: ${err.message}`);
      },
    );
  };

  const attachSelection = () => {
    host.request('attachSelection', {}).then(
      ({ attachment: a, preview }) => {
        if (!a) return; // the host told the user to select something
        const name = a.path.split(/[\\/]/).pop() ?? a.path;
        const lines = `${a.startLine}${a.endLine !== a.startLine ? `-${a.endLine}` : ''}`;
        setChips((c) => [...c, { id: nextId++, att: a, label: `${name}:${lines}`, title: preview }]);
      },
      (err: Error) => setNote(`Could not attach the selection: ${err.message}`),
    );
  };

  const command = (() => {
    const m = /^\/(\S+)(\s|$)/.exec(text);
    return m ? p.commands.find((c) => c.name === m[1]) : undefined;
  })();
  const hint =
    command?.input && 'hint' in command.input && !text.slice(command.name.length + 2).trim()
      ? command.input.hint
      : undefined;

  const updatePopup = (value: string, pos: number) => {
    caret.current = pos;
    const before = value.slice(0, pos);
    const slash = /^\/(\S*)$/.exec(before);
    if (slash && p.commands.length) {
      const q = slash[1].toLowerCase();
      const items = p.commands.filter(
        (c) => c.name.toLowerCase().startsWith(q) || (q.length > 1 && c.name.toLowerCase().includes(q)),
      );
      setPopup(items.length ? { kind: 'command', items, sel: 0 } : undefined);
      return;
    }
    const at = /(^|\s)@([^\s@]*)$/.exec(before);
    if (at && at[2].length <= MAX_SEARCH_QUERY) {
      const start = pos - at[2].length - 1;
      searchFiles(at[2]);
      setPopup((cur) => ({ kind: 'file', items: cur?.kind === 'file' ? cur.items : [], sel: 0, start, query: at[2] }));
      return;
    }
    setPopup(undefined);
  };

  const accept = (i?: number) => {
    if (!popup) return;
    const idx = i ?? popup.sel;
    if (popup.kind === 'command') {
      const c = popup.items[idx];
      if (!c) return;
      const rest = text.replace(/^\/\S*\s?/, '');
      const v = `/${c.name} ${rest}`;
      setText(v);
      setPopup(undefined);
      requestAnimationFrame(() => {
        const el = ref.current;
        if (el) {
          el.focus();
          el.selectionStart = el.selectionEnd = c.name.length + 2;
        }
      });
    } else {
      const f = popup.items[idx];
      if (!f) return;
      const mention = `@${f.label}`;
      const v = text.slice(0, popup.start) + mention + ' ' + text.slice(caret.current);
      setText(v);
      setChips((c) => [
        ...c,
        { id: nextId++, att: { kind: 'file', path: f.path }, label: f.label, title: f.path, mention },
      ]);
      setPopup(undefined);
      const pos = popup.start + mention.length + 1;
      requestAnimationFrame(() => {
        const el = ref.current;
        if (el) {
          el.focus();
          el.selectionStart = el.selectionEnd = pos;
        }
      });
    }
  };

  const send = () => {
    if (working() || !p.enabled) return;
    // A mention deleted from the text is no longer attached.
    const atts = chips.filter((c) => !c.mention || text.includes(c.mention)).map((c) => c.att);
    if (!text.trim() && !atts.length) return;
    post(atts.length ? { type: 'prompt', text, attachments: atts } : { type: 'prompt', text });
    setText('');
    setChips([]);
    setPopup(undefined);
    setNote('');
  };
  const working = () => p.working;

  const onKeyDown = (e: KeyboardEvent) => {
    if (popup && popup.items.length) {
      if (e.key === 'ArrowDown') {
        e.preventDefault();
        setPopup({ ...popup, sel: (popup.sel + 1) % popup.items.length } as Popup);
        return;
      }
      if (e.key === 'ArrowUp') {
        e.preventDefault();
        setPopup({ ...popup, sel: (popup.sel - 1 + popup.items.length) % popup.items.length } as Popup);
        return;
      }
      if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') {
        e.preventDefault();
        accept();
        return;
      }
    }
    if (e.key === 'Escape') {
      if (popup) {
        e.preventDefault();
        setPopup(undefined);
        return;
      }
      if (p.working) {
        e.preventDefault();
        post({ type: 'cancel' });
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      send();
    }
  };

  const onPaste = (e: ClipboardEvent) => {
    const items = [...(e.clipboardData?.items ?? [])].filter(
      (i) => i.kind === 'file' && /^image\/(png|jpeg|gif|webp)$/.test(i.type),
    );
    if (!items.length) return;
    e.preventDefault();
    if (!p.caps?.image) {
      setNote('This agent does not accept images.');
      return;
    }
    for (const it of items) {
      const file = it.getAsFile();
      if (!file) continue;
      if (file.size > MAX_IMAGE_BYTES) {
        setNote('That image is too large (6 MB at most).');
        continue;
      }
      const r = new FileReader();
      r.onload = () => {
        const url = String(r.result);
        const data = url.slice(url.indexOf(',') + 1);
        setChips((c) => [
          ...c,
          {
            id: nextId++,
            att: { kind: 'image', mimeType: it.type, data },
            label: `image (${Math.round(file.size / 1024)} KB)`,
          },
        ]);
      };
      r.readAsDataURL(file);
    }
  };

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

  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      {popup && popup.items.length > 0 && (
        <ul
          class="completion"
          role="listbox"
          id="composer-completion"
          data-testid={popup.kind === 'command' ? 'command-completion' : 'file-completion'}
          aria-label={popup.kind === 'command' ? 'Commands' : 'Files'}
        >
          {popup.kind === 'command'
            ? popup.items.map((c, i) => (
                <li
                  key={c.name}
                  id={`cmp-${i}`}
                  role="option"
                  aria-selected={i === popup.sel}
                  class={i === popup.sel ? 'selected' : ''}
                  data-testid="completion-item"
                  onMouseDown={(e) => {
                    e.preventDefault();
                    accept(i);
                  }}
                >
                  <span class="cmp-name">/{c.name}</span> <span class="muted">{c.description}</span>
                </li>
              ))
            : popup.items.map((f, i) => (
                <li
                  key={f.path}
                  id={`cmp-${i}`}
                  role="option"
                  aria-selected={i === popup.sel}
                  class={i === popup.sel ? 'selected' : ''}
                  data-testid="completion-item"
                  onMouseDown={(e) => {
                    e.preventDefault();
                    accept(i);
                  }}
                >
                  <i class="codicon codicon-file" aria-hidden="true" /> <span class="cmp-name">{f.label}</span>{' '}
                  <span class="muted">{f.description}</span>
                </li>
              ))}
        </ul>
      )}
      {chips.length > 0 && (
        <div class="attachments" aria-label="Attachments">
          {chips.map((c) => (
            <span key={c.id} class="chip attachment" title={c.title} data-testid="attachment" data-kind={c.att.kind}>
              {c.att.kind === 'image' ? (
                <img class="attachment-thumb" src={`data:${c.att.mimeType};base64,${c.att.data}`} alt="" />
              ) : (
                <i class={`codicon codicon-${c.att.kind === 'selection' ? 'selection' : 'file'}`} aria-hidden="true" />
              )}
              {c.label}
              <button
                type="button"
                class="icon-button small"
                aria-label={`Remove ${c.label}`}
                onClick={() => setChips(chips.filter((x) => x.id !== c.id))}
              >
                <i class="codicon codicon-close" aria-hidden="true" />
              </button>
            </span>
          ))}
        </div>
      )}
      <textarea
        ref={ref}
        data-testid="composer-input"
        aria-label="Message the agent"
        aria-autocomplete="list"
        aria-controls={popup ? 'composer-completion' : undefined}
        aria-activedescendant={popup && popup.items.length ? `cmp-${popup.sel}` : undefined}
        placeholder={
          p.enabled
            ? 'Ask the agent… (/ for commands, @ for files; Enter to send, Shift+Enter for a new line)'
            : 'The agent is not running'
        }
        rows={3}
        value={text}
        disabled={!p.enabled}
        onInput={(e) => {
          const el = e.target as HTMLTextAreaElement;
          setText(el.value);
          updatePopup(el.value, el.selectionStart);
        }}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        onBlur={() => setTimeout(() => setPopup(undefined), 150)}
      />
      {hint && (
        <div class="command-hint muted" data-testid="command-hint">
          /{command!.name} {hint}
        </div>
      )}
      {note && (
        <div class="composer-note" role="status">
          {note}
        </div>
      )}
      <div class="composer-actions">
        {/* The pickers wrap onto more lines; the buttons keep their place. */}
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
          {p.configOptions.map(configSelect)}
        </div>
        <button
          type="button"
          class="icon-button"
          aria-label="Attach the editor selection"
          title="Attach the editor selection"
          disabled={!p.enabled}
          data-testid="attach-selection"
          onClick={attachSelection}
        >
          <i class="codicon codicon-selection" aria-hidden="true" />
        </button>
        {p.working ? (
          <button
            type="button"
            class="button secondary"
            data-testid="cancel"
            onClick={() => post({ type: 'cancel' })}
            aria-label="Cancel the turn (Escape)"
          >
            <i class="codicon codicon-debug-stop" aria-hidden="true" /> Cancel
          </button>
        ) : (
          <button
            type="submit"
            class="button"
            data-testid="send"
            disabled={!p.enabled || (!text.trim() && !chips.length)}
            aria-label="Send"
          >
            <i class="codicon codicon-send" aria-hidden="true" /> Send
          </button>
        )}
      </div>
    </form>
  );
}
