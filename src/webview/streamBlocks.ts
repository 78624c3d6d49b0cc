// Streaming markdown without re-parsing the whole message per chunk: the text is cut into
// top-level blocks at blank lines (outside code fences). A finished block is rendered once and
// cached; only the open tail block is rendered again as chunks arrive.

export interface BlockState {
  /** Offset of the next line to scan (always at a line start). */
  pos: number;
  /** Offset where the open block starts. */
  blockStart: number;
  /** Open fence marker (``` or ~~~ with its length), when inside a fenced code block. */
  fence: string | null;
  /** Finished blocks' source. */
  blocks: string[];
  /** A sample of the text before `pos`, to notice a replaced (not appended) text. */
  check: string;
}

export function emptyBlockState(): BlockState {
  return { pos: 0, blockStart: 0, fence: null, blocks: [], check: '' };
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Advances `st` over the new text (appended since the last call) and returns it; returns a
 * fresh state when the text no longer extends what was scanned. The open tail is
 * `text.slice(state.blockStart)`.
 */
/** Whether `text` extends what `st` scanned (else it was replaced, and scanning starts again). */
export function extendsScanned(st: BlockState, text: string): boolean {
  return text.length >= st.pos && text.slice(Math.max(0, st.pos - 32), st.pos) === st.check;
}

export function advanceBlocks(st: BlockState, text: string): BlockState {
  if (!extendsScanned(st, text)) st = emptyBlockState();
  else st = { ...st, blocks: st.blocks };
  let { pos, blockStart, fence } = st;
  let blocks = st.blocks;
  let copied = false;
  const finish = (end: number) => {
    const src = text.slice(blockStart, end);
    if (src.trim()) {
      if (!copied) {
        blocks = blocks.slice();
        copied = true;
      }
      blocks.push(src);
    }
    blockStart = end;
  };
  for (;;) {
    const nl = text.indexOf('\n', pos);
    if (nl < 0) break;
    const line = text.slice(pos, nl);
    const next = nl + 1;
    if (fence) {
      const m = FENCE.exec(line);
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length && !line.slice(m[0].length).trim()) {
        fence = null;
        finish(next);
      }
    } else {
      const m = FENCE.exec(line);
      if (m && !(m[1][0] === '`' && line.slice(m[0].length).includes('`'))) {
        // A fence opens a new block: what came before it is finished.
        if (text.slice(blockStart, pos).trim()) finish(pos);
        fence = m[1];
      } else if (!line.trim()) {
        // A blank line ends the block unless the next line is indented (a list item's or a
        // paragraph's continuation). Wait until that next line's first character is here.
        if (next >= text.length) break;
        const c = text[next];
        if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') finish(next);
      }
    }
    pos = next;
  }
  return { pos, blockStart, fence, blocks, check: text.slice(Math.max(0, pos - 32), pos) };
}
