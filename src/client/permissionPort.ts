// The permission prompt as the client's handlers see it. The permissions feature (issue 5)
// implements it with the inline prompt in the session view; until that is wired, the VS Code
// side passes a modal prompt (src/vscode/modalPermission.ts).
import type { PermissionOption, RequestPermissionOutcome, ToolCallUpdate } from '@agentclientprotocol/sdk';

export interface PermissionPort {
  request(sessionId: string, toolCall: ToolCallUpdate, options: PermissionOption[]): Promise<RequestPermissionOutcome>;
}
