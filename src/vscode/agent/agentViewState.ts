// What the controller tells the user about the agent beyond its lifecycle: the view's form of
// the agent's state, and where a turn still running in a session the view left is.
import * as vscode from 'vscode';
import type { AgentClient } from '../../client/connection/agentClient';
import { forkSupported } from '../../client/connection/fork';
import type { SessionStore } from '../../session/store';
import type { AgentView } from '../../shared/protocol';

/** The view's form of the agent's state: the connection's status (AgentStatus) plus what its prompts may carry and whether it forks. */
export function toAgentView(a: AgentView, client: AgentClient | undefined): AgentView {
  const agentCaps = client?.initializeResult?.agentCapabilities;
  const caps = agentCaps?.promptCapabilities;
  const view = forkSupported(agentCaps) ? { ...a, canFork: true } : a;
  if (!caps || a.promptCapabilities) return view;
  return {
    ...view,
    promptCapabilities: { image: !!caps.image, audio: !!caps.audio, embeddedContext: !!caps.embeddedContext },
  };
}

/** The view now shows a new session: a turn still running in the old one stays one click away. */
export function pointToWorkingSession(client: AgentClient, previous: SessionStore): void {
  if (previous.state.meta.status !== 'working' || client.getSession(previous.sessionId) !== previous) return;
  const title = previous.state.meta.title ? `"${previous.state.meta.title}"` : 'The previous session';
  void vscode.window
    .showInformationMessage(`Tandem: ${title} is still working in its own tab.`, 'Show It')
    .then((pick) => {
      if (pick && client.getSession(previous.sessionId)) client.switchTo(previous.sessionId);
    });
}
