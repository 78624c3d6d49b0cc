// Which of a terminal's lines are drawn. Lines are one height each (`white-space: pre`, a fixed
// line height), so the box draws only the lines in view plus a margin and stands in for the
// others with two spacers: 20 MB of output replaces all 1,000 kept lines every flush, and laying
// out 1,000 new lines each time held the page for 50–130 ms a frame (bench/webview.mjs, terminal).

/** Lines drawn beyond the visible ones, on each side. */
export const OVERSCAN_LINES = 20;

export interface LineWindow {
  /** Index of the first drawn line. */
  first: number;
  /** One past the last drawn line. */
  end: number;
}

/**
 * The lines to draw of `count`, each `lineHeight` px, in a box `viewHeight` px tall scrolled to
 * `scrollTop`; `following` (the box stays at the bottom) draws the tail without reading the scroll.
 */
export function lineWindow(
  count: number,
  lineHeight: number,
  viewHeight: number,
  scrollTop: number,
  following: boolean,
): LineWindow {
  const visible = Math.ceil(viewHeight / lineHeight) + 1;
  if (following) return { first: Math.max(0, count - visible - OVERSCAN_LINES), end: count };
  const top = Math.floor(scrollTop / lineHeight);
  const first = Math.min(Math.max(0, top - OVERSCAN_LINES), Math.max(0, count - visible - OVERSCAN_LINES));
  return { first, end: Math.min(count, top + visible + OVERSCAN_LINES) };
}
