// What the row of a Code call shows the user (ToolResult.row), where the agent gets JSON: one
// line per place, `src/a.ts:12  const x = area(1)`, under a line that says how many, and the
// places themselves to open. The row lists what the agent got, no more (the JSON is bounded), and
// says how many more there were. Pure: no vscode.
import type { ResultRow } from '../types';

/** A place as a row lists it: the path as the agent got it, the absolute one to open, what is there. */
export interface RowPlace {
  /** Workspace-relative (or absolute outside the workspace), as in the JSON. */
  shown: string;
  /** Absolute file path to open; undefined for a URI that is no file. */
  path?: string;
  /** 1-based. */
  line: number;
  /** What the line says (the line's text, a symbol's name and kind); empty when not shown. */
  text?: string;
}

/** Widest `path:line` column; longer ones push their text further right. */
const MAX_PLACE_WIDTH = 60;

/** "1 reference", "4 references". */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * `head`, then a line per place; `total`: how many there were before the JSON was cut (the row
 * says how many it leaves out); `open`: the places to link, when not each listed place (a file's outline).
 */
export function placesRow(
  head: string,
  places: readonly RowPlace[],
  total: number,
  open?: ResultRow['locations'],
): ResultRow {
  const label = (p: RowPlace) => `${p.shown}:${p.line}`;
  const width = Math.min(MAX_PLACE_WIDTH, Math.max(0, ...places.map((p) => label(p).length)));
  const lines = places.map((p) => (p.text ? `${label(p).padEnd(width)}  ${p.text}` : label(p)));
  const more = total - places.length;
  if (more > 0) lines.push(`… ${more} more, not listed (the agent got the first ${places.length})`);
  return {
    text: [head, ...lines].join('\n'),
    locations: open ?? places.flatMap((p) => (p.path ? [{ path: p.path, line: p.line }] : [])),
  };
}

/** A file's outline: `12  area  Function`, its line numbers right-aligned; the row opens the file. */
export function outlineRow(
  shown: string,
  path: string | undefined,
  symbols: ReadonlyArray<{ name: string; kind: string; container?: string; line: number }>,
  total: number,
): ResultRow {
  const width = Math.max(0, ...symbols.map((s) => String(s.line).length));
  const lines = symbols.map(
    (s) => `${String(s.line).padStart(width)}  ${s.container ? `${s.container} › ` : ''}${s.name}  ${s.kind}`,
  );
  const more = total - symbols.length;
  if (more > 0) lines.push(`… ${more} more, not listed (the agent got the first ${symbols.length})`);
  return {
    text: [`${shown}: ${count(total, 'symbol')}`, ...lines].join('\n'),
    locations: path ? [{ path }] : [],
  };
}
