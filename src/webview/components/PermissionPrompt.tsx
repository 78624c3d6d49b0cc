// Permission prompts (session/request_permission): inline in the tool call they concern, or as
// cards above the composer for those with no such tool call (gemini-cli asks before sending any
// tool_call; Tandem's own questions about files outside the workspace). Keyboard: Alt+1…Alt+9
// pick the options of the first prompt in the queue from anywhere in the view; Tab / Enter work
// on the buttons; focus moves to the prompt when it becomes the first. The prompt itself
// (PermissionCard) is a lazy chunk, preloaded when the view is idle.
import type { PermissionRequestView, SessionSnapshot, ToolCallView } from '../../shared/sessionModel';
import { permissionCard } from '../lazy';

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

type PromptProps = {
  req: PermissionRequestView;
  active: boolean;
  position: number;
  total: number;
  standalone?: boolean;
  call?: ToolCallView;
};

function PermissionPrompt(p: PromptProps) {
  const m = permissionCard.use();
  return m ? (
    <m.PermissionPrompt {...p} />
  ) : (
    <div class="permission muted" data-testid="permission-loading">
      Permission requested…
    </div>
  );
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
export function CallPermissionPrompts({ prompts, call }: { prompts: CallPrompts; call: ToolCallView }) {
  return (
    <>
      {prompts.list.map((p, i) => (
        <PermissionPrompt
          key={p.requestId}
          req={p}
          call={call}
          active={prompts.activeId === p.requestId}
          position={prompts.positions[i]}
          total={prompts.total}
        />
      ))}
    </>
  );
}
