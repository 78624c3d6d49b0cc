// The permission prompt as the client's handlers see it (fs writes outside the workspace, client
// tools). The permissions feature implements it: rules, remembered decisions, then the inline
// prompt in the session view (src/client/permissions/broker.ts).
import type { PermissionOption, RequestPermissionOutcome, ToolCallUpdate } from '@agentclientprotocol/sdk';

export interface PermissionPort {
  /** A question still pending when `signal` aborts (its asker gave up, e.g. a client tool call ended) is withdrawn, resolved as cancelled. */
  request(
    sessionId: string,
    toolCall: ToolCallUpdate,
    options: PermissionOption[],
    signal?: AbortSignal,
  ): Promise<RequestPermissionOutcome>;
}
