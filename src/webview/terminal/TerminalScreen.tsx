// The terminal renderer (a lazily loaded chunk): feeds the terminal's output into a Screen
// incrementally and draws its lines; a line is redrawn only when it changed. Follows the tail
// while the user is at the bottom of the box.
import { memo } from '../memo';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { Screen, type Line } from './screen';
import { styleCss } from './style';

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

export default function TerminalScreen({ output, end }: { output: string; end: number }) {
  const fed = useRef<Fed | undefined>(undefined);
  const box = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  fed.current = feed(fed.current, output, end);
  const screen = fed.current.screen;
  let last = screen.lines.length;
  while (last > 1 && screen.lines[last - 1].chars.length === 0) last--;
  const lines = screen.lines.slice(0, last);
  useLayoutEffect(() => {
    const el = box.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  });
  return (
    <div
      class="term-screen"
      ref={box}
      data-testid="terminal-screen"
      tabIndex={0}
      aria-label="Terminal output"
      onScroll={() => {
        const el = box.current!;
        atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 8;
      }}
    >
      {screen.dropped > 0 && <div class="term-dropped">… {screen.dropped} earlier lines not shown</div>}
      {lines.map((l) => (
        <TermLine key={l.id} line={l} v={l.v} screen={screen} />
      ))}
    </div>
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
