// The expanded part of a tool call: locations, content (text, images, resources, diffs,
// terminals, unknown as JSON), permission audit, raw input/output. A separate chunk: it loads
// when the first tool call is expanded (and is preloaded when the view is idle).
import { useState } from 'preact/hooks';
import type { TerminalView, ToolCallContent, ToolCallView } from '../../shared/sessionModel';
import { folderLabel, relativePath, useRoots } from '../toolTitle';
import { useHost } from '../host';
import { openLocation } from '../links';
import { showsLiterally } from '../toolOutput';
import { ContentBlockView } from './ContentBlocks';
import { DiffView } from './DiffView';
import { Json } from './Json';
import { TerminalBox } from './TerminalBox';

// The permission prompt shows the diff it asks about with this chunk's diff view.
export { DiffView, ToolDetails };

export default function ToolDetails({
  call,
  terminals,
}: {
  call: ToolCallView;
  terminals: Record<string, TerminalView>;
}) {
  const host = useHost();
  const roots = useRoots();
  const [raw, setRaw] = useState<'' | 'input' | 'output'>('');
  const shownTerms = new Set<string>();
  const tandemMeta = call.meta?.tandem as { rowText?: unknown } | undefined;
  const rowText = typeof tandemMeta?.rowText === 'string' ? tandemMeta.rowText : undefined;
  const p = call.permission;
  // A shell call located in the workspace folder itself says nothing by it (the usual case).
  const locations =
    call.kind === 'execute' ? call.locations.filter((l) => folderLabel(l.path, roots) !== '') : call.locations;
  return (
    <div class="tool-details" role="group" onClick={(e) => e.stopPropagation()}>
      {locations.length > 0 && (
        <div class="tool-locations">
          {locations.map((l, i) => (
            <button
              key={i}
              type="button"
              class="chip"
              data-testid="tool-location"
              title={l.path}
              onClick={() => openLocation(host, l.path, l.line)}
            >
              <i class="codicon codicon-file" aria-hidden="true" /> {relativePath(l.path, roots)}
              {l.line ? `:${l.line}` : ''}
            </button>
          ))}
        </div>
      )}
      {rowText !== undefined ? (
        // A Code tool's result as the user reads it (tools/code/codeRows.ts); the JSON is the model's.
        <div class="tool-content" data-testid="tool-row-text">
          <pre class="plain-text">{rowText}</pre>
        </div>
      ) : (
        call.content.map((c, i) => {
          if (c.type === 'terminal') shownTerms.add(c.terminalId);
          return <ContentView key={i} c={c} i={i} call={call} terminals={terminals} />;
        })
      )}
      {call.agentTerminalId && !shownTerms.has(call.agentTerminalId) && (
        <TerminalBox
          terminalId={call.agentTerminalId}
          term={terminals[call.agentTerminalId]}
          settled={agentTermSettled(call, call.agentTerminalId)}
        />
      )}
      {p && (
        <div class="tool-permission muted" data-testid="tool-permission">
          <i class="codicon codicon-shield" aria-hidden="true" />{' '}
          {p.outcome === 'cancelled' ? (
            'Permission request cancelled'
          ) : p.by === 'agent' ? (
            `Ran without asking: allowed by the agent's own settings${p.rule ? ` (${p.rule})` : ''}`
          ) : (
            <>
              {p.optionName ?? p.optionId ?? 'Answered'}
              {' — '}
              {p.by === 'user'
                ? 'by you'
                : p.by === 'rule'
                  ? `by rule${p.rule ? ` (${p.rule})` : ''}`
                  : 'remembered choice'}
            </>
          )}
        </div>
      )}
      {(call.rawInput !== undefined || call.rawOutput !== undefined) && (
        <div class="tool-raw">
          {call.rawInput !== undefined && (
            <button
              type="button"
              class={`link-button${raw === 'input' ? ' active' : ''}`}
              aria-pressed={raw === 'input'}
              onClick={() => setRaw(raw === 'input' ? '' : 'input')}
            >
              Raw input
            </button>
          )}
          {call.rawOutput !== undefined && (
            <button
              type="button"
              class={`link-button${raw === 'output' ? ' active' : ''}`}
              aria-pressed={raw === 'output'}
              onClick={() => setRaw(raw === 'output' ? '' : 'output')}
            >
              Raw output
            </button>
          )}
        </div>
      )}
      {raw === 'input' && <Json value={call.rawInput} />}
      {raw === 'output' && <Json value={call.rawOutput} />}
    </div>
  );
}

function ContentView({
  c,
  i,
  call,
  terminals,
}: {
  c: ToolCallContent;
  i: number;
  call: ToolCallView;
  terminals: Record<string, TerminalView>;
}) {
  const x = c as ToolCallContent & { type: string };
  switch (x.type) {
    case 'content':
      return (
        <div class="tool-content">
          <ContentBlockView
            block={x.content}
            cacheKey={`tc:${call.toolCallId}:${i}`}
            literal={x.content.type === 'text' && showsLiterally(call.kind, x.content.text)}
          />
        </div>
      );
    case 'diff':
      return <DiffView path={x.path} oldText={x.oldText} newText={x.newText} toolCallId={call.toolCallId} index={i} />;
    case 'terminal':
      return (
        <TerminalBox
          terminalId={x.terminalId}
          term={terminals[x.terminalId]}
          settled={agentTermSettled(call, x.terminalId)}
        />
      );
    default:
      return <Json value={c} label="Unknown content" />;
  }
}

/**
 * An agent-side terminal (the agent runs the command and reports it in `_meta`) whose call is over:
 * the agent reports nothing more about it, so it must not read "running" for ever (a failed turn
 * never sends its `terminal_exit`). Tandem's own terminals report their process's real end.
 */
function agentTermSettled(call: ToolCallView, terminalId: string): boolean {
  return (
    call.agentTerminalId === terminalId && (call.interrupted || call.status === 'completed' || call.status === 'failed')
  );
}
