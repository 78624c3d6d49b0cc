// Inline diff of a `{type:"diff"}` tool content: line-level, colored, with line numbers,
// changed hunks with 3 lines of context, and "Open diff" into VS Code's diff editor. Past the shared
// line diff's bound (src/shared/lineDiff.ts) it says "too large to diff" instead of rows.
import { useMemo, useState } from 'preact/hooks';
import { diffLines, foldUnchanged } from '../diff';
import { useRelPath } from '../toolTitle';
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
  const shownPath = useRelPath(path);
  const d = useMemo(() => diffLines(oldText, newText), [oldText, newText]);
  const shown = useMemo(() => foldUnchanged(d.lines), [d]);
  const [all, setAll] = useState(false);
  const lines = all ? shown : shown.slice(0, MAX_LINES);
  return (
    <div class="diff" data-testid="diff" data-new-file={d.isNew ? 'true' : 'false'}>
      <div class="diff-header">
        <button type="button" class="link-button diff-path" title={path} onClick={() => openLocation(host, path)}>
          {shownPath}
        </button>
        {d.isNew && (
          <span class="badge badge-new" data-testid="diff-new-file">
            New file
          </span>
        )}
        <span
          class="diff-stat"
          title={d.tooLarge ? 'Too large to diff: at most this many lines added and removed' : undefined}
        >
          <span class="diff-add">
            {d.tooLarge ? '≤' : ''}+{d.added}
          </span>{' '}
          <span class="diff-del">
            {d.tooLarge ? '≤' : ''}−{d.removed}
          </span>
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
      <div class="diff-body" role="table" aria-label={`Changes to ${shownPath}`}>
        {d.tooLarge && (
          <div class="diff-line diff-gap" role="row" data-testid="diff-too-large">
            <span class="diff-text">Too large to diff here: open the diff editor.</span>
          </div>
        )}
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
              <span class="diff-text">
                {l.text}
                {l.noNewline && l.t !== ' ' && <span class="muted"> (no newline at end)</span>}
              </span>
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
