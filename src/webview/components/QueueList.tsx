// The shown session's queued prompts, under the running turn: each can be edited, removed, moved
// up or down, or sent now (steered into the running turn where the agent can, else the turn is
// cancelled first). After a cancel the queue waits for "Send". The host owns the queue: this only
// shows it and posts what the user does. Loaded lazily (its own chunk).
import { useState } from 'preact/hooks';
import type { QueueOp, QueueView } from '../../shared/protocol';
import { useHost } from '../host';
import { IconButton } from './IconButton';

export default function QueueList({ queue, working }: { queue: QueueView; working: boolean }) {
  const { post } = useHost();
  const [editing, setEditing] = useState<{ id: string; text: string }>();
  const op = (o: QueueOp) => post({ type: 'queue', ...o });
  const n = queue.items.length;
  // The text is read from the box: its last keystroke may not have re-rendered yet.
  const save = (id: string, text: string) => {
    if (text.trim()) op({ op: 'edit', id, text });
    setEditing(undefined);
  };
  const status = queue.held ? 'paused after the turn stopped' : working ? 'sent when the agent finishes' : 'sending…';
  return (
    <section class="queue" data-testid="queue" data-held={queue.held ? 'true' : 'false'} aria-label="Queued prompts">
      <div class="queue-header">
        <i class="codicon codicon-list-ordered" aria-hidden="true" />
        <span>
          {n} queued · {status}
        </span>
        <span class="spacer" />
        {queue.held && (
          <button class="button" data-testid="queue-resume" onClick={() => op({ op: 'resume' })}>
            <i class="codicon codicon-send" aria-hidden="true" /> Send
          </button>
        )}
      </div>
      <ol class="queue-items">
        {queue.items.map((item, i) => (
          <li class="queue-item" key={item.id} data-testid="queue-item" data-id={item.id}>
            {editing?.id === item.id ? (
              <textarea
                class="queue-edit"
                data-testid="queue-edit"
                aria-label="Edit the queued prompt (Enter saves, Escape cancels)"
                rows={2}
                value={editing.text}
                ref={(el) => el?.focus()}
                onInput={(e) => setEditing({ id: item.id, text: (e.target as HTMLTextAreaElement).value })}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && !e.shiftKey) {
                    e.preventDefault();
                    save(item.id, e.currentTarget.value);
                  } else if (e.key === 'Escape') {
                    e.preventDefault();
                    setEditing(undefined);
                  }
                }}
                onBlur={(e) => editing && save(item.id, e.currentTarget.value)}
              />
            ) : (
              <span class="queue-text" data-testid="queue-text" title={item.text}>
                {item.text}
                {item.attachments > 0 && (
                  <span class="muted">
                    {' '}
                    +{item.attachments} attachment{item.attachments === 1 ? '' : 's'}
                  </span>
                )}
              </span>
            )}
            <span class="queue-actions">
              <IconButton
                icon="arrow-up"
                label="Move up"
                title="Move up"
                data-testid="queue-up"
                disabled={i === 0}
                onClick={() => op({ op: 'move', id: item.id, to: i - 1 })}
              />
              <IconButton
                icon="arrow-down"
                label="Move down"
                title="Move down"
                data-testid="queue-down"
                disabled={i === n - 1}
                onClick={() => op({ op: 'move', id: item.id, to: i + 1 })}
              />
              <IconButton
                icon="edit"
                label="Edit"
                title="Edit"
                data-testid="queue-edit-button"
                onClick={() => setEditing({ id: item.id, text: item.text })}
              />
              <IconButton
                icon="trash"
                label="Remove"
                title="Remove"
                data-testid="queue-remove"
                onClick={() => op({ op: 'remove', id: item.id })}
              />
              {working && (
                <button
                  class="button secondary queue-now"
                  data-testid="queue-send-now"
                  title={queue.steer ? 'Add this to the running turn' : 'Stop the running turn and send this instead'}
                  onClick={() => op({ op: 'sendNow', id: item.id })}
                >
                  {/* Without steering the running turn is cancelled first: the button says so. */}
                  {queue.steer ? 'Send now' : 'Cancel and send'}
                </button>
              )}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
