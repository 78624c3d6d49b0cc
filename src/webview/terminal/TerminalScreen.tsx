// The terminal renderer (a lazily loaded chunk): feeds the terminal's output into a Screen
// incrementally and draws its lines; a line is redrawn only when it changed. Follows the tail
// while the user is at the bottom of the box.
import { memo } from '../memo';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { Screen, type Line } from './screen';
import { styleCss } from './style';

interface Fed {
  screen: Screen;
  output: string;
}

/** Feeds `output` into the screen: only what was appended since `prev`, else everything again. */
export function feed(f: Fed | undefined, output: string, maxLines = 1000): Fed {
  if (
    f &&
    output.startsWith(f.output.slice(0, 64)) &&
    output.length >= f.output.length &&
    output.slice(0, f.output.length) === f.output
  ) {
    f.screen.write(output.slice(f.output.length));
    return { screen: f.screen, output };
  }
  if (f && f.output.length > 64) {
    // The front was dropped to stay bounded: find where the old tail sits in the new output.
    const probe = f.output.slice(-64);
    const at = output.lastIndexOf(probe);
    if (at >= 0) {
      f.screen.write(output.slice(at + probe.length));
      return { screen: f.screen, output };
    }
  }
  const screen = new Screen(maxLines);
  screen.write(output);
  return { screen, output };
}

export default function TerminalScreen({ output }: { output: string }) {
  const fed = useRef<Fed | undefined>(undefined);
  const box = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  fed.current = feed(fed.current, output);
  const screen = fed.current.screen;
  let end = screen.lines.length;
  while (end > 1 && screen.lines[end - 1].chars.length === 0) end--;
  const lines = screen.lines.slice(0, end);
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
