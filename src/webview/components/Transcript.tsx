// The conversation as a virtualized tree: turns (folded except the current one, unless the
// user chose), their messages and tool calls. Keyboard: ↑/↓ move, →/← expand/collapse or go
// to the parent, Enter/Space toggle, Home/End.
import { memo } from '../memo';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ItemView, NoticeView, SessionSnapshot, ToolCallView, TurnView } from '../../shared/sessionModel';
import { MAX_LOAD_TURNS } from '../../shared/turnOutline';
import { buildRows, filterActive, outlinedOpen, parentRowIndex, turnCounts, type Filter, type Row } from '../rows';
import { useHost } from '../host';
import { loadViewMemory, saveViewMemory, type ScrollAnchor } from '../viewMemory';
import { ContentBlockView } from './ContentBlocks';
import { Toolbar } from './Toolbar';
import { formatDuration, hasDetails, terminalIds, ToolCallRow } from './ToolCallRow';
import { groupPrompts } from './PermissionPrompt';
import { VirtualList, type VirtualHandle } from './VirtualList';

interface Props {
  session: SessionSnapshot;
  toolsVersion: number;
  working: boolean;
}

export function Transcript({ session, toolsVersion, working }: Props) {
  const sessionId = session.meta.sessionId;
  const host = useHost();
  // A view shown again (VS Code disposed its page while hidden) opens as the user left it.
  const [memory] = useState(() => loadViewMemory(host.state, sessionId));
  const [fold, setFold] = useState(() => memory?.fold ?? new Map<number, boolean>());
  const [foldAll, setFoldAll] = useState<boolean | undefined>(memory?.foldAll);
  const [expanded, setExpanded] = useState(() => memory?.expanded ?? new Map<string, boolean>());
  const [filter, setFilter] = useState<Filter>(() => memory?.filter ?? { kinds: new Set(), statuses: new Set() });
  const anchor = useRef<ScrollAnchor | undefined>(memory?.anchor);
  const saveTimer = useRef<ReturnType<typeof setTimeout>>();
  const remember = () => {
    clearTimeout(saveTimer.current);
    saveTimer.current = setTimeout(
      () => saveViewMemory(host.state, sessionId, { fold, foldAll, expanded, filter, anchor: anchor.current }),
      200,
    );
  };
  useEffect(remember, [fold, foldAll, expanded, filter]);
  const onAnchor = (a: ScrollAnchor | undefined) => {
    anchor.current = a;
    remember();
  };
  const [focusKey, setFocusKey] = useState<string | undefined>(undefined);
  const list = useRef<VirtualHandle | null>(null);
  const pendingFocus = useRef(false);
  const treeRef = useRef<HTMLDivElement>(null);

  const active = filterActive(filter);
  const filterKey = active ? `${[...filter.kinds].join()}|${[...filter.statuses].join()}|${toolsVersion}` : '';
  const rows = useMemo(
    () => buildRows(session, fold, foldAll, filter, filterKey),
    // toolsVersion matters only through filterKey.
    [session.turns, session.notices, fold, foldAll, filterKey],
  );

  // Unfolded turns that came as outlines: ask for their content once (a new snapshot brings new
  // turn objects, which are asked for again). The content arrives as patches; a failed request
  // shows in place of "Loading…", and unfolding the turn again asks again.
  const asked = useRef(new WeakSet<TurnView>());
  const [loadErrors, setLoadErrors] = useState<ReadonlyMap<number, string>>(new Map());
  useEffect(() => {
    const want = outlinedOpen(session, fold, foldAll).filter((t) => !asked.current.has(t));
    if (!want.length) return;
    for (const t of want) asked.current.add(t);
    for (let i = 0; i < want.length; i += MAX_LOAD_TURNS) {
      const slice = want.slice(i, i + MAX_LOAD_TURNS);
      const turns = slice.map((t) => t.index);
      setLoadErrors((m) => (turns.some((t) => m.has(t)) ? new Map([...m].filter(([t]) => !turns.includes(t))) : m));
      host.request('loadTurns', { sessionId, turns }).catch((err: Error) => {
        for (const t of slice) asked.current.delete(t);
        setLoadErrors((m) => new Map([...m, ...turns.map((t) => [t, err.message] as const)]));
      });
    }
  }, [session.turns, fold, foldAll]);

  // Pending permission prompts, inline in their tool call; the first in the queue is scrolled to.
  const prompts = useMemo(() => groupPrompts(session.permissions), [session.permissions]);
  const firstPrompt = session.permissions[0];
  useEffect(() => {
    if (!firstPrompt) return;
    const i = rows.findIndex((r) => r.type === 'tool' && r.toolCallId === firstPrompt.toolCallId);
    if (i >= 0) list.current?.scrollToIndex(i);
  }, [firstPrompt?.requestId]);

  const last = session.turns.length - 1;
  // A command of the current turn shows its live terminal without a click.
  const autoOpen = (c: ToolCallView) => (c.status === 'in_progress' || c.turn === last) && terminalIds(c).length > 0;
  const isExpanded = useCallback(
    (c: ToolCallView | undefined) => {
      if (!c) return false;
      const v = expanded.get(c.toolCallId);
      return v !== undefined ? v : autoOpen(c);
    },
    [expanded, last],
  );

  const toggleTool = useCallback(
    (id: string) => {
      setExpanded((m) => {
        const n = new Map(m);
        const c = session.toolCalls[id];
        n.set(id, !(m.get(id) ?? (c ? autoOpen(c) : false)));
        return n;
      });
    },
    [session.toolCalls, last],
  );

  const toggleTurn = useCallback((t: number, collapsed: boolean) => {
    setFold((m) => new Map(m).set(t, !collapsed));
  }, []);

  const setAll = (collapsed: boolean) => {
    setFold(new Map());
    setFoldAll(collapsed);
    if (!collapsed) return;
    setExpanded(new Map());
  };

  const indexOfKey = (k: string | undefined) => (k ? rows.findIndex((r) => r.key === k) : -1);

  const moveFocus = (i: number) => {
    if (i < 0 || i >= rows.length) return;
    pendingFocus.current = true;
    setFocusKey(rows[i].key);
    list.current?.scrollToIndex(i);
  };

  useLayoutEffect(() => {
    if (!pendingFocus.current || !focusKey) return;
    const el = treeRef.current?.querySelector<HTMLElement>(`[data-key="${CSS.escape(focusKey)}"] [data-focus-target]`);
    if (el) {
      el.focus({ preventScroll: true });
      pendingFocus.current = false;
    }
  });

  const onKeyDown = (e: KeyboardEvent) => {
    const target = e.target as HTMLElement;
    if (!target.hasAttribute('data-focus-target')) return;
    let i = indexOfKey(focusKey);
    if (i < 0) i = 0;
    const row = rows[i];
    const collapsible = row && expandState(row);
    switch (e.key) {
      case 'ArrowDown':
        moveFocus(i + 1);
        break;
      case 'ArrowUp':
        moveFocus(i - 1);
        break;
      case 'Home':
        moveFocus(0);
        break;
      case 'End':
        moveFocus(rows.length - 1);
        break;
      case 'ArrowRight':
        if (collapsible === 'collapsed') toggle(row);
        else moveFocus(i + 1);
        break;
      case 'ArrowLeft':
        if (collapsible === 'expanded') toggle(row);
        else if (row.type !== 'turn') {
          // To the parent: the Agent call of a subagent's call, else the turn header above.
          const j = parentRowIndex(rows, i);
          if (j >= 0) moveFocus(j);
        }
        break;
      case 'Enter':
      case ' ':
        if (collapsible) toggle(row);
        break;
      default:
        return;
    }
    e.preventDefault();
    e.stopPropagation();
  };

  function expandState(r: Row): 'expanded' | 'collapsed' | undefined {
    if (r.type === 'turn') return r.collapsed ? 'collapsed' : 'expanded';
    if (r.type === 'tool') {
      const c = session.toolCalls[r.toolCallId];
      if (!c || !hasDetails(c)) return undefined;
      return isExpanded(c) ? 'expanded' : 'collapsed';
    }
    if (r.type === 'item' && r.item.kind === 'thought') return expanded.get(r.key) ? 'expanded' : 'collapsed';
    return undefined;
  }

  function toggle(r: Row) {
    if (r.type === 'turn') toggleTurn(r.turn.index, r.collapsed);
    else if (r.type === 'tool') toggleTool(r.toolCallId);
    else if (r.type === 'item') setExpanded((m) => new Map(m).set(r.key, !m.get(r.key)));
  }

  // Folded tool calls and folded turns are one line each: one height per class.
  const sizeClass = (r: Row): string | undefined => {
    if (r.type === 'turn') return r.collapsed ? 'turn' : undefined;
    if (r.type !== 'tool' || prompts.has(r.toolCallId)) return undefined;
    return isExpanded(session.toolCalls[r.toolCallId]) ? undefined : 'tool';
  };

  const focusedRendered = focusKey !== undefined && rows.some((r) => r.key === focusKey);

  const renderRow = (r: Row, i: number) => {
    const focused = r.key === focusKey || (!focusedRendered && i === 0);
    const onFocus = () => {
      if (focusKey !== r.key) setFocusKey(r.key);
    };
    switch (r.type) {
      case 'turn':
        return (
          <TurnHeader
            turn={r.turn}
            collapsed={r.collapsed}
            focused={focused}
            running={working && r.turn.index === last}
            calls={session.toolCalls}
            toolsVersion={r.collapsed || r.turn.index === last ? toolsVersion : 0}
            onToggle={toggleTurn}
            onFocus={onFocus}
          />
        );
      case 'tool': {
        const call = session.toolCalls[r.toolCallId];
        if (!call) return <div />;
        return (
          <ToolCallRow
            call={call}
            expanded={isExpanded(call)}
            focused={focused}
            terminals={session.terminals}
            onToggle={toggleTool}
            onFocus={onFocus}
            prompts={prompts.get(call.toolCallId)}
            depth={r.depth}
          />
        );
      }
      case 'item':
        return (
          <MessageRow
            item={r.item}
            rowKey={r.key}
            open={!!expanded.get(r.key)}
            focused={focused}
            onFocus={onFocus}
            onToggle={() => toggle(r)}
            streaming={working && r.turn === last && r.index === session.turns[last].items.length - 1}
          />
        );
      case 'end':
        return <TurnEnd turn={r.turn} focused={focused} onFocus={onFocus} />;
      case 'notice':
        return <Notice notice={r.notice} focused={focused} onFocus={onFocus} />;
      case 'loading': {
        const error = loadErrors.get(r.turn);
        return (
          <div
            role="treeitem"
            aria-level={2}
            aria-busy={error ? undefined : 'true'}
            tabIndex={focused ? 0 : -1}
            data-focus-target=""
            onFocus={onFocus}
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
    }
  };

  return (
    <div class="transcript-wrap">
      <Toolbar
        filter={filter}
        setFilter={setFilter}
        onCollapseAll={() => setAll(true)}
        onExpandAll={() => setAll(false)}
        count={rows.length}
        active={active}
      />
      <div ref={treeRef} class="tree-host" onKeyDown={onKeyDown}>
        <VirtualList
          class="transcript"
          role="tree"
          aria-label="Conversation and tool calls"
          data-testid="transcript"
          rows={rows}
          estimate={estimate}
          sizeClass={sizeClass}
          renderRow={renderRow}
          handle={list}
          initialAnchor={memory?.anchor}
          onAnchor={onAnchor}
        />
      </div>
    </div>
  );
}

function estimate(r: Row): number {
  switch (r.type) {
    case 'turn':
      return 34;
    case 'tool':
      return 24;
    case 'end':
    case 'notice':
    case 'loading':
      return 24;
    case 'item': {
      if (r.item.kind === 'thought' || r.item.kind === 'compaction') return 26;
      const len = r.item.blocks.reduce((n, b) => n + (b.type === 'text' ? b.text.length : 40), 0);
      // A paragraph is ~19 px a line plus ~8 px of margins (a one-line message measures 26.8).
      return 8 + Math.max(1, Math.ceil(len / 60)) * 19;
    }
  }
}

const TurnHeader = memo(
  function TurnHeader({
    turn,
    collapsed,
    focused,
    running,
    calls,
    onToggle,
    onFocus,
  }: {
    turn: TurnView;
    collapsed: boolean;
    focused: boolean;
    running: boolean;
    calls: Record<string, ToolCallView>;
    toolsVersion: number;
    onToggle: (t: number, collapsed: boolean) => void;
    onFocus: () => void;
  }) {
    const first = turn.items[0];
    const user = first?.kind === 'user' ? first : undefined;
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
        class={`turn-head${collapsed ? ' collapsed' : ''}`}
        role="treeitem"
        aria-level={1}
        aria-expanded={!collapsed}
        aria-label={`Turn ${turn.index + 1}${text ? `: ${text.slice(0, 80)}` : ''}, ${c.tools} tool calls${running ? ', running' : ''}`}
        tabIndex={focused ? 0 : -1}
        data-focus-target=""
        data-testid="turn"
        data-turn={turn.index}
        data-collapsed={collapsed ? 'true' : 'false'}
        onFocus={onFocus}
      >
        <div class="turn-line" onClick={() => onToggle(turn.index, collapsed)}>
          <i class={`codicon codicon-chevron-${collapsed ? 'right' : 'down'} twisty`} aria-hidden="true" />
          {collapsed || !user ? (
            <span class="turn-prompt-line">{text || (user ? 'Prompt' : 'Agent activity')}</span>
          ) : (
            <span class="turn-prompt-line sr-only">{text}</span>
          )}
          <span class="spacer" />
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
      </div>
    );
  },
  (a, b) =>
    a.turn === b.turn &&
    a.collapsed === b.collapsed &&
    a.focused === b.focused &&
    a.running === b.running &&
    a.toolsVersion === b.toolsVersion,
);

const MessageRow = memo(
  function MessageRow({
    item,
    rowKey,
    open,
    focused,
    streaming,
    onFocus,
    onToggle,
  }: {
    item: Exclude<ItemView, { kind: 'tool' }>;
    rowKey: string;
    open: boolean;
    focused: boolean;
    streaming: boolean;
    onFocus: () => void;
    onToggle: () => void;
  }) {
    const common = {
      role: 'treeitem',
      'aria-level': 2,
      tabIndex: focused ? 0 : -1,
      'data-focus-target': '',
      onFocus,
    } as const;
    switch (item.kind) {
      case 'user':
      case 'agent':
        return (
          <div
            {...common}
            class={`msg msg-${item.kind}${streaming ? ' streaming' : ''}`}
            data-testid={`message-${item.kind}`}
            aria-label={item.kind === 'agent' ? 'Agent message' : 'Your message'}
          >
            {item.blocks.map((b, i) => (
              <ContentBlockView key={i} block={b} cacheKey={`${rowKey}:${i}`} stream />
            ))}
          </div>
        );
      case 'thought':
        return (
          <div
            {...common}
            class="msg msg-thought"
            data-testid="message-thought"
            aria-expanded={open}
            aria-label="Thinking"
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
      case 'compaction':
        return (
          <div {...common} class="msg msg-compaction" data-testid="compaction">
            Context compacted ({item.status}){item.summary ? `: ${item.summary}` : ''}
            {item.error ? ` — ${item.error}` : ''}
          </div>
        );
    }
  },
  (a, b) => a.item === b.item && a.open === b.open && a.focused === b.focused && a.streaming === b.streaming,
);

function TurnEnd({ turn, focused, onFocus }: { turn: TurnView; focused: boolean; onFocus: () => void }) {
  return (
    <div
      role="treeitem"
      aria-level={2}
      tabIndex={focused ? 0 : -1}
      data-focus-target=""
      onFocus={onFocus}
      class="turn-end"
    >
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

function Notice({ notice, focused, onFocus }: { notice: NoticeView; focused: boolean; onFocus: () => void }) {
  const icon = notice.severity === 'error' ? 'error' : notice.severity === 'warning' ? 'warning' : 'info';
  return (
    <div
      role="treeitem"
      aria-level={1}
      tabIndex={focused ? 0 : -1}
      data-focus-target=""
      onFocus={onFocus}
      class={`notice notice-${notice.severity}`}
      data-testid="notice"
    >
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
