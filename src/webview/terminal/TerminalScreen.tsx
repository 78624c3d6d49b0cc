// The terminal renderer (a lazily loaded chunk): feeds the terminal's output into a Screen
// incrementally and draws the lines in view (lineWindow.ts); a line is redrawn only when it
// changed. Follows the tail while the user is at the bottom of the box.
import { memo } from '../memo';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { Screen, type Line } from './screen';
import { styleCss } from './style';
import { lineWindow } from './lineWindow';

interface Fed {
  screen: Screen;
  /** How many characters of output the screen has been fed in all (TerminalView.outputEnd). */
  end: number;
}

/**
 * Feeds the screen what was appended since `f`: `output` is the last `output.length` of `end`
 * characters, so the new ones are its last `end - f.end`. When more came than `output` still
 * holds (the front was dropped past what the screen saw), the screen starts again from `output`.
 */
export function feed(f: Fed | undefined, output: string, end = output.length, maxLines = 1000): Fed {
  const added = f ? end - f.end : -1;
  if (f && added >= 0 && added <= output.length) {
    if (added) f.screen.write(output.slice(output.length - added));
    return { screen: f.screen, end };
  }
  const screen = new Screen(maxLines);
  screen.write(output);
  return { screen, end };
}

/** Until a line is measured: the box's 1.35 line height at 13 px. */
const LINE_PX_GUESS = 17.55;
/** Until the box is measured: its max-height, 20em. */
const VIEW_PX_GUESS = 260;

export function TerminalScreen({ output, end }: { output: string; end: number }) {
  const fed = useRef<Fed | undefined>(undefined);
  const box = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const size = useRef({ line: LINE_PX_GUESS, view: VIEW_PX_GUESS });
  // Only a scroll by the user re-renders: following the tail computes the window from the end.
  const [scrollTop, setScrollTop] = useState(0);
  const [, remeasured] = useState(0);
  fed.current = feed(fed.current, output, end);
  const screen = fed.current.screen;
  let count = screen.lines.length;
  while (count > 1 && screen.lines[count - 1].chars.length === 0) count--;
  const { first, end: last } = lineWindow(count, size.current.line, size.current.view, scrollTop, atBottom.current);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    // Measured once they are known: every line has the same height (a sub-pixel one: 1.35em).
    const line = el.querySelector('.term-line')?.getBoundingClientRect().height;
    if (line && el.clientHeight && (line !== size.current.line || el.clientHeight !== size.current.view)) {
      size.current = { line, view: el.clientHeight };
      remeasured((n) => n + 1);
    }
    if (atBottom.current) el.scrollTop = el.scrollHeight;
  });
  const lineHeight = size.current.line;
  return (
    <>
      {screen.dropped > 0 && <div class="term-dropped">… {screen.dropped} earlier lines not shown</div>}
      <div
        class="term-screen"
        ref={box}
        data-testid="terminal-screen"
        tabIndex={0}
        aria-label="Terminal output"
        onScroll={() => {
          const el = box.current!;
          const following = atBottom.current;
          atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 8;
          // Our own scroll to the tail (following, still at the bottom) needs no render.
          if (!following || !atBottom.current) setScrollTop(el.scrollTop);
        }}
      >
        {first > 0 && <div style={{ height: `${first * lineHeight}px` }} />}
        {screen.lines.slice(first, last).map((l) => (
          <TermLine key={l.id} line={l} v={l.v} screen={screen} />
        ))}
        {last < count && <div style={{ height: `${(count - last) * lineHeight}px` }} />}
      </div>
    </>
  );
}

const TermLine = memo(
  function TermLine({ line, screen }: { line: Line; v: number; screen: Screen }) {
    const runs = screen.runs(line);
    return (
      <div class="term-line">
        {runs.length === 0
          ? '\u200b'
          : runs.map((r, i) => {
              if (r.style === 0) return r.text;
              const css = styleCss(screen.styleTable[r.style]);
              const style: Record<string, string> = {};
              if (css.color) style.color = css.color;
              if (css.background) style.backgroundColor = css.background;
              return (
                <span key={i} class={css.cls || undefined} style={style}>
                  {r.text}
                </span>
              );
            })}
      </div>
    );
  },
  (a, b) => a.line === b.line && a.v === b.v,
);

export default TerminalScreen;
