// Markdown that streams cheaply: finished blocks are rendered (parsed + sanitized) once and
// cached by message; only the open tail block is rendered again when a chunk arrives.
import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { memo } from '../memo';
import { renderMarkdown } from '../markdown';
import { advanceBlocks, emptyBlockState, extendsScanned, type BlockState } from '../streamBlocks';

interface Entry {
  st: BlockState;
  html: string[];
}
const cache = new Map<string, Entry>();
const MAX_ENTRIES = 400;

/** Counts block renders (the streaming benchmark and tests read it). */
export const renderStats = { blocks: 0, tails: 0 };

export function clearMarkdownCache(): void {
  cache.clear();
}

/** Blocks' HTML for `text` (cached per `cacheKey`) and the open tail's source. */
export function markdownBlocks(cacheKey: string, text: string): { html: string[]; tail: string } {
  let e = cache.get(cacheKey);
  if (e) {
    cache.delete(cacheKey);
  } else e = { st: emptyBlockState(), html: [] };
  const st = advanceBlocks(e.st, text);
  let html = e.html;
  if (st.blocks !== e.st.blocks || st.blocks.length !== html.length) {
    if (!extendsScanned(e.st, text)) html = [];
    html = html.slice();
    for (let i = html.length; i < st.blocks.length; i++) {
      html.push(renderMarkdown(st.blocks[i]));
      renderStats.blocks++;
    }
  }
  e = { st, html };
  cache.set(cacheKey, e);
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  return { html, tail: text.slice(st.blockStart) };
}

/**
 * Finished blocks go in groups of this many; a full group is laid out and painted only near the
 * viewport (`content-visibility: auto`). A long streamed message otherwise repainted all its text
 * in every frame that scrolled to the new tail (bench/webview.mjs, streaming). The group is laid
 * out whole once first, so the browser remembers its real height (`contain-intrinsic-size: auto`):
 * a group skipped from the start would stand in at a guessed height and make the text jump when
 * scrolled to (a message drawn anew after a reload or with the view shown again).
 */
const GROUP_BLOCKS = 16;

export function Markdown({ text, cacheKey }: { text: string; cacheKey: string }) {
  const { html, tail } = markdownBlocks(cacheKey, text);
  const groups: VNode[] = [];
  for (let g = 0; g * GROUP_BLOCKS < html.length; g++) {
    const from = g * GROUP_BLOCKS;
    const to = Math.min(html.length, from + GROUP_BLOCKS);
    groups.push(<BlockGroup key={g} html={html} from={from} to={to} full={to - from === GROUP_BLOCKS} />);
  }
  return (
    <div class="md">
      {groups}
      {tail.trim() && <Tail text={tail} />}
    </div>
  );
}

const BlockGroup = memo(
  function BlockGroup({ html, from, to, full }: { html: string[]; from: number; to: number; full: boolean }) {
    const [laidOut, setLaidOut] = useState(false);
    useEffect(() => setLaidOut(full), [full]);
    const blocks: VNode[] = [];
    for (let i = from; i < to; i++) blocks.push(<Block key={i} html={html[i]} />);
    return <div class={full && laidOut ? 'md-group md-group-full' : 'md-group'}>{blocks}</div>;
  },
  // Redrawn only when a block of its range changed (it gained one, or the text was replaced).
  (a, b) => a.from === b.from && a.to === b.to && sameRange(a.html, b.html, a.from, a.to),
);

function sameRange(a: string[], b: string[], from: number, to: number): boolean {
  if (a === b) return true;
  for (let i = from; i < to; i++) if (a[i] !== b[i]) return false;
  return true;
}

const Block = memo(
  function Block({ html }: { html: string }) {
    return <div class="md-block" dangerouslySetInnerHTML={{ __html: html }} />;
  },
  (a, b) => a.html === b.html,
);

const Tail = memo(
  function Tail({ text }: { text: string }) {
    renderStats.tails++;
    return <div class="md-block md-tail" dangerouslySetInnerHTML={{ __html: renderMarkdown(text) }} />;
  },
  (a, b) => a.text === b.text,
);
