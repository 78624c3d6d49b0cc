// One tool call in the tree: kind icon, title, status (spinner while running), duration and
// locations; expanded, its content (text, images, resources, diffs, terminals, unknown as
// JSON), raw input/output as JSON, and how its permission was decided.
import { memo } from '../memo';
import type { TerminalView, ToolCallView } from '../../shared/sessionModel';
import type { SubagentMeta } from '../../shared/subagentRow';
import { IconButton } from './IconButton';
import { commandFolder, niceTitle, relativePath, useRoots } from '../toolTitle';
import { useHost } from '../host';
import { openLocation } from '../links';
import { treeItem } from '../treeItem';
import { toolDetails } from '../lazy';
import { CallPermissionPrompts, type CallPrompts } from './PermissionPrompt';

/** The expanded view of a call lives in its own chunk (diffs, terminals, JSON, …). */
function LazyDetails(p: { call: ToolCallView; terminals: Record<string, TerminalView> }) {
  const m = toolDetails.use();
  return m ? <m.ToolDetails {...p} /> : <div class="tool-details muted">Loading…</div>;
}

export const KIND_ICON: Record<string, string> = {
  read: 'eye',
  edit: 'edit',
  delete: 'trash',
  move: 'arrow-swap',
  search: 'search',
  execute: 'terminal',
  think: 'lightbulb',
  fetch: 'globe',
  switch_mode: 'symbol-event',
  other: 'tools',
};
export const KIND_LABEL: Record<string, string> = {
  read: 'Read',
  edit: 'Edit',
  delete: 'Delete',
  move: 'Move',
  search: 'Search',
  execute: 'Execute',
  think: 'Think',
  fetch: 'Fetch',
  switch_mode: 'Switch mode',
  other: 'Other',
};

export const STATUS: Record<string, { icon: string; label: string }> = {
  pending: { icon: 'circle-large-outline', label: 'Pending' },
  in_progress: { icon: 'loading codicon-modifier-spin', label: 'Running' },
  completed: { icon: 'pass', label: 'Completed' },
  failed: { icon: 'error', label: 'Failed' },
};

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** Terminal ids a call shows: its terminal content plus an agent-side terminal. */
export function terminalIds(call: ToolCallView): string[] {
  const ids = call.content.filter((c) => c.type === 'terminal').map((c) => (c as { terminalId: string }).terminalId);
  if (call.agentTerminalId && !ids.includes(call.agentTerminalId)) ids.push(call.agentTerminalId);
  return ids;
}

/** The turn ended before this call finished (cancel, failure): no spinner forever. */
const INTERRUPTED = { icon: 'circle-slash', label: 'Interrupted' };
/** "Completed" by the agent, but its command never exited (a time-out, a kill): no green check. */
const UNFINISHED = { icon: 'warning', label: 'Did not finish' };

/** A completed call whose terminal ended without an exit code: released while running, or killed. */
function unfinished(call: ToolCallView, terminals: Record<string, TerminalView>): boolean {
  if (call.status !== 'completed') return false;
  return terminalIds(call).some((id) => {
    const t = terminals[id];
    return !!t && (t.signal ? true : t.exited && t.released === true && (t.exitCode ?? null) === null);
  });
}

export function hasDetails(call: ToolCallView): boolean {
  return (
    call.content.length > 0 ||
    call.rawInput !== undefined ||
    call.rawOutput !== undefined ||
    !!call.agentTerminalId ||
    !!call.permission
  );
}

interface Props {
  call: ToolCallView;
  expanded: boolean;
  focused: boolean;
  terminals: Record<string, TerminalView>;
  onToggle: (id: string) => void;
  onFocus: () => void;
  /** Pending permission prompts about this call (inline, in queue order). */
  prompts?: CallPrompts;
  /** 1 and more: a subagent's call, under the Agent call that started it. */
  depth?: number;
  /** An Agent call with its subagent's rows under it: how many, folded or not, and the fold button's action. */
  subtree?: { rows: number; folded: boolean; onToggle: (id: string) => void };
}

