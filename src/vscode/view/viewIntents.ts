// What the view asks the host to do. Intents that do what a palette command does go through one
// table to that command's function, so both do the same; the rest are handled here, one case
// each. A new intent in the protocol that is in neither place does not compile.
import * as vscode from 'vscode';
import { Disposable } from '../../common/disposable';
import type { Event } from '../../common/event';
import type { Logger } from '../../common/logger';
import type { ElicitationContent } from '../../shared/elicitation';
import type { ChangeAction, QueueOp, ToWebview, WebviewIntent } from '../../shared/protocol';
import type { TandemCommands } from '../commands';
import type { Controller } from '../agent/controller';
import type { PromptSender } from '../prompts/promptSender';
import type { EditPrompts } from '../rewind/editPrompts';

/** The intents the view passes on: `ready` the view answers itself. */
export type ViewIntent = Exclude<WebviewIntent, { type: 'ready' }>;

/** Intents that are a palette command: the command id each one runs. */
const COMMAND_INTENTS = {
  cancel: 'tandem.cancelTurn',
  newSession: 'tandem.newSession',
  forkSession: 'tandem.forkSession',
  restartAgent: 'tandem.restartAgent',
  selectAgent: 'tandem.selectAgent',
  showLog: 'tandem.showLog',
  openSession: 'tandem.openSession',
  summarize: 'tandem.summarizeChanges',
  signIn: 'tandem.signIn',
} as const satisfies Partial<Record<ViewIntent['type'], keyof TandemCommands>>;

type CommandIntent = Extract<ViewIntent, { type: keyof typeof COMMAND_INTENTS }>;

function isCommandIntent(intent: ViewIntent): intent is CommandIntent {
  return Object.hasOwn(COMMAND_INTENTS, intent.type);
}

export interface ViewIntentDeps {
  ctl: Controller;
  commands: TandemCommands;
  view: { show(): void; postMessage(msg: ToWebview): void; readonly onIntent: Event<ViewIntent> };
  diffs: { open(toolCallId: string, index: number, requestId?: string): Promise<boolean> };
  /** Accepted only for a pending request and an offered option. */
  permissions: { answer(requestId: string, optionId: string): boolean };
  /** Accepted only for a pending form and, for accept, valid content. */
  elicitation: {
    answer(requestId: string, action: 'accept' | 'decline' | 'cancel', content?: ElicitationContent): boolean;
  };
  /** Every prompt goes out through it (prompts/promptSender.ts). */
  sender: Pick<PromptSender, 'send'>;
  /** The shown session's queued prompts. */
  queue: { handle(op: QueueOp): Promise<void> };
  /** The agent's changes: restore to a prompt, and the view's changes list. */
  changes?: {
    restore: { restoreToPrompt(sessionId: string | undefined, turn: number): Promise<unknown> };
    changes: { act(turn: number, action: ChangeAction, path?: string): Promise<void> };
  };
  /** Edit and resend of an earlier prompt, and its Redo (vscode/rewind/editPrompts.ts). */
  edits?: Pick<EditPrompts, 'start' | 'resend' | 'redo'>;
  logger: Logger;
}

export class ViewIntents extends Disposable {
  constructor(private readonly d: ViewIntentDeps) {
    super();
    this._register(
      d.view.onIntent((intent) => {
        this.handle(intent).catch((err) =>
          d.logger.error(`Handling ${intent.type} failed: ${err instanceof Error ? (err.stack ?? err.message) : err}`),
        );
      }),
    );
  }

  async handle(intent: ViewIntent): Promise<void> {
    const { ctl } = this.d;
    if (isCommandIntent(intent)) {
      await this.d.commands[COMMAND_INTENTS[intent.type]]();
      return;
    }
    switch (intent.type) {
      case 'prompt':
        await this.d.sender.send(intent.text, intent.attachments ?? []);
        return;
      case 'queue': {
        const { type: _, ...op } = intent;
        await this.d.queue.handle(op);
        return;
      }
      case 'openDiff':
        if (!(await this.d.diffs.open(intent.toolCallId, intent.index, intent.requestId)))
          void vscode.window.showWarningMessage('Tandem: that diff is no longer in the session.');
        return;
      case 'setMode':
        await ctl.current?.setMode(intent.modeId);
        return;
      case 'setConfigOption':
        await ctl.current?.setConfigOption(intent.configId, intent.value);
        return;
      case 'copyText':
        await vscode.env.clipboard.writeText(intent.text);
        return;
      case 'openExternal':
        await vscode.env.openExternal(vscode.Uri.parse(intent.url, true));
        return;
      case 'openLocation': {
        const line = Math.max(0, (intent.line ?? 1) - 1);
        await vscode.window.showTextDocument(vscode.Uri.file(intent.path), {
          selection: new vscode.Range(line, 0, line, 0),
          preview: true,
          preserveFocus: true,
        });
        return;
      }
      case 'permissionAnswer':
        // Only a prompt the view shows (the active session's queue) can be answered from it: ids
        // are guessable, and a prompt of a session in the background was never shown.
        if (!ctl.current?.session?.state.permissions.some((p) => p.requestId === intent.requestId)) {
          this.d.logger.warn(
            `Ignored a permission answer for ${intent.requestId}: that prompt is not shown in the view.`,
          );
          return;
        }
        this.d.permissions.answer(intent.requestId, intent.optionId);
        return;
      case 'elicitationAnswer':
        this.d.elicitation.answer(intent.requestId, intent.action, intent.content);
        return;
      case 'switchSession':
        ctl.switchTo(intent.sessionId, intent.agentName);
        return;
      case 'closeSession':
        await ctl.closeSession(intent.sessionId, intent.agentName);
        // Its prompts waited for a session that is gone: they must not linger in workspace state.
        ctl.queues.drop(intent.sessionId);
        return;
      case 'stopSubagent':
        if (!ctl.current?.stopSubagent(intent.toolCallId))
          void vscode.window.showInformationMessage('Tandem: that subagent is not working any more.');
        return;
      case 'restoreTo':
        await this.d.changes?.restore.restoreToPrompt(ctl.current?.session?.sessionId, intent.turn);
        return;
      case 'changeAction':
        await this.d.changes?.changes.act(intent.turn, intent.action, intent.path);
        return;
      case 'editPrompt':
        this.d.edits?.start(intent.turn);
        return;
      case 'resendPrompt':
        await this.d.edits?.resend(intent.sessionId, intent.turn, {
          text: intent.text,
          attachments: intent.attachments ?? [],
        });
        return;
      case 'redoEdit':
        await this.d.edits?.redo();
        return;
      default: {
        const unhandled: never = intent;
        throw new Error(`No handler for the view's ${(unhandled as WebviewIntent).type} intent.`);
      }
    }
  }
}
