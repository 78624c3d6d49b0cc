// A PermissionPort answered with a modal warning (used until the inline permission prompt of the
// session view is wired in its place). Dismissing the dialog rejects, it never allows.
import * as vscode from 'vscode';
import type { PermissionOption, RequestPermissionOutcome, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { PermissionPort } from '../client/permissionPort';

export class ModalPermission implements PermissionPort {
  constructor(private readonly agentName: () => string = () => 'The agent') {}

  async request(
    _sessionId: string,
    toolCall: ToolCallUpdate,
    options: PermissionOption[],
  ): Promise<RequestPermissionOutcome> {
    const items = options.map((o) => ({ title: o.name, optionId: o.optionId, isCloseAffordance: false }));
    const where = (toolCall.locations ?? []).map((l) => l.path).join('\n');
    const pick = await vscode.window.showWarningMessage(
      `${this.agentName()} asks: ${toolCall.title ?? toolCall.toolCallId}`,
      { modal: true, detail: where || undefined },
      ...items,
    );
    if (pick) return { outcome: 'selected', optionId: pick.optionId };
    const reject = options.find((o) => o.kind === 'reject_once') ?? options.find((o) => o.kind === 'reject_always');
    return reject ? { outcome: 'selected', optionId: reject.optionId } : { outcome: 'cancelled' };
  }
}
