import type { ToolCallView } from '../../shared/sessionModel';

const KIND_ICON: Record<string, string> = {
  read: 'eye', edit: 'edit', delete: 'trash', move: 'arrow-swap', search: 'search', execute: 'terminal',
  think: 'lightbulb', fetch: 'globe', switch_mode: 'symbol-event', other: 'tools',
};

const STATUS: Record<string, { icon: string; label: string }> = {
  pending: { icon: 'circle-large-outline', label: 'Pending' },
  in_progress: { icon: 'loading codicon-modifier-spin', label: 'Running' },
  completed: { icon: 'pass', label: 'Completed' },
  failed: { icon: 'error', label: 'Failed' },
};

export function ToolCallRow({ call }: { call: ToolCallView }) {
  const status = STATUS[call.status] ?? STATUS.pending;
  return (
    <div class={`tool tool-${call.status}`} data-testid="tool-call" data-status={call.status} data-kind={call.kind} data-id={call.toolCallId}>
      <i class={`codicon codicon-${KIND_ICON[call.kind] ?? 'tools'} tool-kind`} title={call.kind} aria-hidden="true" />
      <span class="tool-title">{call.title || call.name || 'Tool call'}</span>
      <i class={`codicon codicon-${status.icon} tool-status`} role="img" aria-label={status.label} title={status.label} />
    </div>
  );
}
