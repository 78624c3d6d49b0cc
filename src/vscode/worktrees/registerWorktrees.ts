// Sessions in a git worktree of their own: the records (worktreeSessions.ts, made with the agent
// feature so the controller reopens a session in its folder), "New Session in Worktree…" (and
// tandem.worktree.agents, for whom every new session is one), reopening them with their agent,
// the worktree badge on their files, and bringing the work back (review, apply, commit, discard).
import * as vscode from 'vscode';
import type { Controller } from '../agent/controller';
import { worktreeAgents } from '../config';
import type { Ctx } from '../ctx';
import { registerArchive } from './archiveWorktrees';
import { registerBringBack } from './bringBack';
import { offerBringBack } from './deleteWorktreeSession';
import { newWorktreeSession, type NewWorktreeArgs } from './newWorktreeSession';
import { followWorktreeSessions } from './reopenWorktrees';
import { WorktreeDecorations } from './worktreeDecorations';
import type { WorktreeSessions } from './worktreeSessions';

export interface WorktreesDeps {
  ctl: Controller;
  sessions: WorktreeSessions;
}

export interface WorktreesFeature {
  readonly sessions: WorktreeSessions;
  /** Whether tandem.worktree.agents makes `agentName`'s new sessions worktree sessions. */
  isDefaultFor(agentName: string | undefined): boolean;
  /** A new worktree session (the palette asks for what `args` leaves out); its id, if one opened. */
  newSession(args?: NewWorktreeArgs): Promise<string | undefined>;
  placeOf: WorktreeSessions['placeOf'];
  /** Deleting a worktree session from the history offers Apply or Discard first; false: stop. */
  beforeDelete(sessionId: string): Promise<boolean>;
}

export function registerWorktrees(ctx: Ctx, d: WorktreesDeps): WorktreesFeature {
  const { sessions, ctl } = d;
  const newSession = (args?: NewWorktreeArgs) => newWorktreeSession({ ctx, ctl, sessions }, args);
  ctx.own(
    vscode.commands.registerCommand('tandem.newSessionInWorktree', (args?: unknown) =>
      newSession(args && typeof args === 'object' ? (args as NewWorktreeArgs) : undefined),
    ),
  );
  ctx.own(followWorktreeSessions(ctl, sessions, ctx.logger));
  // The view's title menu offers the worktree actions while a worktree session is shown.
  const updateKey = () =>
    void vscode.commands.executeCommand(
      'setContext',
      'tandem.worktreeSession',
      !!sessions.get(ctl.current?.session?.sessionId),
    );
  for (const e of [ctl.onDidReplace, ctl.onDidChangeSessions, sessions.onDidChange]) ctx.own(e(updateKey));
  ctx.own(new WorktreeDecorations(sessions));
  registerBringBack(ctx, { sessions, ctl });
  registerArchive(ctx, { sessions, ctl });
  return {
    sessions,
    isDefaultFor: (name) => !!name && worktreeAgents().includes(name),
    newSession,
    placeOf: (id) => sessions.placeOf(id),
    beforeDelete: (id) => offerBringBack(sessions, id),
  };
}
