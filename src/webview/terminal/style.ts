// Character styles of the terminal screen: what an SGR sequence (ESC [ … m) does to the current
// style (16, 256 and truecolor, bold/dim/italic/underline/inverse), and the CSS a style needs.

export interface Style {
  fg?: string;
  bg?: string;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  inverse?: boolean;
}

const PALETTE = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];

/** The style after an SGR sequence's parameters (0 resets; 38/48 take 5;n or 2;r;g;b). */
export function applySgr(prev: Style, p: number[]): Style {
  const st: Style = { ...prev };
  for (let i = 0; i < p.length; i++) {
    const x = p[i];
    if (x === 0) {
      for (const k of Object.keys(st)) delete st[k as keyof Style];
    } else if (x === 1) st.bold = true;
    else if (x === 2) st.dim = true;
    else if (x === 3) st.italic = true;
    else if (x === 4) st.underline = true;
    else if (x === 7) st.inverse = true;
    else if (x === 22) {
      delete st.bold;
      delete st.dim;
    } else if (x === 23) delete st.italic;
    else if (x === 24) delete st.underline;
    else if (x === 27) delete st.inverse;
    else if (x >= 30 && x <= 37) st.fg = PALETTE[x - 30];
    else if (x >= 90 && x <= 97) st.fg = 'bright-' + PALETTE[x - 90];
    else if (x === 39) delete st.fg;
    else if (x >= 40 && x <= 47) st.bg = PALETTE[x - 40];
    else if (x >= 100 && x <= 107) st.bg = 'bright-' + PALETTE[x - 100];
    else if (x === 49) delete st.bg;
    else if (x === 38 || x === 48) {
      const key = x === 38 ? 'fg' : 'bg';
      if (p[i + 1] === 5) {
        st[key] = color256(p[i + 2] ?? 0);
        i += 2;
      } else if (p[i + 1] === 2) {
        st[key] = rgb(p[i + 2] ?? 0, p[i + 3] ?? 0, p[i + 4] ?? 0);
        i += 4;
      }
    }
  }
  return st;
}

function color256(n: number): string {
  if (n < 8) return PALETTE[n];
  if (n < 16) return 'bright-' + PALETTE[n - 8];
  if (n < 232) {
    const v = n - 16;
    const lv = [0, 95, 135, 175, 215, 255];
    return rgb(lv[Math.floor(v / 36)], lv[Math.floor(v / 6) % 6], lv[v % 6]);
  }
  const g = 8 + (n - 232) * 10;
  return rgb(g, g, g);
}

function rgb(r: number, g: number, b: number): string {
  const h = (x: number) =>
    Math.max(0, Math.min(255, x | 0))
      .toString(16)
      .padStart(2, '0');
  return `#${h(r)}${h(g)}${h(b)}`;
}

/** The CSS a style needs: palette colors map to VS Code's terminal theme variables. */
export function styleCss(st: Style): { cls: string; color?: string; background?: string } {
  const cls: string[] = [];
  let fg = st.fg,
    bg = st.bg;
  if (st.inverse) {
    [fg, bg] = [bg ?? 'default-bg', fg ?? 'default-fg'];
  }
  const out: { cls: string; color?: string; background?: string } = { cls: '' };
  if (fg) {
    if (fg.startsWith('#')) out.color = fg;
    else cls.push(`ansi-fg-${fg}`);
  }
  if (bg) {
    if (bg.startsWith('#')) out.background = bg;
    else cls.push(`ansi-bg-${bg}`);
  }
  if (st.bold) cls.push('ansi-bold');
  if (st.dim) cls.push('ansi-dim');
  if (st.italic) cls.push('ansi-italic');
  if (st.underline) cls.push('ansi-underline');
  out.cls = cls.join(' ');
  return out;
}
