// "Tandem: Fork Session" and the view's "Fork from here": a new session tab that continues the
// shown session's conversation, where the agent offers session/fork. The palette offers it only
// when `tandem.canFork` (contextKeys.ts) holds; a run from elsewhere (a keybinding, another
// extension) is told why not instead.
import * as vscode from 'vscode';
import { forkable } from '../../shared/fork';
import type { Controller } from '../agent/controller';

export async function forkSession(ctl: Controller, view: { show(): void }): Promise<void> {
  const session = ctl.current?.session?.state;
  if (!forkable(ctl.agent, session?.meta.status, session?.turns.length)) {
    void vscode.window.showInformationMessage(`Tandem: ${whyNot(ctl, session?.meta.status, session?.turns.length)}`);
    return;
  }
  view.show();
  await ctl.newSession(session!.meta.sessionId);
}

function whyNot(ctl: Controller, status?: string, turns = 0): string {
  const name = ctl.agent.info?.title ?? ctl.agent.name ?? 'The agent';
  if (ctl.agent.state !== 'ready') return `${name} is not ready.`;
  if (!ctl.agent.canFork) return `${name} cannot fork sessions (it does not offer session/fork).`;
  if (status === 'working') return 'the turn is still running: fork the session when it has ended.';
  if (!turns) return 'nothing to fork yet: send a prompt first.';
  return 'this session cannot be forked now.';
}
