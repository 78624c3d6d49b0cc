// What the controller tells the user about the agent beyond its lifecycle: the view's form of
// the agent's state, a new session opening, and where a turn still running in a session the view
// left is.
import * as vscode from 'vscode';
import type { AgentClient } from '../../client/connection/agentClient';
import { forkSupported } from '../../client/connection/fork';
import type { SessionPlace } from '../../client/connection/sessionPlace';
import type { SessionStore } from '../../session/store';
import type { AgentView } from '../../shared/protocol';
import type { AgentPool, PooledAgent } from './agentPool';

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

/**
 * Opens a new session (or a fork of `forkOf`) on a ready agent. An agent can take seconds to open
 * one (claude-code-acp: 3–5 s): the view says so and its composer does not send meanwhile; a
 * prompt sent from elsewhere waits for the new session. Never rejects: a failure is shown.
 */
export async function openSession(
  pool: AgentPool,
  a: PooledAgent,
  forkOf?: string,
  place?: SessionPlace,
): Promise<void> {
  const client = a.client;
  const previous = client.session;
  const message = forkOf ? 'Forking the session…' : 'Opening a new session…';
  pool.setView(a, { ...a.view, state: 'starting', message });
  try {
    await client.newSession(forkOf, place);
    if (previous && previous !== client.session) pointToWorkingSession(client, previous);
  } catch (err) {
    void vscode.window.showErrorMessage(
      `Tandem: could not ${forkOf ? 'fork the session' : 'open a new session'}: ${err instanceof Error ? err.message : err}`,
    );
  } finally {
    if (pool.get(a.name) === a) pool.setView(a, toAgentView(client.agent, client));
  }
}
