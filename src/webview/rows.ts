// The transcript as a flat list of rows for the virtualized tree: one row per turn header,
// message, tool call, notice and turn footer. Rows of a turn are cached on the turn's
// identity (the mirror gives a changed turn a new identity), so a chunk costs O(rows of that
// turn), not a rebuild of the whole session.
import type {
  ItemView,
  NoticeView,
  SessionSnapshot,
  ToolCallView,
  TurnOutline,
  TurnView,
} from '../shared/sessionModel';
import { outlineOf } from '../shared/turnOutline';

export type Row =
  | { type: 'turn'; key: string; turn: TurnView; collapsed: boolean }
  /** depth: set on a subagent's message, under its Agent call (1, or more for a subagent's subagent). */
  | {
      type: 'item';
      key: string;
      turn: number;
      index: number;
      item: Exclude<ItemView, { kind: 'tool' }>;
      depth?: number;
    }
  /**
   * depth: 0 for the turn's own calls, 1 for a subagent's calls under its Agent call, …
   * subtree: an Agent call's subagent rows (calls and messages, all levels) and whether the user folded them.
   */
  | {
      type: 'tool';
      key: string;
      turn: number;
      index: number;
      toolCallId: string;
      depth: number;
      subtree?: { rows: number; folded: boolean };
    }
  | { type: 'end'; key: string; turn: TurnView }
  /** An unfolded turn whose content is on its way from the host (it was sent as an outline). */
  | { type: 'loading'; key: string; turn: number }
  | { type: 'notice'; key: string; notice: NoticeView; n: number };

export interface Filter {
  kinds: Set<string>;
  statuses: Set<string>;
}

export function filterActive(f: Filter): boolean {
  return f.kinds.size > 0 || f.statuses.size > 0;
}

export function matches(call: ToolCallView | undefined, f: Filter): boolean {
  if (!call) return false;
  return (f.kinds.size === 0 || f.kinds.has(call.kind)) && (f.statuses.size === 0 || f.statuses.has(call.status));
}

/** Whether a turn shows folded: the user's choice, else folded if rewound (Edit and resend) or not the last turn. */
export function isCollapsed(
  turn: number,
  last: number,
  fold: Map<number, boolean>,
  foldAll: boolean | undefined,
  rewound?: boolean,
): boolean {
  const v = fold.get(turn);
  if (v !== undefined) return v;
  if (rewound) return true;
  if (foldAll !== undefined) return foldAll;
  return turn !== last;
}

interface TurnCache {
  turn: TurnView;
  collapsed: boolean;
  filterKey: string;
  foldKey: string;
  rows: Row[];
}
const NONE: ReadonlySet<string> = new Set();
const cache = new WeakMap<TurnView, TurnCache>();

export function turnCounts(turn: TurnView, calls: Record<string, ToolCallView>): TurnOutline {
  return turn.outline ?? outlineOf(turn, calls);
}

/** Unfolded turns still held as outlines: the view asks the host for their content. */
export function outlinedOpen(s: SessionSnapshot, fold: Map<number, boolean>, foldAll: boolean | undefined): TurnView[] {
  const last = s.turns.length - 1;
  return s.turns.filter((t) => t?.outline && !isCollapsed(t.index, last, fold, foldAll, t.rewound));
}