export const ToolCallRow = memo(
  function ToolCallRow({ call, expanded, focused, terminals, onToggle, onFocus, prompts, depth = 0, subtree }: Props) {
    const host = useHost();
    const roots = useRoots();
    // claude-agent-acp leaves its command "pending" until the result: while its terminal runs
    // and no prompt waits on it, the row says so.
    const term = call.agentTerminalId ? terminals[call.agentTerminalId] : undefined;
    const runs = call.status === 'pending' && !!term && !term.exited && !prompts;
    const status = call.interrupted
      ? INTERRUPTED
      : runs
        ? STATUS.in_progress
        : unfinished(call, terminals)
          ? UNFINISHED
          : (STATUS[call.status] ?? STATUS.pending);
    const t = niceTitle(call, roots);
    const expandable = hasDetails(call);
    // A call that arrives already finished has no duration worth showing.
    const duration =
      call.endedAt !== undefined && call.endedAt > call.startedAt ? formatDuration(call.endedAt - call.startedAt) : '';
    // A shell call's location is the folder it runs in: named relative to the workspace, not as a file.
    const folder = commandFolder(call, roots);
    const loc = folder ? undefined : call.locations[0];
    const locName = loc ? (relativePath(loc.path, roots).split('/').pop() ?? '') : '';
    // The location link is shown unless the title already names that file.
    const showLoc = !!loc && !expanded && !`${t.verb} ${t.subject}`.includes(locName);
    const steps = subtree ? `${subtree.rows} subagent step${subtree.rows === 1 ? '' : 's'}` : '';
    const label = `${KIND_LABEL[call.kind] ?? 'Tool'}: ${t.verb ? `${t.verb} ${t.subject}` : t.subject}, ${status.label}${duration ? `, ${duration}` : ''}${steps ? `, ${steps}${subtree!.folded ? ' folded' : ''}` : ''}`;
    return (
      <div
        class={`tool tool-${call.interrupted ? 'interrupted' : call.status}${expanded ? ' expanded' : ''}${depth ? ` depth-${Math.min(depth, 3)}` : ''}`}
        {...treeItem(2 + depth, focused, onFocus)}
        aria-expanded={expandable ? expanded : undefined}
        aria-label={label}
        data-testid="tool-call"
        data-status={call.status}
        data-kind={call.kind}
        data-id={call.toolCallId}
      >
        <div class="tool-head" onClick={() => expandable && onToggle(call.toolCallId)} title={call.title}>
          <i
            class={`codicon codicon-chevron-${expanded ? 'down' : 'right'} twisty${expandable ? '' : ' invisible'}`}
            aria-hidden="true"
          />
          <i
            class={`codicon codicon-${KIND_ICON[call.kind] ?? 'tools'} tool-kind`}
            title={KIND_LABEL[call.kind] ?? call.kind}
            aria-hidden="true"
          />
          <span class="tool-title" data-testid="tool-title">
            {t.verb && <span class="tool-verb">{t.verb} </span>}
            <span class="tool-subject">{t.subject}</span>
            {t.detail && <span class="tool-detail"> {t.detail}</span>}
          </span>
          {showLoc && (
            <button
              type="button"
              class="link-button tool-loc"
              tabIndex={-1}
              title={call.locations[0].path}
              onClick={(e) => {
                e.stopPropagation();
                openLocation(host, call.locations[0].path, call.locations[0].line);
              }}
            >
              {shortLoc(call.locations[0], roots)}
            </button>
          )}
          {folder?.label && !expanded && (
            <span class="tool-loc tool-folder" title={folder.path} data-testid="tool-folder">
              in {folder.label}
            </span>
          )}
          {subtree && (
            <button
              type="button"
              class="link-button subtree-toggle"
              tabIndex={-1}
              data-testid="subtree-toggle"
              aria-expanded={!subtree.folded}
              title={subtree.folded ? `Show the ${steps}` : `Hide the ${steps}`}
              onClick={(e) => {
                e.stopPropagation();
                subtree.onToggle(call.toolCallId);
              }}
            >
              <i class={`codicon codicon-${subtree.folded ? 'unfold' : 'fold'}`} aria-hidden="true" />
              {subtree.rows}
            </button>
          )}
          {(call.meta?.tandem as { subagent?: SubagentMeta } | undefined)?.subagent?.stoppable && (
            <IconButton
              icon="debug-stop"
              label="Stop this subagent"
              title="Stop this subagent's work"
              tabIndex={-1}
              data-testid="subagent-stop"
              onClick={(e) => {
                e.stopPropagation();
                host.post({ type: 'stopSubagent', toolCallId: call.toolCallId });
              }}
            />
          )}
          {duration && (
            <span class="tool-duration" data-testid="tool-duration">
              {duration}
            </span>
          )}
          <i
            class={`codicon codicon-${status.icon} tool-status`}
            role="img"
            aria-label={status.label}
            title={status.label}
          />
        </div>
        {prompts && <CallPermissionPrompts prompts={prompts} call={call} />}
        {expanded && expandable && <LazyDetails call={call} terminals={terminals} />}
      </div>
    );
  },
  (a, b) =>
    a.call === b.call &&
    a.expanded === b.expanded &&
    a.focused === b.focused &&
    a.prompts === b.prompts &&
    a.depth === b.depth &&
    a.subtree?.rows === b.subtree?.rows &&
    a.subtree?.folded === b.subtree?.folded &&
    (!a.expanded || a.terminals === b.terminals) &&
    (a.expanded || !a.call.agentTerminalId || a.terminals === b.terminals),
);

function shortLoc(l: { path: string; line?: number | null }, roots: readonly string[]): string {
  const name = relativePath(l.path, roots).split('/').pop() ?? l.path;
  return l.line ? `${name}:${l.line}` : name;
}
