// Under a prompt: "Restore to here" (and "Fork from here" on a forkable session's last turn), and
// the files the agent changed in the turn: +/− lines, created / deleted, the review state; a
// click opens the native diff, "Review" all of them in the multi-file diff editor, keep / undo per
// file or for the turn. A lazy chunk: the eager bundle has no room. The host owns the state (the
// same model as Review Changes and the editor's per-hunk actions); this asks for it again whenever
// the host says the changes moved (host.onChanges: the page's dispatcher passes that on).
import { useEffect, useState } from 'preact/hooks';
import type { ChangeAction, ChangedFile } from '../../shared/protocol';
import { useHost } from '../host';
import { ForkLink } from './ForkLink';
import { IconButton } from './IconButton';

export function TurnChanges({ turn, tools, fork }: { turn: number; tools: boolean; fork?: boolean }) {
  const host = useHost();
  const [files, setFiles] = useState<ChangedFile[]>([]);
  useEffect(() => {
    if (!tools) return; // a turn without tool calls changed nothing
    let live = true;
    const load = () =>
      host.request('turnChanges', { turn }).then(
        (f) => live && setFiles(f),
        () => undefined, // the list stays as it was; the next change asks again
      );
    void load();
    const off = host.onChanges(() => void load());
    return () => {
      live = false;
      off();
    };
  }, [host, turn, tools]);
  const restore = (
    <>
      <button
        type="button"
        class="link-button restore-here"
        title="Put back every file the agent changed since this prompt (the files are listed first)"
        data-testid="restore-here"
        onClick={() => host.post({ type: 'restoreTo', turn })}
      >
        <i class="codicon codicon-discard" aria-hidden="true" /> Restore to here
      </button>
      {fork && <ForkLink />}
    </>
  );
  if (!files.length) return <div class="turn-changes-head restore-only">{restore}</div>;
  const act = (action: ChangeAction, path?: string) => host.post({ type: 'changeAction', turn, action, path });
  const pending = files.some((f) => f.state === 'pending');
  // Undone files need no review; the rest count until marked.
  const toReview = files.filter((f) => f.state !== 'reverted' && !f.reviewed).length;
  return (
    <div class="turn-changes" data-testid="turn-changes">
      <div class="turn-changes-head">
        <i class="codicon codicon-diff-multiple" aria-hidden="true" />
        <span>
          {files.length} file{files.length === 1 ? '' : 's'} changed
        </span>
        <span class="muted" data-testid="to-review">
          {toReview ? ` · ${toReview} to review` : ' · all reviewed'}
        </span>
        <span class="spacer" />
        {restore}
        <IconButton
          icon="sparkle"
          label="Ask the agent to summarize"
          title="Ask the agent to summarize its changes (its answer is the session's summary, in its words)"
          data-testid="summarize"
          onClick={() => host.post({ type: 'summarize' })}
        />
        <IconButton
          icon="diff-multiple"
          label="Review"
          title="Open all in a multi-file diff"
          data-testid="review-turn"
          onClick={() => act('review')}
        />
        <IconButton
          icon="check-all"
          label="Keep all"
          title="Keep every change of this turn"
          disabled={!pending}
          onClick={() => act('keep')}
        />
        <IconButton
          icon="discard"
          label="Undo all"
          title="Undo every change of this turn"
          data-testid="undo-turn"
          onClick={() => act('undo')}
        />
      </div>
      {files.map((f) => (
        <div key={f.path} class={`changed-file ${f.state}`} data-testid="changed-file" data-state={f.state}>
          <a
            href="#"
            class="changed-name"
            title={`${f.label}: diff before the turn ↔ now`}
            onClick={(e) => (e.preventDefault(), act('diff', f.path))}
          >
            {f.label}
          </a>
          {f.kind !== 'modified' && <span class="muted"> {f.kind}</span>}
          {/* Too large to diff line by line: the counts are upper bounds (shared/lineDiff.ts). */}
          {f.added !== undefined && (
            <span class="diff-add">
              {' '}
              {f.tooLarge ? '≤' : ''}+{f.added}
            </span>
          )}
          {f.removed !== undefined && (
            <span class="diff-del">
              {' '}
              {f.tooLarge ? '≤' : ''}−{f.removed}
            </span>
          )}
          {f.state !== 'pending' && <span class="muted"> · {f.state === 'kept' ? 'kept' : 'undone'}</span>}
          {f.symbols && (
            <span class="muted changed-symbols" data-testid="changed-symbols" title={f.symbols}>
              {f.symbols}
            </span>
          )}
          <span class="spacer" />
          <IconButton
            icon={f.reviewed ? 'pass-filled' : 'circle-large-outline'}
            label={f.reviewed ? `Mark ${f.label} as not reviewed` : `Mark ${f.label} as reviewed`}
            title={f.reviewed ? 'Reviewed (click to unmark)' : 'Mark as reviewed'}
            data-testid="mark-reviewed"
            aria-pressed={!!f.reviewed}
            disabled={f.state === 'reverted'}
            onClick={() => act(f.reviewed ? 'unreviewed' : 'reviewed', f.path)}
          />
          <IconButton
            icon="check"
            label={`Keep ${f.label}`}
            title="Keep"
            disabled={f.state !== 'pending'}
            onClick={() => act('keep', f.path)}
          />
          <IconButton
            icon="discard"
            label={`Undo ${f.label}`}
            title="Undo"
            disabled={f.state === 'reverted'}
            onClick={() => act('undo', f.path)}
          />
        </div>
      ))}
    </div>
  );
}