export function buildRows(
  s: SessionSnapshot,
  fold: Map<number, boolean>,
  foldAll: boolean | undefined,
  filter: Filter,
  filterKey: string,
  /** Agent calls whose subagent rows the user folded. */
  folded: ReadonlySet<string> = NONE,
): Row[] {
  const foldKey = [...folded].join('\n');
  const rows: Row[] = [];
  const last = s.turns.length - 1;
  const active = filterActive(filter);
  // Notices go after the turn that was running when they arrived.
  const noticesByTurn = new Map<number, { notice: NoticeView; n: number }[]>();
  s.notices.forEach((notice, n) => {
    let t = -1;
    for (let i = s.turns.length - 1; i >= 0; i--)
      if (s.turns[i] && s.turns[i].startedAt <= notice.at) {
        t = i;
        break;
      }
    const list = noticesByTurn.get(t) ?? [];
    list.push({ notice, n });
    noticesByTurn.set(t, list);
  });
  for (const x of noticesByTurn.get(-1) ?? []) rows.push({ type: 'notice', key: `n${x.n}`, notice: x.notice, n: x.n });
  for (let t = 0; t <= last; t++) {
    const turn = s.turns[t];
    if (!turn) continue;
    const collapsed = isCollapsed(t, last, fold, foldAll, turn.rewound);
    const c = cache.get(turn);
    // filterKey carries the tools version only while a filter is active (rows then depend on statuses).
    if (c && c.collapsed === collapsed && c.filterKey === filterKey && c.foldKey === foldKey) {
      for (const r of c.rows) rows.push(r);
    } else {
      const own: Row[] = [];
      own.push({ type: 'turn', key: `t${t}`, turn, collapsed });
      if (!collapsed && turn.outline) {
        own.push({ type: 'loading', key: `l${t}`, turn: t });
      } else if (!collapsed) {
        const nest = subagentRows(turn, s.toolCalls);
        const seen = new Set<string>();
        const pushTool = (id: string, index: number, depth: number) => {
          if (seen.has(id)) return;
          seen.add(id);
          const kids = nest.children.get(id);
          const row: Row = { type: 'tool', key: `c${id}`, turn: t, index, toolCallId: id, depth };
          if (kids) row.subtree = { rows: countBelow(id, nest.children), folded: folded.has(id) };
          if (!active || matches(s.toolCalls[id], filter)) own.push(row);
          if (!kids || folded.has(id)) return;
          for (const k of kids)
            if (k.id !== undefined) pushTool(k.id, k.index, depth + 1);
            else
              own.push({
                type: 'item',
                key: `i${t}.${k.index}`,
                turn: t,
                index: k.index,
                item: k.item!,
                depth: depth + 1,
              });
        };
        turn.items.forEach((item, index) => {
          if (index === 0 && item.kind === 'user') return; // shown in the turn header
          if (item.kind === 'tool') {
            if (!nest.nested.has(item.toolCallId)) pushTool(item.toolCallId, index, 0); // else under its parent
          } else if (!nest.placed.has(index)) {
            // (a subagent's message is placed under its Agent call)
            own.push({ type: 'item', key: `i${t}.${index}`, turn: t, index, item });
          }
        });
        if ((turn.stopReason && turn.stopReason !== 'end_turn') || turn.error)
          own.push({ type: 'end', key: `e${t}`, turn });
      }
      cache.set(turn, { turn, collapsed, filterKey, foldKey, rows: own });
      for (const r of own) rows.push(r);
    }
    for (const x of noticesByTurn.get(t) ?? []) rows.push({ type: 'notice', key: `n${x.n}`, notice: x.notice, n: x.n });
  }
  return rows;
}

/** The row a row belongs to (Left arrow): a subagent's call's Agent call, else the turn header. */
export function parentRowIndex(rows: readonly Row[], i: number): number {
  const r = rows[i];
  if (!r || r.type === 'turn') return -1;
  const depth = r.type === 'tool' ? r.depth : r.type === 'item' ? (r.depth ?? 0) : 0;
  for (let j = i - 1; j >= 0; j--) {
    const p = rows[j];
    if (depth > 0 ? p.type === 'tool' && p.depth === depth - 1 : p.type === 'turn') return j;
    if (p.type === 'turn') return j;
  }
  return -1;
}

type Child = { index: number; id?: string; item?: Extract<ItemView, { kind: 'subagent' }> };

/**
 * A subagent's calls and messages by the call that started it (both in this turn), in the order
 * they came. `nested`: the calls shown under another; `placed`: the messages (by index) that are.
 */
function subagentRows(turn: TurnView, calls: Record<string, ToolCallView>) {
  const children = new Map<string, Child[]>();
  const nested = new Set<string>();
  const placed = new Set<number>();
  const here = new Set<string>();
  for (const item of turn.items) if (item.kind === 'tool') here.add(item.toolCallId);
  const add = (parent: string, child: Child) => {
    const list = children.get(parent) ?? [];
    list.push(child);
    children.set(parent, list);
  };
  turn.items.forEach((item, index) => {
    if (item.kind === 'subagent' && here.has(item.parentId)) {
      placed.add(index);
      add(item.parentId, { index, item });
    }
    if (item.kind !== 'tool') return;
    const parent = calls[item.toolCallId]?.parentId;
    if (!parent || !here.has(parent)) return;
    nested.add(item.toolCallId);
    add(parent, { id: item.toolCallId, index });
  });
  return { children, nested, placed };
}

/** How many rows a call's subtree holds, all levels (what a folded Agent call hides). */
function countBelow(id: string, children: Map<string, Child[]>, seen = new Set<string>()): number {
  if (seen.has(id)) return 0;
  seen.add(id);
  let n = 0;
  for (const k of children.get(id) ?? []) n += 1 + (k.id !== undefined ? countBelow(k.id, children, seen) : 0);
  return n;
}

/** A thought, the agent's or a subagent's: a folded row. */
export function isThought(item: ItemView): boolean {
  return item.kind === 'thought' || (item.kind === 'subagent' && item.role === 'thought');
}

/** A row's height before it is measured (px). */
export function estimateRowHeight(r: Row): number {
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
      if (isThought(r.item) || r.item.kind === 'compaction') return 26;
      const len = r.item.blocks.reduce((n, b) => n + (b.type === 'text' ? b.text.length : 40), 0);
      // A paragraph is ~19 px a line plus ~8 px of margins (a one-line message measures 26.8).
      return 8 + Math.max(1, Math.ceil(len / 60)) * 19;
    }
  }
}
