// A virtualized vertical list with rows of unknown, changing height. Only the rows in and
// near the viewport are in the DOM; heights are measured with one ResizeObserver and cached
// by row key, unmeasured rows use an estimate. Keeps the tail in view while the user is at
// the bottom (follow mode); rows growing above the viewport do not move what is on screen.
import type { JSX, VNode } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { RowBox } from './VirtualRow';

/** Space below the last row (part of the list's height, so the end is computable). */
const PAD_BOTTOM = 8;

export interface VirtualHandle {
  scrollToIndex(i: number): void;
  scrollToBottom(): void;
  /** Index range currently rendered [start, end). */
  range(): [number, number];
}

interface Props<R extends { key: string }> extends Omit<JSX.HTMLAttributes<HTMLDivElement>, 'ref'> {
  rows: R[];
  estimate: (r: R) => number;
  /**
   * Rows of one size class have one height (a folded tool call is one line): once one is
   * measured, new rows of the class start at that height, so appending them is one layout,
   * not a layout, a re-render and a second layout.
   */
  sizeClass?: (r: R) => string | undefined;
  renderRow: (r: R, index: number) => VNode;
  overscan?: number;
  handle?: { current: VirtualHandle | null };
  /** Called after each render with the rendered range (keyboard focus uses it). */
  onRange?: (start: number, end: number) => void;
  /**
   * Where to open: a row's key and how far its top is above the viewport (a view shown again).
   * A row not there yet (its turn's content is still loading) is waited for a moment.
   */
  initialAnchor?: { key: string; offset: number };
  /** The user scrolled: the row at the top of the viewport, or undefined at the end (following). */
  onAnchor?: (a: { key: string; offset: number } | undefined) => void;
}

/** How long a view shown again waits for the row it should open at. */
const ANCHOR_WAIT_MS = 2000;

