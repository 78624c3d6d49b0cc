// The composer: multi-line input (Enter sends, Shift+Enter new line, Esc cancels a running
// turn), slash-command completion with input hints, @-mention of workspace files, the editor
// selection and pasted images as attachments, and the mode / config option pickers.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { AvailableCommand, SessionConfigOption, SessionMode } from '@agentclientprotocol/sdk';
import { MAX_SEARCH_QUERY, type PromptCaps } from '../../shared/protocol';
import { useHost } from '../host';
import { loadDraft, saveDraft, type DraftChip } from '../draft';
import type { Popup } from './CompletionList';
import { IconButton } from './IconButton';
import { useSendWhenEnabled } from './useSendWhenEnabled';
import { pasteImages } from '../pastedFiles';
import {
  attachmentChips as AttachmentChips,
  completionList as CompletionList,
  pickers as Pickers,
  promptEdit,
} from '../lazy';

export interface ComposerProps {
  working: boolean;
  enabled: boolean;
  /** Why Send waits (a new session is opening): typing goes on, the text stays for that session. */
  waiting?: string;
  commands: AvailableCommand[];
  modes: SessionMode[];
  currentModeId?: string;
  configOptions: SessionConfigOption[];
  caps?: PromptCaps;
  /** The shown session: while one of its prompts is being edited, Send resends it (PromptEdit.tsx). */
  sessionId?: string;
}

type Chip = DraftChip;

let nextId = 1;

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
  const edit = promptEdit.use();

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

  /** Puts the caret at `pos` once the new text is rendered. */
  const focusAt = (pos: number) =>
    requestAnimationFrame(() => {
      const el = ref.current;
      if (el) {
        el.focus();
        el.selectionStart = el.selectionEnd = pos;
      }
    });

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
      focusAt(c.name.length + 2);
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
      focusAt(popup.start + mention.length + 1);
    }
  };

  // Enter while a new session opens: the prompt is for that session, sent once it is there.
  const sendWhenOpen = useSendWhenEnabled(p.enabled, () => send(), setNote);
  // While the agent works, a prompt is queued by the host and sent when the turn ends.
  const send = () => {
    if (!p.enabled) {
      if (p.waiting && (text.trim() || chips.length))
        sendWhenOpen(`${p.waiting} Your prompt goes out once it is open.`);
      return;
    }
    // A mention deleted from the text is no longer attached.
    const atts = chips.filter((c) => !c.mention || text.includes(c.mention)).map((c) => c.att);
    if (!text.trim() && !atts.length) return;
    if (!edit?.resend(post, p.sessionId, text, atts))
      post(atts.length ? { type: 'prompt', text, attachments: atts } : { type: 'prompt', text });
    setText('');
    setChips([]);
    setPopup(undefined);
    setNote('');
  };

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

  const onPaste = (e: ClipboardEvent) =>
    pasteImages(e, !!p.caps?.image, setNote, (att, label) => setChips((c) => [...c, { id: nextId++, att, label }]));

  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      {popup && popup.items.length > 0 && <CompletionList popup={popup} onPick={accept} />}
      {edit && (
        <edit.EditBanner
          sessionId={p.sessionId}
          text={text}
          chips={chips}
          fill={(t, c) => {
            setText(t);
            setChips(c.map((x) => ({ ...x, id: nextId++ })));
          }}
        />
      )}
      {chips.length > 0 && (
        <AttachmentChips chips={chips} onRemove={(id) => setChips(chips.filter((x) => x.id !== id))} />
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
            : (p.waiting ?? 'The agent is not running')
        }
        rows={3}
        value={text}
        disabled={!p.enabled && !p.waiting}
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
        <Pickers modes={p.modes} currentModeId={p.currentModeId} configOptions={p.configOptions} enabled={p.enabled} />
        <div class="composer-buttons">
          <IconButton
            icon="selection"
            label="Attach the editor selection"
            title="Attach the editor selection"
            disabled={!p.enabled}
            data-testid="attach-selection"
            onClick={attachSelection}
          />
          {p.working && (
            <button
              type="button"
              class="button secondary"
              data-testid="cancel"
              onClick={() => post({ type: 'cancel' })}
              aria-label="Cancel the turn (Escape)"
            >
              <i class="codicon codicon-debug-stop" aria-hidden="true" /> Cancel
            </button>
          )}
          {/* While the agent works the same button queues the prompt: the host sends it when the turn ends. */}
          <button
            type="submit"
            class="button"
            data-testid={p.working ? 'queue-send' : 'send'}
            disabled={!p.enabled || (!text.trim() && !chips.length)}
          >
            <i class={`codicon codicon-${p.working ? 'list-ordered' : 'send'}`} aria-hidden="true" />{' '}
            {p.working ? 'Queue' : 'Send'}
          </button>
        </div>
      </div>
    </form>
  );
}
