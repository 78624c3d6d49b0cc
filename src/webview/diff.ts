// Line diff for the inline view of `{type:"diff"}` tool content. Myers' O(ND) algorithm on
// lines after trimming the common head and tail; bounded: a huge change degrades to
// "all old removed, all new added" instead of stalling the webview.

export type DiffLine = { t: ' ' | '+' | '-'; text: string; oldNo?: number; newNo?: number };

export interface DiffResult {
  lines: DiffLine[];
  added: number;
  removed: number;
  /** oldText was null: a new file. */
  isNew: boolean;
}

const MAX_D = 2000;

export function splitLines(s: string): string[] {
  if (s === '') return [];
  const lines = s.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function diffLines(oldText: string | null | undefined, newText: string): DiffResult {
  const isNew = oldText == null;
  const a = splitLines(oldText ?? '');
  const b = splitLines(newText);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  const ops = myers(am, bm) ?? [...am.map(() => '-' as const), ...bm.map(() => '+' as const)];
  const lines: DiffLine[] = [];
  let o = 0,
    n = 0,
    added = 0,
    removed = 0;
  for (let i = 0; i < head; i++) lines.push({ t: ' ', text: a[i], oldNo: ++o, newNo: ++n });
  let ai = 0,
    bi = 0;
  for (const op of ops) {
    if (op === ' ') {
      lines.push({ t: ' ', text: am[ai++], oldNo: ++o, newNo: ++n });
      bi++;
    } else if (op === '-') {
      lines.push({ t: '-', text: am[ai++], oldNo: ++o });
      removed++;
    } else {
      lines.push({ t: '+', text: bm[bi++], newNo: ++n });
      added++;
    }
  }
  for (let i = a.length - tail; i < a.length; i++) lines.push({ t: ' ', text: a[i], oldNo: ++o, newNo: ++n });
  return { lines, added, removed, isNew };
}

/** Edit script (' ', '-', '+') or undefined when the distance exceeds MAX_D. */
function myers(a: string[], b: string[]): (' ' | '-' | '+')[] | undefined {
  const N = a.length,
    M = b.length;
  if (N === 0) return b.map(() => '+' as const);
  if (M === 0) return a.map(() => '-' as const);
  const max = Math.min(N + M, MAX_D);
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      while (x < N && y < M && a[x] === b[y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= N && y >= M) return backtrack(trace, a, b, off, d);
    }
  }
  return undefined;
}

function backtrack(trace: Int32Array[], a: string[], b: string[], off: number, dEnd: number): (' ' | '-' | '+')[] {
  const out: (' ' | '-' | '+')[] = [];
  let x = a.length,
    y = b.length;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? k + 1 : k - 1;
    const prevX = v[off + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      out.push(' ');
      x--;
      y--;
    }
    if (x === prevX) {
      out.push('+');
      y--;
    } else {
      out.push('-');
      x--;
    }
  }
  while (x > 0 && y > 0) {
    out.push(' ');
    x--;
    y--;
  }
  return out.reverse();
}

/** Keeps changed lines with `context` lines around them; gaps become one `null` entry. */
export function hunks(lines: DiffLine[], context = 3): (DiffLine | null)[] {
  const keep = new Uint8Array(lines.length);
  lines.forEach((l, i) => {
    if (l.t === ' ') return;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) keep[j] = 1;
  });
  const out: (DiffLine | null)[] = [];
  let gap = false;
  for (let i = 0; i < lines.length; i++) {
    if (keep[i]) {
      out.push(lines[i]);
      gap = false;
    } else if (!gap) {
      out.push(null);
      gap = true;
    }
  }
  return out;
}
