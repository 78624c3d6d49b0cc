// The data shapes of the Code group and how results are made for the agent: positions in
// (1-based line and column, or a symbol named on the line), locations out (workspace-relative
// path, 1-based line/column, the line's text), and results bounded in size with the cut said.
// Pure: the language features answer through CodePort (src/tools/code/codeTools.ts).
import { displayPath, type WorkspaceFolderInfo } from '../workspace/workspacePaths';

/** 0-based, as VS Code counts (the port speaks VS Code's units; the agent sees 1-based). */
export interface Pos {
  line: number;
  character: number;
}
export interface Span {
  start: Pos;
  end: Pos;
}

/** A place a provider answered with. `path`: the file system path when the URI is a file. */
export interface PortLocation {
  uri: string;
  path?: string;
  range: Span;
}

/** A document the language features can be asked about. */
export interface PortDocument {
  uri: string;
  path?: string;
  languageId: string;
  lineCount: number;
  lineAt(line: number): string;
}

/** The most characters of JSON a Code tool returns; longer results are cut (and say so). */
export const MAX_RESULT_CHARS = 40_000;
/** The largest `limit` a call may ask for. */
export const MAX_LIMIT = 500;
/** Longest line text shown with a location. */
const MAX_PREVIEW = 160;

/** A location as the agent gets it. */
export interface ShownLocation {
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** The text of the line (trimmed, cut at 160 characters). */
  text?: string;
}

export function shownLocation(
  loc: PortLocation,
  folders: readonly WorkspaceFolderInfo[],
  lineText?: string,
): ShownLocation {
  const text = lineText?.trim();
  return {
    path: displayPath(loc.path ?? loc.uri, folders),
    line: loc.range.start.line + 1,
    column: loc.range.start.character + 1,
    endLine: loc.range.end.line + 1,
    endColumn: loc.range.end.character + 1,
    ...(text !== undefined ? { text: text.length > MAX_PREVIEW ? `${text.slice(0, MAX_PREVIEW - 1)}…` : text } : {}),
  };
}

/** Sort key: file, then position. */
export function byPlace(a: PortLocation, b: PortLocation): number {
  const pa = a.path ?? a.uri;
  const pb = b.path ?? b.uri;
  if (pa !== pb) return pa < pb ? -1 : 1;
  return a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character;
}

/** Drops exact duplicates (providers that answer twice, e.g. a declaration also listed as a reference). */
export function uniqueLocations(locs: readonly PortLocation[]): PortLocation[] {
  const seen = new Set<string>();
  return locs.filter((l) => {
    const k = `${l.uri}#${l.range.start.line}:${l.range.start.character}-${l.range.end.line}:${l.range.end.character}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

const IDENT = /[\p{L}\p{N}_$]/u;

/**
 * The position a call points at: `line` (1-based) and `column` (1-based), or `line` and a
 * `symbol` written on that line (its first whole-word occurrence, or `occurrence` n). Throws a
 * message naming what is wrong and what the line holds, so the agent can correct the call; with
 * `echo` false (a file outside the workspace) the message leaves the line's text out.
 */
export function positionOf(
  doc: PortDocument,
  shownPath: string,
  a: { line: number; column?: number; symbol?: string; occurrence?: number },
  echo = true,
): Pos {
  if (a.line > doc.lineCount)
    throw new Error(`Line ${a.line} is past the end of ${shownPath} (${doc.lineCount} lines).`);
  const text = doc.lineAt(a.line - 1);
  const shown = echo
    ? JSON.stringify(text.length > 200 ? `${text.slice(0, 199)}…` : text)
    : 'not shown (the file is outside the workspace)';
  if (a.symbol !== undefined && a.symbol !== '') {
    const hits: number[] = [];
    for (let i = text.indexOf(a.symbol); i >= 0; i = text.indexOf(a.symbol, i + 1)) {
      const before = i > 0 ? text[i - 1] : '';
      const after = text[i + a.symbol.length] ?? '';
      const wordLike = IDENT.test(a.symbol[0] ?? '') && IDENT.test(a.symbol[a.symbol.length - 1] ?? '');
      if (!wordLike || (!IDENT.test(before) && !IDENT.test(after))) hits.push(i);
    }
    const n = a.occurrence ?? 1;
    if (!hits.length)
      throw new Error(`"${a.symbol}" does not occur on line ${a.line} of ${shownPath}; the line is ${shown}.`);
    if (n > hits.length)
      throw new Error(
        `"${a.symbol}" occurs ${hits.length} time(s) on line ${a.line} of ${shownPath}, not ${n}; the line is ${shown}.`,
      );
    return { line: a.line - 1, character: hits[n - 1] };
  }
  if (a.column === undefined)
    throw new Error(
      `Say where on line ${a.line} of ${shownPath}: pass "column" (1-based) or "symbol" (a name on that line); the line is ${shown}.`,
    );
  if (a.column > text.length + 1)
    throw new Error(
      `Column ${a.column} is past the end of line ${a.line} of ${shownPath} (${text.length} characters); the line is ${shown}.`,
    );
  return { line: a.line - 1, character: a.column - 1 };
}

/**
 * The longest prefix of `items` whose result (built by `make`) fits in `maxChars` of JSON, and
 * at most `limit` items. Returns the result with `shown`, `total` and `truncated` filled in.
 */
export function bounded<T, R extends object>(
  items: readonly T[],
  limit: number,
  make: (shown: readonly T[]) => R,
  maxChars = MAX_RESULT_CHARS,
): R & { total: number; shown: number; truncated?: string } {
  const total = items.length;
  const build = (n: number, why: 'limit' | 'size') => ({
    ...make(items.slice(0, n)),
    total,
    shown: n,
    ...(n < total
      ? {
          truncated:
            why === 'limit'
              ? `Showing ${n} of ${total} (limit ${limit}; ${limit < MAX_LIMIT ? `pass a larger "limit", up to ${MAX_LIMIT}, or ` : ''}narrow the query).`
              : `Showing ${n} of ${total}: the whole result is too large for one answer; narrow the query.`,
        }
      : {}),
  });
  const fits = (r: object) => JSON.stringify(r).length <= maxChars;
  const first = build(Math.min(limit, total), 'limit');
  if (fits(first)) return first;
  // The largest count that fits.
  let lo = 0;
  let hi = Math.min(limit, total);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(build(mid, 'size'))) lo = mid;
    else hi = mid - 1;
  }
  return build(lo, 'size');
}

/** Text cut to `max` characters, saying so. */
export function clipText(text: string, max: number): { text: string; truncated?: string } {
  if (text.length <= max) return { text };
  return { text: text.slice(0, max), truncated: `Cut at ${max} of ${text.length} characters.` };
}
