// The rows of the transcript tree other than tool calls: a turn's header (its prompt, counts and
// duration; the prompt shown in full when the turn is open), messages (user, agent, thoughts,
// compactions), a turn's end (stop reason, error), notices, and a turn still loading.
import type { FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { memo } from '../memo';
import type { ItemView, NoticeView, ToolCallView, TurnView } from '../../shared/sessionModel';
import { turnCounts } from '../rows';
import { ContentBlockView } from './ContentBlocks';
import { formatDuration } from './ToolCallRow';
import { treeItem } from '../treeItem';
import { promptEdit } from '../lazy';

export const TurnHeader = memo(
  function TurnHeader({
    turn,
    collapsed,
    focused,
    running,
    fork,
    calls,
    onToggle,
    onFocus,
  }: {
    turn: TurnView;
    collapsed: boolean;
    focused: boolean;
    running: boolean;
    /** The last turn of a session that can be forked now. */
    fork?: boolean;
    calls: Record<string, ToolCallView>;
    toolsVersion: number;
    onToggle: (t: number, collapsed: boolean) => void;
    onFocus: () => void;
  }) {
    const first = turn.items[0];
    const user = first?.kind === 'user' ? first : undefined;
    const edit = promptEdit.use();
    const c = turnCounts(turn, calls);
    const duration = turn.endedAt !== undefined ? formatDuration(turn.endedAt - turn.startedAt) : '';
    const text = user
      ? user.blocks
          .map((b) => (b.type === 'text' ? b.text : b.type === 'resource_link' ? `@${b.name}` : ''))
          .join(' ')
          .trim()
      : '';
    return (
      <div
        class={`turn-head${collapsed ? ' collapsed' : ''}${turn.rewound ? ' rewound' : ''}`}
        {...treeItem(1, focused, onFocus)}
        aria-expanded={!collapsed}
        aria-label={`Turn ${turn.index + 1}${text ? `: ${text.slice(0, 80)}` : ''}, ${c.tools} tool calls${running ? ', running' : ''}${turn.rewound ? ', rewound' : ''}`}
        data-testid="turn"
        data-turn={turn.index}
        data-collapsed={collapsed ? 'true' : 'false'}
      >
        <div class="turn-line" onClick={() => onToggle(turn.index, collapsed)}>
          <i class={`codicon codicon-chevron-${collapsed ? 'right' : 'down'} twisty`} aria-hidden="true" />
          {collapsed || !user ? (
            <span class="turn-prompt-line">{text || (user ? 'Prompt' : 'Agent activity')}</span>
          ) : (
            <span class="turn-prompt-line sr-only">{text}</span>
          )}
          <span class="spacer" />
          {edit && user && <edit.PromptActions turn={turn} />}
          <span class="turn-stats muted">
            {running && <i class="codicon codicon-loading codicon-modifier-spin" aria-hidden="true" />}
            {c.tools > 0 && ` ${c.tools} tool call${c.tools === 1 ? '' : 's'}`}
            {c.failed > 0 && <span class="turn-failed"> · {c.failed} failed</span>}
            {duration && `${c.tools > 0 ? ' · ' : ' '}${duration}`}
          </span>
        </div>
        {!collapsed && user && (
          <div class="msg msg-user" data-testid="message-user">
            {user.blocks.map((b, i) => (
              <ContentBlockView key={i} block={b} cacheKey={`u${turn.index}:${i}`} />
            ))}
          </div>
        )}
        {!collapsed && user && <LazyTurnChanges turn={turn.index} tools={c.tools > 0} fork={fork} />}
      </div>
    );
  },
  (a, b) =>
    a.turn === b.turn &&
    a.collapsed === b.collapsed &&
    a.focused === b.focused &&
    a.running === b.running &&
    a.fork === b.fork &&
    a.toolsVersion === b.toolsVersion,
);

type ChangesProps = { turn: number; tools: boolean; fork?: boolean };
type Changes = FunctionComponent<ChangesProps>;
let changes: Changes | undefined;
/** "Restore to here", "Fork from here" and the turn's changed files: their own chunk (the eager bundle is full). */
function LazyTurnChanges(p: ChangesProps) {
  const [C, setC] = useState(() => changes);
  useEffect(() => {
    // A chunk that does not load leaves the prompt as it was (the palette has the same commands).
    // (`.js` and a named export: the unbundled test build loads it with Node's own import(), as lazy.ts says.)
    if (!C)
      import('./TurnChanges.js').then(
        (m) => setC(() => (changes = m.TurnChanges)),
        () => undefined,
      );
  }, [C]);
  return C ? <C {...p} /> : null;
}

export const MessageRow = memo(
  function MessageRow({
    item,
    rowKey,
    open,
    focused,
    streaming,
    onFocus,
    onToggle,
    depth = 0,
  }: {
    item: Exclude<ItemView, { kind: 'tool' }>;
    rowKey: string;
    open: boolean;
    focused: boolean;
    streaming: boolean;
    onFocus: () => void;
    onToggle: () => void;
    /** A subagent's message: how deep under its Agent call. */
    depth?: number;
  }) {
    if (item.kind === 'compaction')
      return (
        <div {...treeItem(2, focused, onFocus)} class="msg msg-compaction" data-testid="compaction">
          Context compacted ({item.status}){item.summary ? `: ${item.summary}` : ''}
          {item.error ? ` — ${item.error}` : ''}
        </div>
      );
    // A subagent's message looks like the agent's own or a thought, indented under its Agent call.
    const sub = item.kind === 'subagent' ? item : undefined;
    const kind = sub ? sub.role : item.kind;
    const common = {
      ...treeItem(2 + depth, focused, onFocus),
      ...(sub ? { 'data-testid': 'subagent-message', 'data-role': kind, 'data-parent': sub.parentId } : {}),
    };
    const nested = sub ? ` msg-subagent depth-${Math.min(Math.max(depth, 1), 3)}` : '';
    if (kind !== 'thought')
      return (
        <div
          data-testid={`message-${kind}`}
          {...common}
          class={`msg msg-${kind}${nested}${streaming ? ' streaming' : ''}`}
          aria-label={sub ? 'Subagent message' : kind === 'agent' ? 'Agent message' : 'Your message'}
        >
          {item.blocks.map((b, i) => (
            <ContentBlockView key={i} block={b} cacheKey={`${rowKey}:${i}`} stream />
          ))}
        </div>
      );
    return (
      <div
        data-testid="message-thought"
        {...common}
        class={`msg msg-thought${nested}`}
        aria-expanded={open}
        aria-label={sub ? 'Subagent thinking' : 'Thinking'}
      >
        <div class="thought-head" onClick={onToggle}>
          <i class={`codicon codicon-chevron-${open ? 'down' : 'right'} twisty`} aria-hidden="true" />
          <i class="codicon codicon-lightbulb" aria-hidden="true" /> {streaming ? 'Thinking…' : 'Thought'}
        </div>
        {open && (
          <div class="thought-body">
            {item.blocks.map((b, i) => (
              <ContentBlockView key={i} block={b} cacheKey={`${rowKey}:${i}`} />
            ))}
          </div>
        )}
      </div>
    );
  },
  (a, b) =>
    a.item === b.item &&
    a.open === b.open &&
    a.focused === b.focused &&
    a.streaming === b.streaming &&
    a.depth === b.depth,
);

export function TurnEnd({ turn, focused, onFocus }: { turn: TurnView; focused: boolean; onFocus: () => void }) {
  return (
    <div {...treeItem(2, focused, onFocus)} class="turn-end">
      {turn.stopReason && turn.stopReason !== 'end_turn' && (
        <p class="stop-reason" data-testid="stop-reason">
          <i
            class={`codicon codicon-${turn.stopReason === 'cancelled' ? 'circle-slash' : 'warning'}`}
            aria-hidden="true"
          />{' '}
          {stopReasonText(turn.stopReason)}
        </p>
      )}
      {turn.error && (
        <p class="turn-error" role="alert" data-testid="turn-error">
          <i class="codicon codicon-error" aria-hidden="true" /> {turn.error}
        </p>
      )}
    </div>
  );
}

export function Notice({ notice, focused, onFocus }: { notice: NoticeView; focused: boolean; onFocus: () => void }) {
  const icon = notice.severity === 'error' ? 'error' : notice.severity === 'warning' ? 'warning' : 'info';
  return (
    <div {...treeItem(1, focused, onFocus)} class={`notice notice-${notice.severity}`} data-testid="notice">
      <i class={`codicon codicon-${icon}`} aria-hidden="true" /> <strong>{notice.title}</strong>
      {notice.description && <span class="notice-desc"> {notice.description}</span>}
    </div>
  );
}

export function stopReasonText(r: string): string {
  switch (r) {
    case 'cancelled':
      return 'Cancelled';
    case 'max_tokens':
      return 'Stopped: the reply hit the token limit';
    case 'max_turn_requests':
      return 'Stopped: too many requests in one turn';
    case 'refusal':
      return 'The agent refused to continue';
    default:
      return `Stopped: ${r}`;
  }
}

/** An unfolded turn whose content is on its way from the host, or why it did not come. */
export function LoadingRow({ error, focused, onFocus }: { error?: string; focused: boolean; onFocus: () => void }) {
  return (
    <div
      {...treeItem(2, focused, onFocus)}
      aria-busy={error ? undefined : 'true'}
      class="turn-loading muted"
      data-testid={error ? 'turn-load-error' : 'turn-loading'}
    >
      {error ? (
        <>
          <i class="codicon codicon-error" aria-hidden="true" /> Could not load this turn: {error}
        </>
      ) : (
        <>
          <i class="codicon codicon-loading codicon-modifier-spin" aria-hidden="true" /> Loading…
        </>
      )}
    </div>
  );
}
