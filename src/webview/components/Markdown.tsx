// Markdown that streams cheaply: finished blocks are rendered (parsed + sanitized) once and
// cached by message; only the open tail block is rendered again when a chunk arrives.
import { memo } from '../memo';
import { renderMarkdown } from '../markdown';
import { advanceBlocks, emptyBlockState, type BlockState } from '../streamBlocks';

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
    if (st.blocks.length < html.length || (st.blocks.length && st.blocks[0] !== e.st.blocks[0])) html = [];
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

export function Markdown({ text, cacheKey }: { text: string; cacheKey: string }) {
  const { html, tail } = markdownBlocks(cacheKey, text);
  return (
    <div class="md">
      {html.map((h, i) => (
        <Block key={i} html={h} />
      ))}
      {tail.trim() && <Tail text={tail} />}
    </div>
  );
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
