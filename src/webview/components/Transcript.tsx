// The conversation as a virtualized tree: turns (folded except the current one, unless the
// user chose), their messages and tool calls. Keyboard: ↑/↓ move, →/← expand/collapse or go
// to the parent, Enter/Space toggle, Home/End.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { SessionSnapshot, ToolCallView } from '../../shared/sessionModel';
import { buildRows, estimateRowHeight, filterActive, isThought, parentRowIndex, type Filter, type Row } from '../rows';
import { foldedKey, foldedSet, toggledSubtree } from '../subtrees';
import { useHost } from '../host';
import { loadViewMemory, saveViewMemory, type ScrollAnchor } from '../viewMemory';
import { Toolbar } from './Toolbar';
import { hasDetails, terminalIds, ToolCallRow } from './ToolCallRow';
import { groupPrompts } from './PermissionPrompt';
import { LoadingRow, MessageRow, Notice, TurnEnd, TurnHeader } from './TranscriptRows';
import { RowGuard } from './RowGuard';
import { useTurnLoading } from './useTurnLoading';
import { VirtualList, type VirtualHandle } from './VirtualList';

interface Props {
  session: SessionSnapshot;
  toolsVersion: number;
  working: boolean;
  /** The session can be forked now: its last turn offers "Fork from here". */
  fork?: boolean;
}

export function Transcript({ session, toolsVersion, working, fork }: Props) {
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
  // Agent calls whose subagent rows are folded (their fold is kept with the expand states).
  const foldKey = useMemo(() => foldedKey(expanded), [expanded]);
  const folded = useMemo(() => foldedSet(foldKey), [foldKey]);
  const toggleSubtree = useCallback((id: string) => setExpanded((m) => toggledSubtree(m, id)), []);
  const rows = useMemo(
    () => buildRows(session, fold, foldAll, filter, filterKey, folded),
    // toolsVersion matters only through filterKey.
    [session.turns, session.notices, fold, foldAll, filterKey, folded],
  );

  const loadErrors = useTurnLoading(session, fold, foldAll);

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
    // An Agent call's subagent rows: → unfolds them before its details open, ← folds them after.
    const sub = row?.type === 'tool' ? row.subtree : undefined;
    const subToggle = () => row?.type === 'tool' && toggleSubtree(row.toolCallId);
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
        if (sub?.folded) subToggle();
        else if (collapsible === 'collapsed') toggle(row);
        else moveFocus(i + 1);
        break;
      case 'ArrowLeft':
        if (collapsible === 'expanded') toggle(row);
        else if (sub && !sub.folded) subToggle();
        else if (row.type !== 'turn') {
          // To the parent: the Agent call of a subagent's call, else the turn header above.
          const j = parentRowIndex(rows, i);
          if (j >= 0) moveFocus(j);
        }
        break;
      case 'Enter':
      case ' ':
        if (collapsible) toggle(row);
        else if (sub) subToggle();
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
    if (r.type === 'item' && isThought(r.item)) return expanded.get(r.key) ? 'expanded' : 'collapsed';
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
            fork={fork && r.turn.index === last}
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
            subtree={r.subtree && { ...r.subtree, onToggle: toggleSubtree }}
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
            depth={r.depth}
            streaming={working && r.turn === last && r.index === session.turns[last].items.length - 1}
          />
        );
      case 'end':
        return <TurnEnd turn={r.turn} focused={focused} onFocus={onFocus} />;
      case 'notice':
        return <Notice notice={r.notice} focused={focused} onFocus={onFocus} />;
      case 'loading':
        return <LoadingRow error={loadErrors.get(r.turn)} focused={focused} onFocus={onFocus} />;
    }
  };

  // Each row behind its own error boundary: one that cannot render leaves the others standing.
  const guardedRow = (r: Row, i: number) => (
    <RowGuard raw={r.type === 'tool' ? session.toolCalls[r.toolCallId] : r}>{renderRow(r, i)}</RowGuard>
  );

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
          estimate={estimateRowHeight}
          sizeClass={sizeClass}
          renderRow={guardedRow}
          handle={list}
          initialAnchor={memory?.anchor}
          onAnchor={onAnchor}
        />
      </div>
    </div>
  );
}
