// A terminal in a tool call: header (command, exit status) and the output, drawn by the
// terminal renderer, which is a separate chunk loaded the first time a terminal is shown.
import { lazy } from '../lazy';
import { outputEnd, type TerminalView } from '../../shared/sessionModel';

// (`.js` and a named export: the unbundled test build loads it with Node's own import(), as lazy.ts says.)
const renderer = lazy(() => import('../terminal/TerminalScreen.js').then((m) => m.TerminalScreen));

export function TerminalBox({
  terminalId,
  term,
  settled,
}: {
  terminalId: string;
  term: TerminalView | undefined;
  /** Nothing more will be reported about it (an agent-side terminal whose call is over). */
  settled?: boolean;
}) {
  const R = renderer.use();
  const exited = term?.exited;
  const code = term?.exitCode;
  return (
    <div class="terminal" data-testid="terminal" data-terminal-id={terminalId} data-exited={exited ? 'true' : 'false'}>
      <div class="terminal-header">
        <i class="codicon codicon-terminal" aria-hidden="true" />
        <span class="terminal-command">{term?.command ?? 'Terminal'}</span>
        <span class="spacer" />
        {!term && <span class="muted">waiting for output…</span>}
        {term && !exited && settled && (
          <span class="muted" data-testid="terminal-exit" title="The agent did not report how the command ended">
            ended
          </span>
        )}
        {term && !exited && !settled && (
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
