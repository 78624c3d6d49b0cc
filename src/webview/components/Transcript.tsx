import { memo } from 'preact/compat';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import type { ContentBlock, ItemView, SessionSnapshot, ToolCallView, TurnView } from '../../shared/sessionModel';
import { ToolCallRow } from './ToolCallRow';

export function Transcript({ session }: { session: SessionSnapshot }) {
  const ref = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  // Follow the tail while the user is at the bottom; stop following once they scroll up.
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const onScroll = () => { stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24; };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, []);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  });
  return (
    <div class="transcript" ref={ref} role="log" aria-live="polite" aria-label="Conversation" data-testid="transcript">
      {session.turns.length === 0 && <p class="empty">Ask the agent something to start.</p>}
      {session.turns.map((t) => <Turn key={t.index} turn={t} calls={session.toolCalls} />)}
    </div>
  );
}

const Turn = memo(function Turn({ turn, calls }: { turn: TurnView; calls: Record<string, ToolCallView> }) {
  return (
    <section class="turn" data-testid="turn" data-turn={turn.index}>
      {turn.items.map((item, i) => <Item key={i} item={item} call={item.kind === 'tool' ? calls[item.toolCallId] : undefined} />)}
      {turn.stopReason && turn.stopReason !== 'end_turn' && (
        <p class="stop-reason" data-testid="stop-reason"><i class="codicon codicon-debug-stop" aria-hidden="true" /> {stopReasonText(turn.stopReason)}</p>
      )}
      {turn.error && <p class="turn-error" role="alert" data-testid="turn-error"><i class="codicon codicon-error" aria-hidden="true" /> {turn.error}</p>}
    </section>
  );
}, (a, b) => a.turn === b.turn);

const Item = memo(function Item({ item, call }: { item: ItemView; call?: ToolCallView }) {
  switch (item.kind) {
    case 'user':
      return <div class="msg msg-user" data-testid="message-user"><Blocks blocks={item.blocks} /></div>;
    case 'agent':
      return <div class="msg msg-agent" data-testid="message-agent"><Blocks blocks={item.blocks} /></div>;
    case 'thought':
      return (
        <details class="msg msg-thought" data-testid="message-thought">
          <summary><i class="codicon codicon-lightbulb" aria-hidden="true" /> Thinking</summary>
          <Blocks blocks={item.blocks} />
        </details>
      );
    case 'tool':
      return call ? <ToolCallRow call={call} /> : null;
    case 'compaction':
      return <div class="msg msg-compaction" data-testid="compaction">Context compacted ({item.status}){item.summary ? `: ${item.summary}` : ''}</div>;
  }
}, (a, b) => a.item === b.item && a.call === b.call);

function Blocks({ blocks }: { blocks: ContentBlock[] }) {
  return (
    <>
      {blocks.map((b, i) => {
        switch (b.type) {
          case 'text': return <div key={i} class="text">{b.text}</div>;
          case 'resource_link': return <div key={i} class="resource"><i class="codicon codicon-file" aria-hidden="true" /> {b.title ?? b.name}</div>;
          case 'resource': return <div key={i} class="resource"><i class="codicon codicon-file-code" aria-hidden="true" /> {b.resource.uri}</div>;
          case 'image': return <div key={i} class="resource"><i class="codicon codicon-file-media" aria-hidden="true" /> image ({b.mimeType})</div>;
          default: return <pre key={i} class="json">{JSON.stringify(b, null, 2)}</pre>;
        }
      })}
    </>
  );
}

function stopReasonText(r: string): string {
  switch (r) {
    case 'cancelled': return 'Cancelled';
    case 'max_tokens': return 'Stopped: the reply hit the token limit';
    case 'max_turn_requests': return 'Stopped: too many requests in one turn';
    case 'refusal': return 'The agent refused to continue';
    default: return `Stopped: ${r}`;
  }
}
