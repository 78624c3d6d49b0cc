// A terminal in a tool call: header (command, exit status) and the output, drawn by the
// terminal renderer, which is a separate chunk loaded the first time a terminal is shown.
import type { FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { outputEnd, type TerminalView } from '../../shared/sessionModel';

type Renderer = FunctionComponent<{ output: string; end: number }>;
let renderer: Renderer | undefined;
let loading: Promise<Renderer> | undefined;

export function loadTerminalRenderer(): Promise<Renderer> {
  loading ??= import('../terminal/TerminalScreen').then((m) => (renderer = m.default));
  return loading;
}

export function TerminalBox({ terminalId, term }: { terminalId: string; term: TerminalView | undefined }) {
  const [R, setR] = useState<Renderer | undefined>(() => renderer);
  useEffect(() => {
    if (!R) void loadTerminalRenderer().then((r) => setR(() => r));
  }, [R]);
  const exited = term?.exited;
  const code = term?.exitCode;
  return (
    <div class="terminal" data-testid="terminal" data-terminal-id={terminalId} data-exited={exited ? 'true' : 'false'}>
      <div class="terminal-header">
        <i class="codicon codicon-terminal" aria-hidden="true" />
        <span class="terminal-command">{term?.command ?? 'Terminal'}</span>
        <span class="spacer" />
        {!term && <span class="muted">waiting for output…</span>}
        {term && !exited && (
          <span class="muted">
            <i class="codicon codicon-loading codicon-modifier-spin" aria-hidden="true" /> running
          </span>
        )}
        {exited && (
          <span class={`badge ${code === 0 ? 'badge-ok' : 'badge-fail'}`} data-testid="terminal-exit">
            {code != null ? `exit ${code}` : term?.signal ? `killed (${term.signal})` : 'ended'}
          </span>
        )}
      </div>
      {term?.truncated && <div class="term-dropped">Earlier output was truncated.</div>}
      {term &&
        (R ? (
          <R output={term.output} end={outputEnd(term)} />
        ) : (
          <pre class="term-screen">{term.output.slice(-4000)}</pre>
        ))}
    </div>
  );
}
