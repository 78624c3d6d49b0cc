// The composer's completion popup: slash commands, or workspace files after "@". Picked with the
// mouse here; the composer moves the selection with the arrow keys and accepts with Enter / Tab.
import type { AvailableCommand } from '@agentclientprotocol/sdk';
import type { JSX } from 'preact';
import type { FileHit } from '../../shared/protocol';

export type Popup =
  | { kind: 'command'; items: AvailableCommand[]; sel: number }
  /** `start`: where the "@" is in the text; `query`: what follows it. */
  | { kind: 'file'; items: FileHit[]; sel: number; start: number; query: string };

export function CompletionList({ popup, onPick }: { popup: Popup; onPick: (index: number) => void }) {
  const entries: { key: string; body: JSX.Element }[] =
    popup.kind === 'command'
      ? popup.items.map((c) => ({
          key: c.name,
          body: (
            <>
              <span class="cmp-name">/{c.name}</span> <span class="muted">{c.description}</span>
            </>
          ),
        }))
      : popup.items.map((f) => ({
          key: f.path,
          body: (
            <>
              <i class="codicon codicon-file" aria-hidden="true" /> <span class="cmp-name">{f.label}</span>{' '}
              <span class="muted">{f.description}</span>
            </>
          ),
        }));
  return (
    <ul
      class="completion"
      role="listbox"
      id="composer-completion"
      data-testid={popup.kind === 'command' ? 'command-completion' : 'file-completion'}
      aria-label={popup.kind === 'command' ? 'Commands' : 'Files'}
    >
      {entries.map((e, i) => (
        <li
          key={e.key}
          id={`cmp-${i}`}
          role="option"
          aria-selected={i === popup.sel}
          class={i === popup.sel ? 'selected' : ''}
          data-testid="completion-item"
          onMouseDown={(ev) => {
            ev.preventDefault();
            onPick(i);
          }}
        >
          {e.body}
        </li>
      ))}
    </ul>
  );
}
