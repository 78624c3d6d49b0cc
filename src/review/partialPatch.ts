// A unified diff that carries only some of a file's hunks, for `git apply --cached`: committing
// part of the agent's work to a file stages exactly the hunks the user chose and nothing else.
// The hunks come from the project's one line diff (shared/lineDiff.ts, the hunks the editor's
// Keep | Undo lenses show) of the file's text in the index → the file now; this module only
// writes them as a patch. Lines keep their terminators, so a CRLF line goes out with its \r and a
// last line without a newline is marked as git marks it; the new side's line numbers count only
// the chosen hunks, since the ones left out are not applied.
// Pure: no git and no diff here (this layer imports only common/: the caller passes the base's
// lines and the hunks, both from shared/lineDiff.ts).

/** One run of changed lines: the shape of shared/lineDiff.ts's Hunk (0-based starts, lines keep their terminators). */
export interface LineHunk {
  readonly oldStart: number;
  readonly oldLines: readonly string[];
  readonly newStart: number;
  readonly newLines: readonly string[];
}

/** Unchanged lines around each hunk, as `git diff` writes them; git apply matches them exactly. */
export const CONTEXT_LINES = 3;

const NO_NEWLINE = '\\ No newline at end of file\n';

/**
 * The patch (for `git apply --cached`) that turns the base into the base with hunks `chosen` of
 * `hunks` applied. `lines`: the base split by lineDiff.ts's splitLines; `hunks`: the line diff of
 * the base → the file now; `rel`: the repository-relative path (`/`-separated). Empty when nothing
 * is chosen. Throws a RangeError for an index with no hunk.
 */
export function partialPatch(
  rel: string,
  lines: readonly string[],
  hunks: readonly LineHunk[],
  chosen: readonly number[],
  context = CONTEXT_LINES,
): string {
  for (const i of chosen) if (!hunks[i]) throw new RangeError(`${rel} has no change number ${i + 1}.`);
  const picked = [...new Set(chosen)].sort((a, b) => hunks[a].oldStart - hunks[b].oldStart).map((i) => hunks[i]);
  if (!picked.length) return '';
  const [a, b] = [quotePath(`a/${rel}`), quotePath(`b/${rel}`)];
  let out = `diff --git ${a} ${b}\n--- ${a}\n+++ ${b}\n`;
  // Lines the chosen hunks before a group added minus those they removed: where it lands in the new text.
  let shift = 0;
  for (const group of groups(picked, context)) {
    const from = Math.max(0, group[0].oldStart - context);
    const last = group[group.length - 1];
    const to = Math.min(lines.length, last.oldStart + last.oldLines.length + context);
    const body: string[] = [];
    let at = from;
    let delta = 0;
    for (const h of group) {
      for (; at < h.oldStart; at++) body.push(line(' ', lines[at]));
      for (const l of h.oldLines) body.push(line('-', l));
      for (const l of h.newLines) body.push(line('+', l));
      at = h.oldStart + h.oldLines.length;
      delta += h.newLines.length - h.oldLines.length;
    }
    for (; at < to; at++) body.push(line(' ', lines[at]));
    const oldCount = to - from;
    const newCount = oldCount + delta;
    out += `@@ -${range(from, oldCount)} +${range(from + shift, newCount)} @@\n${body.join('')}`;
    shift += delta;
  }
  return out;
}

/** The hunks in order, joined where their context lines would touch or overlap (as git diff does). */
function groups(hunks: readonly LineHunk[], context: number): LineHunk[][] {
  const out: LineHunk[][] = [];
  for (const h of hunks) {
    const prev = out.at(-1)?.at(-1);
    if (prev && h.oldStart - (prev.oldStart + prev.oldLines.length) <= 2 * context) out.at(-1)!.push(h);
    else out.push([h]);
  }
  return out;
}

/** "start,count" of a hunk header: 1-based, and the line before when the range is empty (unified diff's rule). */
function range(start: number, count: number): string {
  return `${count === 0 ? start : start + 1},${count}`;
}

function line(mark: ' ' | '-' | '+', text: string): string {
  return text.endsWith('\n') ? `${mark}${text}` : `${mark}${text}\n${NO_NEWLINE}`;
}

const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * A path as git writes it in a patch header: as is, or C-quoted when it holds a quote, a
 * backslash or a control character (git apply reads both forms; an unquoted tab would end the name).
 */
export function quotePath(p: string): string {
  if (!/["\\\u0000-\u001f\u007f]/.test(p)) return p;
  const body = p.replace(
    /["\\\u0000-\u001f\u007f]/g,
    (c) => ESCAPES[c] ?? `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`,
  );
  return `"${body}"`;
}
