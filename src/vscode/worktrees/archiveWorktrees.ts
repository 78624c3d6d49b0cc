// Archive and restore a worktree session. Archiving closes the session, commits its uncommitted
// work on its branch and removes the folder: nothing is lost, the branch holds it all, and the
// disk and the Sessions view are freed. Restoring checks the branch out again in a new folder and
// reopens the session there (session/load or resume where its agent can, else a new session in
// that folder).
import * as vscode from 'vscode';
import type { SessionPlace } from '../../client/connection/sessionPlace';
import { archive, restore } from '../../worktrees/worktrees';
import type { Controller } from '../agent/controller';
import { closeGitRepositories } from '../commit/gitExtension';
import type { Ctx } from '../ctx';
import { worktreesDir } from './newWorktreeSession';
import { reportError, worktreeCommand } from './worktreeTarget';
import type { WorktreeSessionRecord, WorktreeSessions } from './worktreeSessions';

export interface ArchiveDeps {
  ctl: Controller;
  sessions: WorktreeSessions;
}

export function registerArchive(ctx: Ctx, d: ArchiveDeps): void {
  const { ctl, sessions } = d;
  const logger = ctx.logger;
  ctx.own(
    vscode.commands.registerCommand(
      'tandem.worktree.archive',
      worktreeCommand({ ctl, sessions, logger }, 'Archive Worktree Session', (rec) => archiveSession(d, rec)),
    ),
  );
  ctx.own(
    vscode.commands.registerCommand('tandem.worktree.restore', async (arg?: unknown) => {
      const rec = await archivedTarget(sessions, arg);
      if (!rec) return undefined;
      try {
        return await restoreSession(ctx, d, rec);
      } catch (err) {
        reportError(logger, 'Restore Worktree Session', err);
        return undefined;
      }
    }),
  );
}

export async function archiveSession(d: ArchiveDeps, rec: WorktreeSessionRecord): Promise<void> {
  if (rec.archived) return;
  if (d.ctl.clientOf(rec.sessionId)) await d.ctl.closeSession(rec.sessionId, rec.agentName);
  await closeGitRepositories(rec.worktree.path);
  const archived = await archive(rec.worktree);
  await d.sessions.add({ ...rec, closed: true, archived });
  void vscode.window.showInformationMessage(
    `Tandem: archived "${rec.worktree.name}". Its work is committed on ${rec.worktree.branch}; restore it from the Sessions view.`,
  );
}

/** The restored session's id once it is open again, or undefined when its agent could not open it. */
export async function restoreSession(
  ctx: Ctx,
  d: ArchiveDeps,
  rec: WorktreeSessionRecord,
): Promise<string | undefined> {
  if (!rec.archived) return rec.sessionId;
  const worktree = await restore(rec.archived, worktreesDir(ctx.extension));
  const { archived: _gone, closed: _closed, ...rest } = rec;
  await d.sessions.add({ ...rest, worktree });
  const place: SessionPlace = { cwd: worktree.path, label: worktree.branch };
  await d.ctl.start(rec.agentName, undefined, { place });
  const client = d.ctl.agents().find((a) => a.name === rec.agentName && a.view.state === 'ready')?.client;
  if (!client) {
    void vscode.window.showWarningMessage(
      `Tandem: "${rec.worktree.name}" is back in ${worktree.path}, but ${rec.agentName} is not running: ${d.ctl.agent.message ?? ''}`,
    );
    return undefined;
  }
  if (!client.getSession(rec.sessionId) && client.canReopen()) {
    try {
      await client.loadSession(rec.sessionId, place);
    } catch (err) {
      ctx.logger.warn(`Could not reopen session ${rec.sessionId}: ${err instanceof Error ? err.message : err}`);
    }
  }
  if (client.getSession(rec.sessionId)) {
    // A first session the agent's start opened in the folder is empty: the reopened one replaces it.
    for (const s of client.sessions())
      if (s.sessionId !== rec.sessionId && s.place === worktree.branch && s.turns === 0)
        await d.ctl.closeSession(s.sessionId, rec.agentName);
    d.ctl.switchTo(rec.sessionId, rec.agentName);
    return rec.sessionId;
  }
  // The agent cannot reopen it: its first session in the folder (start opened one there) carries on.
  const fresh = client.sessions().find((s) => s.place === worktree.branch)?.sessionId;
  if (fresh) {
    await d.sessions.remove(rec.sessionId);
    await d.sessions.add({ ...rest, sessionId: fresh, worktree });
  }
  return fresh;
}

async function archivedTarget(sessions: WorktreeSessions, arg: unknown): Promise<WorktreeSessionRecord | undefined> {
  const id = typeof arg === 'string' ? arg : (arg as { sessionId?: unknown } | undefined)?.sessionId;
  const archived = sessions.all().filter((r) => r.archived);
  if (typeof id === 'string') return archived.find((r) => r.sessionId === id);
  if (!archived.length) {
    void vscode.window.showInformationMessage('Tandem: no archived worktree sessions.');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    archived.map((rec) => ({
      label: rec.worktree.name,
      description: `${rec.worktree.branch} · ${rec.agentName}`,
      detail: `Archived ${new Date(rec.archived!.archivedAt).toLocaleString()}`,
      rec,
    })),
    { title: 'Tandem: Restore Worktree Session', placeHolder: 'Which archived session?' },
  );
  return pick?.rec;
}