export function VirtualList<R extends { key: string }>({
  rows,
  estimate: guess,
  sizeClass,
  renderRow,
  overscan = 400,
  handle,
  onRange,
  initialAnchor,
  onAnchor,
  ...attrs
}: Props<R>) {
  const scroller = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<string, number>());
  const classHeights = useRef(new Map<string, number>());
  // The observer outlives renders: it reads the latest props through refs.
  const props = useRef({ guess, sizeClass });
  props.current = { guess, sizeClass };
  const estimate = (r: R) => {
    const c = props.current.sizeClass?.(r);
    return (c !== undefined ? classHeights.current.get(c) : undefined) ?? props.current.guess(r);
  };
  const [hv, setHv] = useState(0);
  const [scrollTop, setScrollTop] = useState(0);
  const [vh, setVh] = useState(600);
  const stick = useRef(true);
  const anchorDelta = useRef(0);
  const lastSet = useRef(-1);
  const rendered = useRef(new Map<string, number>());
  const rangeRef = useRef<[number, number]>([0, 0]);
  const pendingAnchor = useRef(initialAnchor ? { ...initialAnchor, until: Date.now() + ANCHOR_WAIT_MS } : undefined);

  const offsets = useMemo(() => {
    const o = new Float64Array(rows.length + 1);
    const h = heights.current;
    let y = 0;
    for (let i = 0; i < rows.length; i++) {
      o[i] = y;
      y += h.get(rows[i].key) ?? estimate(rows[i]);
    }
    o[rows.length] = y;
    return o;
  }, [rows, hv]);
  const total = offsets[rows.length];
  const offsetsRef = useRef(offsets);
  offsetsRef.current = offsets;
  const rowsRef = useRef(rows);
  rowsRef.current = rows;

  const top = stick.current ? Math.max(0, total + PAD_BOTTOM - vh) : scrollTop;
  const start = Math.max(0, upperBound(offsets, top - overscan, rows.length) - 1);
  let end = upperBound(offsets, top + vh + overscan, rows.length);
  end = Math.min(rows.length, Math.max(end, start + 1));
  rangeRef.current = [start, end];

  const ro = useMemo(
    () =>
      typeof ResizeObserver === 'undefined'
        ? undefined
        : new ResizeObserver((entries) => {
            let changed = false;
            const el = scroller.current;
            const st = el?.scrollTop ?? 0;
            const measuredClasses = new Map<string, number>();
            for (const e of entries) {
              const t = e.target as HTMLElement;
              const key = t.dataset.key;
              if (!key || !t.isConnected) continue;
              const h = e.borderBoxSize?.[0]?.blockSize ?? t.offsetHeight;
              const i = rendered.current.get(key);
              const row = i !== undefined ? rowsRef.current[i] : undefined;
              // What the last render assumed for this row.
              const old = heights.current.get(key) ?? (row ? estimate(row) : undefined);
              const c = row && props.current.sizeClass?.(row);
              if (c !== undefined) measuredClasses.set(c, h);
              heights.current.set(key, h);
              // Sub-pixel differences (estimates are whole pixels) move nothing on screen: rows are in
              // normal flow inside the window, and the next render uses the measured height anyway.
              if (old !== undefined && Math.abs(old - h) < 1) continue;
              changed = true;
              // A row wholly above the viewport changed height: shift the scroll position by as much.
              // Not the row the viewport's top cuts: rows grow at their end (a turn's changes list, a
              // command's output), so what the reader sees of it stays where it is.
              if (!stick.current && i !== undefined && old !== undefined && offsetsRef.current[i + 1] <= st)
                anchorDelta.current += h - old;
            }
            // A class's height changed: every unmeasured row of it moves.
            for (const [c, h] of measuredClasses)
              if (classHeights.current.get(c) !== h) {
                classHeights.current.set(c, h);
                changed = true;
              }
            if (changed) setHv((v) => v + 1);
          }),
    [],
  );
  useEffect(() => () => ro?.disconnect(), [ro]);
  const probes = useRef(new Map<string, string>());
  // A row stops being observed (it folded back into its size class): its own height is stale.
  const forget = useMemo(
    () => (key: string) => {
      const was = heights.current.get(key);
      if (was === undefined) return;
      heights.current.delete(key);
      const i = rendered.current.get(key);
      const c = i !== undefined ? props.current.sizeClass?.(rowsRef.current[i]) : undefined;
      if (c === undefined || classHeights.current.get(c) !== was) setHv((v) => v + 1);
    },
    [],
  );

  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const r = new ResizeObserver(() => setVh(el.clientHeight || 600));
    r.observe(el);
    setVh(el.clientHeight || 600);
    return () => r.disconnect();
  }, []);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const want = pendingAnchor.current;
    const at = want ? rows.findIndex((r) => r.key === want.key) : -1;
    if (want && at >= 0) {
      // Shown again: open where the user was reading. Until the rows below have arrived the
      // list may be too short to scroll there: kept pending, tried again as they come.
      const target = offsets[at] + want.offset;
      stick.current = false;
      el.scrollTop = target;
      lastSet.current = el.scrollTop;
      if (Math.abs(el.scrollTop - target) < 1 || Date.now() > want.until) pendingAnchor.current = undefined;
      setScrollTop(el.scrollTop);
    } else if (want && Date.now() > want.until) pendingAnchor.current = undefined;
    // Following the tail: scroll to the (computed) end; no read of scrollHeight, which would
    // force a synchronous layout on every frame.
    if (stick.current) {
      const y = Math.max(0, total + PAD_BOTTOM - vh);
      if (lastSet.current !== y) {
        el.scrollTop = y;
        lastSet.current = y;
      }
    } else if (anchorDelta.current) {
      el.scrollTop += anchorDelta.current;
      lastSet.current = -1;
    }
    anchorDelta.current = 0;
    onRange?.(start, end);
  });

  if (handle)
    handle.current = {
      scrollToIndex(i: number) {
        const el = scroller.current;
        if (!el || i < 0 || i >= rows.length) return;
        const y0 = offsets[i],
          y1 = offsets[i + 1];
        if (y0 < el.scrollTop) el.scrollTop = y0;
        else if (y1 > el.scrollTop + el.clientHeight) el.scrollTop = y1 - el.clientHeight;
        else return;
        stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 4;
        setScrollTop(el.scrollTop);
      },
      scrollToBottom() {
        stick.current = true;
        setScrollTop(Number.MAX_SAFE_INTEGER);
      },
      range: () => rangeRef.current,
    };

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    // A scroll we caused ourselves (following the tail, opening at the anchor) changes nothing.
    if ((stick.current || pendingAnchor.current) && Math.abs(el.scrollTop - lastSet.current) < 1) return;
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 8;
    lastSet.current = -1;
    setScrollTop(el.scrollTop);
    if (onAnchor) {
      pendingAnchor.current = undefined;
      const i = Math.max(0, upperBound(offsets, el.scrollTop, rows.length) - 1);
      onAnchor(stick.current || !rows[i] ? undefined : { key: rows[i].key, offset: el.scrollTop - offsets[i] });
    }
  };

  rendered.current = new Map();
  for (let i = start; i < end; i++) rendered.current.set(rows[i].key, i);
  // Rows of a measured size class are not observed, except one probe per class (the newest row
  // of it, so it stays long while the tail grows): every observed new row would cost the frame
  // a second style/layout/pre-paint pass for its first notification.
  const probe = probes.current;
  const classes: (string | undefined)[] = [];
  for (let i = start; i < end; i++) classes[i - start] = sizeClass?.(rows[i]);
  // A probe that left the window, or left its class (it expanded), is replaced.
  for (const [c, key] of probe) {
    const i = rendered.current.get(key);
    if (i === undefined || classes[i - start] !== c) probe.delete(c);
  }
  for (let i = end - 1; i >= start; i--) {
    const c = classes[i - start];
    if (c !== undefined && classHeights.current.has(c) && !probe.has(c)) probe.set(c, rows[i].key);
  }
  const items: VNode[] = [];
  for (let i = start; i < end; i++) {
    const r = rows[i];
    const c = classes[i - start];
    const observe = c === undefined || !classHeights.current.has(c) || probe.get(c) === r.key;
    items.push(
      <RowBox key={r.key} k={r.key} ro={ro} observe={observe} forget={forget}>
        {renderRow(r, i)}
      </RowBox>,
    );
  }
  return (
    <div {...attrs} ref={scroller} onScroll={onScroll}>
      <div class="vlist-inner" style={{ height: `${total + PAD_BOTTOM}px` }}>
        <div class="vlist-window" style={{ transform: `translateY(${offsets[start]}px)` }}>
          {items}
        </div>
      </div>
    </div>
  );
}

/** First index i in [0, n] with offsets[i] > y. */
function upperBound(o: Float64Array, y: number, n: number): number {
  let lo = 0,
    hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (o[mid] <= y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
