// Worktree sessions come back with their agent: after a window reload (or "Restart Agent") the
// controller reopens each agent's last shown session; the agent's other worktree sessions that
// were open are reopened here, in their folders, once per connection (an agent that cannot reopen
// sessions gets a new one in each worktree). A worktree whose folder is
// gone (deleted by hand) is said so, and the user may forget it; its branch is left alone.
import * as vscode from 'vscode';
import type { AgentClient } from '../../client/connection/agentClient';
import { DisposableStore, type IDisposable } from '../../common/disposable';
import type { Logger } from '../../common/logger';
import { status } from '../../worktrees/worktrees';
import type { Controller } from '../agent/controller';
import type { WorktreeSessionRecord, WorktreeSessions } from './worktreeSessions';

export function followWorktreeSessions(ctl: Controller, sessions: WorktreeSessions, logger: Logger): IDisposable {
  const store = new DisposableStore();
  const seen = new WeakSet<AgentClient>();
  const reopened = new WeakSet<AgentClient>();
  store.add(
    ctl.onDidChangeAgents(() => {
      for (const a of ctl.agents()) {
        const client = a.client;
        if (!seen.has(client)) {
          seen.add(client);
          // A tab the user closes is not reopened later; one reopened from history is open again.
          store.add(client.onDidCloseSession((id) => void sessions.setClosed(id, true)));
          store.add(
            client.onDidChangeSessions(() => {
              for (const s of client.sessions())
                if (sessions.get(s.sessionId)?.closed) void sessions.setClosed(s.sessionId, false);
            }),
          );
        }
        if (a.view.state !== 'ready' || reopened.has(client)) continue;
        reopened.add(client);
        const open = sessions
          .all()
          .filter((r) => r.agentName === a.name && !r.closed && !client.getSession(r.sessionId));
        if (open.length) void reopen(client, open, sessions, logger);
      }
    }),
  );
  return store;
}

async function reopen(
  client: AgentClient,
  records: WorktreeSessionRecord[],
  sessions: WorktreeSessions,
  logger: Logger,
): Promise<void> {
  const shown = client.session?.sessionId;
  for (const r of records) {
    const { path, branch } = r.worktree;
    if ((await status(r.worktree)) !== 'ok') {
      void missing(r, sessions);
      continue;
    }
    try {
      if (client.canReopen()) await client.loadSession(r.sessionId, { cwd: path, label: branch });
      else {
        // The agent cannot reopen its sessions: a new one in the same worktree keeps the work at hand.
        const fresh = await client.newSession(undefined, { cwd: path, label: branch });
        await sessions.remove(r.sessionId);
        await sessions.add({ ...r, sessionId: fresh.sessionId });
        logger.info(`${r.agentName} cannot reopen sessions: a new one works on in ${branch}.`);
      }
    } catch (err) {
      logger.warn(`Could not reopen the session on ${branch}: ${err instanceof Error ? err.message : err}`);
    }
  }
  // Reopening made each the active one in turn: the session shown before is shown again.
  if (shown && client.getSession(shown)) client.switchTo(shown);
}

async function missing(r: WorktreeSessionRecord, sessions: WorktreeSessions): Promise<void> {
  const forget = 'Forget the Session';
  const pick = await vscode.window.showWarningMessage(
    `Tandem: the worktree of ${r.agentName}'s session on ${r.worktree.branch} is gone (${r.worktree.path} was removed). Its branch is kept in your repository.`,
    forget,
  );
  if (pick === forget) await sessions.remove(r.sessionId);
}
