// The call a permission prompt shows: the request's tool call merged over the row the session
// already has for it (claude-code-acp asks with only a title and the raw input; gemini-cli sends
// no tool_call before asking). Nulls and an empty rawInput in the request keep what was known.
import type { ToolCallUpdate } from '@agentclientprotocol/sdk';

/** The subset of the session's ToolCallView the prompt takes over. */
export interface KnownCall {
  toolCallId: string;
  title: string;
  kind: string;
  rawInput?: unknown;
  locations: unknown[];
  content: unknown[];
}

export function promptCall(request: ToolCallUpdate, known: KnownCall | undefined): ToolCallUpdate {
  return { ...pickDefined(known), ...stripNulls(request) } as ToolCallUpdate;
}

function stripNulls<T extends object>(o: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o))
    if (v !== null && v !== undefined && !(k === 'rawInput' && v && typeof v === 'object' && !Object.keys(v).length))
      out[k] = v;
  return out as Partial<T>;
}

function pickDefined(call: KnownCall | undefined): Partial<ToolCallUpdate> {
  if (!call) return {};
  return stripNulls({
    toolCallId: call.toolCallId,
    title: call.title,
    kind: call.kind,
    rawInput: call.rawInput,
    locations: call.locations,
    content: call.content,
  }) as Partial<ToolCallUpdate>;
}
