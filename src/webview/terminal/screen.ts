// A small terminal screen for command output: enough of VT100/ANSI for what build tools and
// shells print to a pipe: SGR colors (16, 256, truecolor), bold/dim/italic/underline/inverse,
// carriage return (progress bars redraw their line), backspace, tab, erase in line/display,
// cursor up/down/column moves (multi-line progress bars). OSC (titles, hyperlinks) and other
// controls are skipped. Bounded: at most `maxLines` lines (oldest dropped) of `maxCols` chars.
import { applySgr, type Style } from './style';

export interface Line {
  chars: string[];
  styles: number[];
  /** Bumped on every change: a rendered line is redrawn only when this moved. */
  v: number;
  id: number;
}

/** Cursor moves and erases: output with them cannot be skipped by counting its lines. */
const CURSOR_MOVE = /\x1b\[[0-9;?]*[ABEFHfJ]/;
const SGR = /\x1b\[([0-9;:]*)m/g;

export class Screen {
  lines: Line[] = [];
  /** Lines dropped from the top so far. */
  dropped = 0;
  private row = 0;
  private col = 0;
  private style: Style = {};
  private styleId = 0;
  readonly styleTable: Style[] = [{}];
  private styleKeys = new Map<string, number>([['{}', 0]]);
  private pending = '';
  private nextId = 1;
  version = 0;

  constructor(
    readonly maxLines = 2000,
    readonly maxCols = 4000,
  ) {
    this.lines.push(this.newLine());
  }

  private newLine(): Line {
    return { chars: [], styles: [], v: 0, id: this.nextId++ };
  }

  write(data: string): void {
    if (!data) return;
    let s = this.pending + data;
    this.pending = '';
    this.version++;
    let i = this.fastForward(s);
    const n = s.length;
    while (i < n) {
      const c = s.charCodeAt(i);
      if (c === 0x1b) {
        const end = this.escape(s, i);
        if (end < 0) {
          this.pending = s.slice(i);
          if (this.pending.length > 256) this.pending = '';
          break;
        }
        i = end;
        continue;
      }
      if (c === 0x0a) {
        this.lineFeed();
        this.col = 0;
        i++;
        continue;
      }
      if (c === 0x0d) {
        this.col = 0;
        i++;
        continue;
      }
      if (c === 0x08) {
        if (this.col > 0) this.col--;
        i++;
        continue;
      }
      if (c === 0x09) {
        const to = Math.min(this.maxCols, (Math.floor(this.col / 8) + 1) * 8);
        while (this.col < to) this.put(' ');
        i++;
        continue;
      }
      if (c < 0x20 || c === 0x7f) {
        i++;
        continue;
      }
      // Plain run: up to the next control character.
      let j = i + 1;
      while (j < n) {
        const d = s.charCodeAt(j);
        if (d < 0x20 || d === 0x7f) break;
        j++;
      }
      for (const ch of s.slice(i, j)) this.put(ch);
      i = j;
    }
    s = '';
    this.trim();
  }

  /**
   * `s` brings more lines than the screen keeps (a 256 KiB flush is 3,000 lines): returns where the
   * last maxLines start, having applied only the colors of the lines before. Only from the last line
   * and with no cursor moves, where the result is the same as drawing every line.
   */
  private fastForward(s: string): number {
    if (s.length <= this.maxLines || this.row !== this.lines.length - 1 || CURSOR_MOVE.test(s)) return 0;
    let at = s.length;
    for (let k = 0; k <= this.maxLines; k++) {
      at = at > 0 ? s.lastIndexOf('\n', at - 1) : -1;
      if (at < 0) return 0;
    }
    const skipped = s.slice(0, at + 1);
    for (const m of skipped.matchAll(SGR)) this.csi(m[1], 'm');
    let newlines = 0;
    for (let j = skipped.indexOf('\n'); j >= 0; j = skipped.indexOf('\n', j + 1)) newlines++;
    this.dropped += this.lines.length + newlines - 1;
    this.lines = [this.newLine()];
    this.row = 0;
    this.col = 0;
    return at + 1;
  }

  private line(): Line {
    while (this.row >= this.lines.length) this.lines.push(this.newLine());
    return this.lines[this.row];
  }

  private put(ch: string): void {
    if (this.col >= this.maxCols) return;
    const l = this.line();
    while (l.chars.length < this.col) {
      l.chars.push(' ');
      l.styles.push(0);
    }
    l.chars[this.col] = ch;
    l.styles[this.col] = this.styleId;
    l.v++;
    this.col++;
  }

  private lineFeed(): void {
    this.row++;
    if (this.row >= this.lines.length) this.lines.push(this.newLine());
    // Dropped in batches (one splice per line cost 1.5 s for 20 MB); `write` trims before it returns.
    if (this.lines.length >= this.maxLines * 2) this.trim();
  }

  /** Drops the oldest lines beyond maxLines. */
  private trim(): void {
    const over = this.lines.length - this.maxLines;
    if (over <= 0) return;
    this.lines.splice(0, over);
    this.dropped += over;
    this.row = Math.max(0, this.row - over);
  }

  /** Parses an escape sequence at s[i] (ESC). Returns the index after it, or -1 if incomplete. */
  private escape(s: string, i: number): number {
    if (i + 1 >= s.length) return -1;
    const k = s[i + 1];
    if (k === '[') {
      let j = i + 2;
      while (j < s.length) {
        const c = s.charCodeAt(j);
        if (c >= 0x40 && c <= 0x7e) break;
        j++;
      }
      if (j >= s.length) return -1;
      this.csi(s.slice(i + 2, j), s[j]);
      return j + 1;
    }
    if (k === ']') {
      // OSC … BEL or ESC \
      for (let j = i + 2; j < s.length; j++) {
        if (s.charCodeAt(j) === 0x07) return j + 1;
        if (s.charCodeAt(j) === 0x1b && s[j + 1] === '\\') return j + 2;
      }
      return -1;
    }
    if (k === '(' || k === ')') return i + 3 <= s.length ? i + 3 : -1;
    return i + 2;
  }

  private csi(params: string, final: string): void {
    const priv = params.startsWith('?');
    const nums = (priv ? params.slice(1) : params).split(';').map((x) => (x === '' ? NaN : Number(x)));
    const n1 = Number.isFinite(nums[0]) && nums[0] > 0 ? nums[0] : 1;
    // Moves down stop at the screen's last row (the last 24 lines), as in a terminal: `ESC[99999999B` built that many.
    const bottom = Math.max(this.lines.length, 24) - 1;
    if (priv) return;
    switch (final) {
      case 'm':
        this.sgr(params === '' ? [0] : params.split(/[;:]/).map((x) => Number(x) || 0));
        break;
      case 'K': {
        const l = this.line();
        const mode = nums[0] || 0;
        if (mode === 0) {
          l.chars.length = Math.min(l.chars.length, this.col);
          l.styles.length = l.chars.length;
        } else if (mode === 1) for (let c = 0; c < Math.min(this.col + 1, l.chars.length); c++) l.chars[c] = ' ';
        else {
          l.chars = [];
          l.styles = [];
        }
        l.v++;
        break;
      }
      case 'J': {
        const mode = nums[0] || 0;
        if (mode === 2 || mode === 3) {
          for (const l of this.lines) {
            l.chars = [];
            l.styles = [];
            l.v++;
          }
        } else if (mode === 0) {
          const l = this.line();
          l.chars.length = Math.min(l.chars.length, this.col);
          l.styles.length = l.chars.length;
          l.v++;
          this.lines.length = this.row + 1;
        }
        break;
      }
      case 'A':
        this.row = Math.max(0, this.row - n1);
        break;
      case 'B':
      case 'E':
        this.row = Math.min(this.row + n1, bottom);
        if (final === 'E') this.col = 0;
        this.line();
        break;
      case 'C':
        this.col = Math.min(this.maxCols, this.col + n1);
        break;
      case 'D':
        this.col = Math.max(0, this.col - n1);
        break;
      case 'F':
        this.row = Math.max(0, this.row - n1);
        this.col = 0;
        break;
      case 'G':
        this.col = Math.min(this.maxCols, n1 - 1);
        break;
      case 'H':
      case 'f': {
        // Absolute positions are relative to the visible screen; we treat the last 24 lines as it.
        const top = Math.max(0, this.lines.length - 24);
        this.row = Math.min(top + ((Number.isFinite(nums[0]) && nums[0] > 0 ? nums[0] : 1) - 1), bottom);
        this.col = (Number.isFinite(nums[1]) && nums[1] > 0 ? nums[1] : 1) - 1;
        this.line();
        break;
      }
    }
  }

  private sgr(p: number[]): void {
    const st = applySgr(this.style, p);
    this.style = st;
    const key = JSON.stringify(st);
    let id = this.styleKeys.get(key);
    if (id === undefined) {
      id = this.styleTable.length;
      this.styleTable.push(st);
      this.styleKeys.set(key, id);
    }
    this.styleId = id;
  }

  /** A line as runs of equal style. */
  runs(l: Line): { text: string; style: number }[] {
    const out: { text: string; style: number }[] = [];
    let start = 0;
    for (let c = 1; c <= l.chars.length; c++) {
      if (c === l.chars.length || l.styles[c] !== l.styles[start]) {
        out.push({ text: l.chars.slice(start, c).join(''), style: l.styles[start] ?? 0 });
        start = c;
      }
    }
    return out;
  }

  /** Plain text of the screen (tests, copy). */
  text(): string {
    let end = this.lines.length;
    while (end > 0 && this.lines[end - 1].chars.length === 0) end--;
    return this.lines
      .slice(0, end)
      .map((l) => l.chars.join('').replace(/\s+$/, ''))
      .join('\n');
  }
}
