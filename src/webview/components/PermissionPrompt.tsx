// A pending session/request_permission: what will happen (command line, files, diff summary)
// and one button per option the agent offered, with an icon per option kind.
// Keyboard: Alt+1…Alt+9 pick the options of the first prompt in the queue from anywhere in the
// view; Tab / Enter work on the buttons. Focus moves to the prompt when it becomes the first.
// Inline in the tool call it concerns; `PermissionCards` shows the ones with no such tool call
// (gemini-cli asks before sending any tool_call; Tandem's own questions about files outside the
// workspace).
import { useEffect, useRef, useState } from 'preact/hooks';
import type { PermissionOption, PermissionRequestView, SessionSnapshot } from '../../shared/sessionModel';
import { relPath } from '../toolTitle';
import { useHost } from '../host';

export const OPTION_ICON: Record<string, string> = {
  allow_once: 'check',
  allow_always: 'check-all',
  reject_once: 'close',
  reject_always: 'circle-slash',
};

/** Pending prompts per tool call, plus which request is first in the queue. */
export interface CallPrompts {
  list: PermissionRequestView[];
  positions: number[];
  activeId?: string;
  total: number;
}

export function groupPrompts(pending: readonly PermissionRequestView[]): Map<string, CallPrompts> {
  const m = new Map<string, CallPrompts>();
  const activeId = pending[0]?.requestId;
  pending.forEach((p, i) => {
    let g = m.get(p.toolCallId);
    if (!g) m.set(p.toolCallId, (g = { list: [], positions: [], activeId, total: pending.length }));
    g.list.push(p);
    g.positions.push(i + 1);
  });
  return m;
}

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
}: {
  req: PermissionRequestView;
  active: boolean;
  position: number;
  total: number;
  standalone?: boolean;
}) {
  const { post } = useHost();
  const [sent, setSent] = useState<string | undefined>(undefined);
  const root = useRef<HTMLDivElement>(null);
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
    el?.focus({ preventScroll: false });
    root.current?.scrollIntoView?.({ block: 'nearest' });
    const onKey = (e: KeyboardEvent) => {
      const i = shortcutIndex(e);
      if (i < 0 || i >= req.options.length) return;
      e.preventDefault();
      e.stopPropagation();
      answer(req.options[i]);
    };
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, [active, req.requestId]);

  const t = req.toolCall;
  const raw = t.rawInput && typeof t.rawInput === 'object' ? (t.rawInput as Record<string, unknown>) : undefined;
  const command =
    typeof raw?.command === 'string'
      ? raw.command
      : t.kind === 'execute'
        ? t.title?.replace(/^`(.*)`$/, '$1')
        : undefined;
  const paths = [
    ...new Set([
      ...(t.locations ?? []).map((l) => l.path),
      ...(t.content ?? []).flatMap((c) => (c.type === 'diff' ? [c.path] : [])),
    ]),
  ];
  const diffs = (t.content ?? []).filter((c) => c.type === 'diff') as Array<{
    path: string;
    oldText?: string | null;
    newText: string;
  }>;
  return (
    <div
      ref={root}
      class={`permission${standalone ? ' permission-card' : ''}${active ? ' active' : ''}`}
      role="group"
      aria-label={`Permission request${total > 1 ? ` ${position} of ${total}` : ''}: ${t.title ?? req.toolCallId}`}
      data-testid="permission-prompt"
      data-request-id={req.requestId}
      data-tool-call-id={req.toolCallId}
      data-active={active ? 'true' : 'false'}
      onClick={(e) => e.stopPropagation()}
    >
      <div class="permission-head">
        <i class="codicon codicon-shield" aria-hidden="true" />
        <span class="permission-question">
          {standalone ? (
            <>
              The agent asks: <strong>{t.title ?? req.toolCallId}</strong>
            </>
          ) : (
            'Allow this?'
          )}
        </span>
        {total > 1 && (
          <span class="permission-queue muted" data-testid="permission-queue">
            {position} of {total}
          </span>
        )}
      </div>
      {command && (
        <pre class="permission-command" data-testid="permission-command">
          {command}
        </pre>
      )}
      {!command && paths.length > 0 && (
        <div class="permission-paths">
          {paths.map((p) => (
            <span key={p} class="chip" title={p}>
              <i class="codicon codicon-file" aria-hidden="true" /> {relPath(p)}
            </span>
          ))}
        </div>
      )}
      {standalone && diffs.length > 0 && (
        <div class="permission-diffs muted">
          {diffs.map((d, i) => (
            <div key={i}>
              {relPath(d.path)}: {lineDelta(d.oldText ?? '', d.newText)}
            </div>
          ))}
        </div>
      )}
      <div class="permission-options">
        {req.options.map((o, i) => (
          <button
            key={o.optionId}
            type="button"
            class={`button permission-option kind-${o.kind}${o.kind.startsWith('allow') ? '' : ' secondary'}${sent === o.optionId ? ' chosen' : ''}`}
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

function lineDelta(oldText: string, newText: string): string {
  const a = oldText ? oldText.split('\n').length : 0;
  const b = newText ? newText.split('\n').length : 0;
  return oldText ? `${a} → ${b} lines` : `new file, ${b} lines`;
}

/** Prompts for tool calls the session does not have (shown above the composer, in queue order). */
export function PermissionCards({ session }: { session: SessionSnapshot }) {
  const pending = session.permissions;
  const loose = pending.filter((p) => !session.toolCalls[p.toolCallId]);
  if (!loose.length) return null;
  return (
    <div class="permission-cards" data-testid="permission-cards">
      {loose.map((p) => (
        <PermissionPrompt
          key={p.requestId}
          req={p}
          standalone
          active={pending[0]?.requestId === p.requestId}
          position={pending.indexOf(p) + 1}
          total={pending.length}
        />
      ))}
    </div>
  );
}

/** The inline prompts of one tool call. */
export function CallPermissionPrompts({ prompts }: { prompts: CallPrompts }) {
  return (
    <>
      {prompts.list.map((p, i) => (
        <PermissionPrompt
          key={p.requestId}
          req={p}
          active={prompts.activeId === p.requestId}
          position={prompts.positions[i]}
          total={prompts.total}
        />
      ))}
    </>
  );
}
