// The host's handling of the view's intents (ViewIntents with the palette's command table) around
// a real Controller, with the `vscode` fake: what the webview's messages reach in the extension.
import './fakeVscode';
import type { Logger } from '../../../src/common/logger';
import { createCommands } from '../../../src/vscode/commands';
import { PromptSender } from '../../../src/vscode/prompts/promptSender';
import type { Controller } from '../../../src/vscode/agent/controller';
import { SessionHistory } from '../../../src/vscode/sessions/sessionHistory';
import { ViewIntents, type ViewIntentDeps } from '../../../src/vscode/view/viewIntents';

const none = () => ({
  dispose() {
    /* nothing to undo */
  },
});

/** ViewIntents for `ctl`; a view that shows nothing unless `deps.view` is given, no permission or form pending. */
export function viewIntents(
  ctl: Controller,
  context: unknown,
  logger: Logger,
  deps: Partial<Pick<ViewIntentDeps, 'view' | 'permissions' | 'queue' | 'sender'>> = {},
): ViewIntents {
  const view = deps.view ?? { show: () => undefined, postMessage: () => undefined, onIntent: none };
  const sender = deps.sender ?? new PromptSender(ctl, { take: () => undefined });
  const commands = createCommands({
    context: context as never,
    ctl,
    view,
    traffic: { show: () => undefined },
    history: new SessionHistory({ get: () => undefined, update: async () => undefined, keys: () => [] }),
    permissions: { manage: () => undefined },
    sender,
    showLog: () => undefined,
  });
  return new ViewIntents({
    ctl,
    commands,
    view,
    sender,
    diffs: { open: async () => false },
    permissions: deps.permissions ?? { answer: () => false },
    elicitation: { answer: () => false },
    queue: deps.queue ?? { handle: async () => undefined },
    logger,
  });
}
