// What a comparison panel listens to: any session opened, closed or changing status (the
// controller), a worktree record added or removed (a discard), and each compared session's own
// patches (streamed text). The controller announces patches of the shown session only, so every
// running agent's client is listened to, and the set follows agents as they start and stop.
import type { AgentClient } from '../../client/connection/agentClient';
import { DisposableStore, type IDisposable, toDisposable } from '../../common/disposable';
import type { Controller } from '../agent/controller';
import type { WorktreeSessions } from './worktreeSessions';

export function watchSessions(
  ctl: Pick<Controller, 'agents' | 'onDidChangeAgents' | 'onDidChangeSessions'>,
  sessions: Pick<WorktreeSessions, 'onDidChange'>,
  sessionIds: readonly string[],
  onChange: () => void,
): IDisposable {
  const store = new DisposableStore();
  const ids = new Set(sessionIds);
  const clients = new Map<AgentClient, IDisposable>();
  const bind = () => {
    const now = new Set(ctl.agents().map((a) => a.client));
    for (const [client, sub] of clients)
      if (!now.has(client)) {
        sub.dispose();
        clients.delete(client);
      }
    for (const client of now)
      if (!clients.has(client))
        clients.set(
          client,
          client.onDidChangeSession((c) => ids.has(c.sessionId) && onChange()),
        );
  };
  store.add(ctl.onDidChangeSessions(onChange));
  store.add(sessions.onDidChange(onChange));
  store.add(
    ctl.onDidChangeAgents(() => {
      bind();
      onChange();
    }),
  );
  store.add(toDisposable(() => clients.forEach((sub) => sub.dispose())));
  bind();
  return store;
}
