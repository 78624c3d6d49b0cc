// Which worktree session a bring-back command acts on, and how its failures reach the user. Every
// command takes an optional session id (menus, the overview, tests); without one it acts on the
// shown session when that runs in a worktree, else it asks.
import * as vscode from 'vscode';
import type { Logger } from '../../common/logger';
import { GitError, WorktreeError } from '../../worktrees/worktrees';
import type { Controller } from '../agent/controller';
import type { WorktreeSessionRecord, WorktreeSessions } from './worktreeSessions';

export async function targetOf(
  sessions: WorktreeSessions,
  ctl: Controller,
  arg: unknown,
  title: string,
): Promise<WorktreeSessionRecord | undefined> {
  const id = sessionIdOf(arg);
  if (id !== undefined) {
    const rec = sessions.get(id);
    if (!rec) void vscode.window.showInformationMessage(`Tandem: session ${id} does not run in a worktree.`);
    return rec;
  }
  const shown = sessions.get(ctl.current?.session?.sessionId);
  if (shown) return shown;
  const all = sessions.all();
  if (all.length === 0) {
    void vscode.window.showInformationMessage('Tandem: No session runs in a worktree.');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    all.map((rec) => ({
      label: rec.worktree.name,
      description: `${rec.worktree.branch} · ${rec.agentName}`,
      detail: rec.worktree.path,
      rec,
    })),
    { title: `Tandem: ${title}`, placeHolder: 'Which worktree session?', matchOnDescription: true },
  );
  return pick?.rec;
}

/** A session id, or a tree element that carries one (a Sessions view row's context menu passes its node). */
function sessionIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  const id = arg && typeof arg === 'object' ? (arg as { sessionId?: unknown }).sessionId : undefined;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Shows a failure as an error message that says what git said: a GitError's message names the
 * command, the folder and git's stderr; a WorktreeError's says what to do. Not awaited, so a
 * command never waits on the user to close a message.
 */
export function reportError(logger: Logger, what: string, err: unknown): void {
  const text = errorText(err);
  logger.error(`[worktrees] ${what} failed: ${text}`);
  void vscode.window.showErrorMessage(`Tandem: ${what} failed. ${text}`);
}

export function errorText(err: unknown): string {
  if (err instanceof GitError) {
    const stderr = err.stderr.trim();
    // The message has the stderr already unless git did not run to the end (a timeout, say).
    return stderr && !err.message.includes(stderr) ? `${err.message}\n${stderr}` : err.message;
  }
  if (err instanceof WorktreeError) return err.message;
  return err instanceof Error ? err.message : String(err);
}

/** Runs `fn` on the target session; any failure is reported, never left as an unhandled rejection. */
export function worktreeCommand<R>(
  d: { sessions: WorktreeSessions; ctl: Controller; logger: Logger },
  title: string,
  fn: (rec: WorktreeSessionRecord, ...rest: unknown[]) => Promise<R>,
): (arg?: unknown, ...rest: unknown[]) => Promise<R | undefined> {
  return async (arg, ...rest) => {
    try {
      const rec = await targetOf(d.sessions, d.ctl, arg, title);
      return rec ? await fn(rec, ...rest) : undefined;
    } catch (err) {
      reportError(d.logger, title, err);
      return undefined;
    }
  };
}
