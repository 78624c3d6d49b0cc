// One pending permission prompt (see PermissionPrompt.tsx): what it asks in words (Run `cmd`,
// Edit `file`, Call `IDE · OpenFile`, Read `/etc/hosts`, outside the workspace — and the link the
// agent named, when one led there), the proposed diff (the tool-details chunk's diff view, with
// Open diff) or the full command line, and one button per option the agent offered, with an icon
// per option kind; Allow (once) is first and the only primary button. Its own chunk, preloaded
// when the view is idle.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { PermissionOption, PermissionRequestView, ToolCallContent, ToolCallView } from '../../shared/sessionModel';
import { relativePath, useRoots } from '../toolTitle';
import { useHost } from '../host';
import { toolDetails } from '../lazy';
import {
  askedCall,
  commandOf,
  diffsOf,
  promptQuestion,
  questionText,
  type PromptQuestion,
} from '../permissionQuestion';

const OPTION_ICON: Record<string, string> = {
  allow_once: 'check',
  allow_always: 'check-all',
  reject_once: 'close',
  reject_always: 'circle-slash',
};

function shortcutIndex(e: KeyboardEvent): number {
  if (!e.altKey || e.ctrlKey || e.metaKey) return -1;
  const m = /^(?:Digit|Numpad)([1-9])$/.exec(e.code);
  return m ? Number(m[1]) - 1 : -1;
}

export function PermissionPrompt({
  req,
  active,
  position,
  total,
  standalone,
  call,
}: {
  req: PermissionRequestView;
  /** The session's row for the call, when it has one. */
  call?: ToolCallView;
  active: boolean;
  position: number;
  total: number;
  standalone?: boolean;
}) {
  const { post } = useHost();
  const roots = useRoots();
  const [sent, setSent] = useState<string | undefined>(undefined);
  const root = useRef<HTMLDivElement>(null);
  // Allow (once) first, then the rest as the agent ordered them; Alt+N follows what is shown.
  const options = [...req.options].sort((a, b) => +(b.kind === 'allow_once') - +(a.kind === 'allow_once'));
  const answer = (o: PermissionOption) => {
    if (sent) return;
    setSent(o.optionId);
    post({ type: 'permissionAnswer', requestId: req.requestId, optionId: o.optionId });
  };

  useEffect(() => {
    if (!active) return;
    // Focus the safest useful button: allow once if offered, else the first.
    const el =
      root.current?.querySelector<HTMLButtonElement>('button[data-kind="allow_once"]') ??
      root.current?.querySelector<HTMLButtonElement>('button[data-option-id]');
    // Only while the view has focus: a prompt must not pull focus out of the command palette or
    // an editor (Alt+N still answers it from anywhere in the view).
    if (document.hasFocus()) el?.focus({ preventScroll: false });
    root.current?.scrollIntoView?.({ block: 'nearest' });
    const onKey = (e: KeyboardEvent) => {
      const i = shortcutIndex(e);
      if (i < 0 || i >= options.length) return;
      e.preventDefault();
      e.stopPropagation();
      answer(options[i]);
    };
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, [active, req.requestId]);

  const asked = askedCall(req.toolCall, call);
  const q = promptQuestion(asked, roots, req.origin === 'client');
  // What the agent proposes to write: the request's own diffs (open with its requestId), else
  // those of the call's row (claude-code-acp asks with the raw input only).
  const own = diffsOf(req.toolCall).length > 0;
  const diffs = own ? req.toolCall.content! : (call?.content ?? []);
  const paths = [...new Set(asked.locations.map((l) => l.path))];
  return (
    <div
      ref={root}
      class={`permission${standalone ? ' permission-card' : ''}${active ? ' active' : ''}`}
      role="group"
      aria-label={`Permission request${total > 1 ? ` ${position} of ${total}` : ''}: ${questionText(q)}`}
      data-testid="permission-prompt"
      data-request-id={req.requestId}
      data-tool-call-id={req.toolCallId}
      data-active={active ? 'true' : 'false'}
      onClick={(e) => e.stopPropagation()}
    >
      <div class="permission-head">
        <i class="codicon codicon-shield" aria-hidden="true" />
        <span class="permission-question" data-testid="permission-question">
          <Question q={q} />?
        </span>
        {total > 1 && (
          <span class="permission-queue muted" data-testid="permission-queue">
            {position} of {total}
          </span>
        )}
      </div>
      {q.via && (
        <div class="permission-via muted" data-testid="permission-via">
          through the link <code>{q.via}</code>
        </div>
      )}
      {q.command && (
        <pre class="permission-command" data-testid="permission-command">
          {q.command}
        </pre>
      )}
      {diffs.some((d) => d.type === 'diff') ? (
        <PromptDiffs content={diffs} toolCallId={req.toolCallId} requestId={own ? req.requestId : undefined} />
      ) : (
        !commandOf(asked) &&
        paths.length > 1 && (
          <div class="permission-paths">
            {paths.map((p) => (
              <span key={p} class="chip" title={p}>
                <i class="codicon codicon-file" aria-hidden="true" /> {relativePath(p, roots)}
              </span>
            ))}
          </div>
        )
      )}
      <div class="permission-options">
        {options.map((o, i) => (
          <button
            key={o.optionId}
            type="button"
            // Allow (once) is the one primary button; "always" and reject answers are secondary.
            class={`button permission-option kind-${o.kind}${o.kind === 'allow_once' ? '' : ' secondary'}${sent === o.optionId ? ' chosen' : ''}`}
            data-testid="permission-option"
            data-option-id={o.optionId}
            data-kind={o.kind}
            disabled={!!sent}
            title={`${o.name}${i < 9 ? ` (Alt+${i + 1})` : ''}`}
            aria-keyshortcuts={i < 9 && active ? `Alt+${i + 1}` : undefined}
            onClick={() => answer(o)}
          >
            <i class={`codicon codicon-${OPTION_ICON[o.kind] ?? 'question'}`} aria-hidden="true" /> {o.name}
            {i < 9 && active && (
              <kbd class="permission-key" aria-hidden="true">
                Alt+{i + 1}
              </kbd>
            )}
          </button>
        ))}
      </div>
      {req.alwaysScope && (
        <div class="permission-scope muted" data-testid="permission-scope">
          “Always” remembers {req.alwaysScope}
        </div>
      )}
    </div>
  );
}

/** The question's words, its paths and names as code: a sentence's `code` spans, or verb, subject and where. */
function Question({ q }: { q: PromptQuestion }) {
  if (q.sentence) return <>{q.sentence.split('`').map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part))}</>;
  return (
    <>
      {q.verb}
      {q.subject && ' '}
      {q.subject && <code>{q.subject}</code>}
      {q.where && `, ${q.where}`}
    </>
  );
}

/** The proposed diffs, drawn by the tool-details chunk's diff view once it is loaded. */
function PromptDiffs({
  content,
  toolCallId,
  requestId,
}: {
  content: readonly ToolCallContent[];
  toolCallId: string;
  requestId?: string;
}) {
  const m = toolDetails.use();
  const roots = useRoots();
  return (
    <div class="permission-diffs" data-testid="permission-diffs">
      {content.map((d, i) =>
        d.type !== 'diff' ? null : m ? (
          <m.DiffView
            key={i}
            path={d.path}
            oldText={d.oldText}
            newText={d.newText}
            toolCallId={toolCallId}
            index={i}
            requestId={requestId}
          />
        ) : (
          <div key={i} class="chip">
            {relativePath(d.path, roots)}
          </div>
        ),
      )}
    </div>
  );
}
