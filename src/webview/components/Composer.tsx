import { useRef, useState } from 'preact/hooks';
import { post } from '../vscodeApi';

export function Composer({ working, enabled }: { working: boolean; enabled: boolean }) {
  const [text, setText] = useState('');
  const ref = useRef<HTMLTextAreaElement>(null);
  const send = () => {
    if (!text.trim() || working || !enabled) return;
    post({ type: 'prompt', text });
    setText('');
  };
  return (
    <form class="composer" onSubmit={(e) => { e.preventDefault(); send(); }}>
      <textarea
        ref={ref}
        data-testid="composer-input"
        aria-label="Message the agent"
        placeholder={enabled ? 'Ask the agent… (Enter to send, Shift+Enter for a new line)' : 'The agent is not running'}
        rows={3}
        value={text}
        disabled={!enabled}
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) { e.preventDefault(); send(); }
          if (e.key === 'Escape' && working) { e.preventDefault(); post({ type: 'cancel' }); }
        }}
      />
      <div class="composer-actions">
        {working
          ? <button type="button" class="button secondary" data-testid="cancel" onClick={() => post({ type: 'cancel' })} aria-label="Cancel the turn (Escape)"><i class="codicon codicon-debug-stop" aria-hidden="true" /> Cancel</button>
          : <button type="submit" class="button" data-testid="send" disabled={!enabled || !text.trim()} aria-label="Send"><i class="codicon codicon-send" aria-hidden="true" /> Send</button>}
      </div>
    </form>
  );
}
