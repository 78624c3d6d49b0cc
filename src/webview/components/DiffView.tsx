// Inline diff of a `{type:"diff"}` tool content: line-level, colored, with line numbers,
// changed hunks with 3 lines of context, and "Open diff" into VS Code's diff editor.
import { useMemo, useState } from 'preact/hooks';
import { diffLines, hunks } from '../diff';
import { relPath } from '../toolTitle';
import { useHost } from '../host';
import { openLocation } from '../links';

const MAX_LINES = 400;

export function DiffView({
  path,
  oldText,
  newText,
  toolCallId,
  index,
  requestId,
}: {
  path: string;
  oldText: string | null | undefined;
  newText: string;
  toolCallId: string;
  index: number;
  /** The diff is a pending permission request's (the prompt shows what it asks about). */
  requestId?: string;
}) {
  const host = useHost();
  const d = useMemo(() => diffLines(oldText, newText), [oldText, newText]);
  const shown = useMemo(() => hunks(d.lines), [d]);
  const [all, setAll] = useState(false);
  const lines = all ? shown : shown.slice(0, MAX_LINES);
  return (
    <div class="diff" data-testid="diff" data-new-file={d.isNew ? 'true' : 'false'}>
      <div class="diff-header">
        <button type="button" class="link-button diff-path" title={path} onClick={() => openLocation(host, path)}>
          {relPath(path)}
        </button>
        {d.isNew && (
          <span class="badge badge-new" data-testid="diff-new-file">
            New file
          </span>
        )}
        <span class="diff-stat">
          <span class="diff-add">+{d.added}</span> <span class="diff-del">−{d.removed}</span>
        </span>
        <span class="spacer" />
        <button
          type="button"
          class="button secondary small"
          data-testid="open-diff"
          aria-label="Open diff"
          title="Open in the diff editor"
          onClick={() => host.post({ type: 'openDiff', toolCallId, index, ...(requestId ? { requestId } : {}) })}
        >
          <i class="codicon codicon-diff" aria-hidden="true" />
          <span class="open-diff-label"> Open diff</span>
        </button>
      </div>
      <div class="diff-body" role="table" aria-label={`Changes to ${relPath(path)}`}>
        {lines.map((l, i) =>
          l === null ? (
            <div key={i} class="diff-line diff-gap" role="row">
              <span class="diff-no" />
              <span class="diff-no" />
              <span class="diff-text">⋯</span>
            </div>
          ) : (
            <div
              key={i}
              class={`diff-line ${l.t === '+' ? 'diff-line-add' : l.t === '-' ? 'diff-line-del' : ''}`}
              role="row"
            >
              <span class="diff-no" aria-hidden="true">
                {l.oldNo ?? ''}
              </span>
              <span class="diff-no" aria-hidden="true">
                {l.newNo ?? ''}
              </span>
              <span class="diff-sign" aria-label={l.t === '+' ? 'added' : l.t === '-' ? 'removed' : undefined}>
                {l.t === ' ' ? ' ' : l.t === '-' ? '−' : '+'}
              </span>
              <span class="diff-text">{l.text}</span>
            </div>
          ),
        )}
        {!all && shown.length > MAX_LINES && (
          <button type="button" class="link-button" onClick={() => setAll(true)}>
            Show {shown.length - MAX_LINES} more lines
          </button>
        )}
      </div>
    </div>
  );
}
