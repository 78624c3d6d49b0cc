// "Tandem: New Session in Worktree…": a new branch `tandem/<name>` from HEAD, checked out in a
// folder of its own, optionally with the user's uncommitted changes, the setup command run in it,
// then a session of the chosen agent that works there (client/connection/sessionPlace.ts).
//
// The folder goes in the extension's workspace storage, not beside the project: a sibling folder
// would show up in the user's file explorer, their other tools' watchers and searches of the
// parent, and could collide with their own folders; storage is per workspace, outside every tree
// the user opened, and VS Code gives each extension its own.
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { DEMO_AGENT_NAME } from '../../client/agents/agentConfig';
import type { SessionPlace } from '../../client/connection/sessionPlace';
import {
  changedPaths,
  createWorktree,
  discard,
  requireRepo,
  slugify,
  WorktreeSetupError,
  type WorktreeSession,
} from '../../worktrees/worktrees';
import type { Controller } from '../agent/controller';
import { readSettings, worktreeSetupCommand } from '../config';
import type { Ctx } from '../ctx';
import { runSetupCommand } from './setupCommand';
import type { WorktreeSessions } from './worktreeSessions';

/** What the palette asks for; a caller (tests, tandem.newSession for tandem.worktree.agents) may give it. */
export interface NewWorktreeArgs {
  agentName?: string;
  /** Names the session and its branch. */
  name?: string;
  carryChanges?: boolean;
}

export interface NewWorktreeDeps {
  ctx: Ctx;
  ctl: Controller;
  sessions: WorktreeSessions;
}

/** The new session's id, or undefined when the user stopped or it could not open (they were told why). */
export async function newWorktreeSession(d: NewWorktreeDeps, args: NewWorktreeArgs = {}): Promise<string | undefined> {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  if (!folder) return fail('open a folder that is in a git repository first.');
  if (!vscode.workspace.isTrusted) return fail('Tandem runs no agent in an untrusted workspace.');
  let repoRoot: string;
  try {
    repoRoot = await requireRepo(folder.uri.fsPath);
  } catch (err) {
    return fail(`${folder.name} is not in a git repository with a commit: ${message(err)}`);
  }
  const agentName = args.agentName ?? (await pickAgent(d.ctx, d.ctl));
  if (!agentName) return undefined;
  const name = args.name ?? (await askName(agentName));
  if (!name) return undefined;
  const carryChanges = args.carryChanges ?? (await askCarry(repoRoot));
  if (carryChanges === undefined) return undefined;

  const worktree = await create(d, { repoRoot, name, carryChanges });
  if (!worktree) return undefined;
  const place: SessionPlace = { cwd: worktree.path, label: worktree.branch };
  const sessionId = await openIn(d.ctl, agentName, place);
  if (!sessionId) {
    // Nothing happened in it yet (carried changes are copies): remove it rather than leave it behind.
    await discard(worktree, { deleteBranch: true }).catch((err) => d.ctx.logger.warn(`Discard: ${message(err)}`));
    return fail(`${agentName} did not open a session in the worktree. ${d.ctl.agent.message ?? ''}`.trim());
  }
  await d.sessions.add({ sessionId, agentName, worktree });
  d.ctx.logger.info(`Session ${sessionId} of ${agentName} works in ${worktree.path} on ${worktree.branch}.`);
  return sessionId;
}

/** Where new worktrees go: the workspace's storage (see the top of this file). */
export function worktreesDir(extension: vscode.ExtensionContext): string {
  return nodePath.join((extension.storageUri ?? extension.globalStorageUri).fsPath, 'worktrees');
}

async function create(
  d: NewWorktreeDeps,
  o: { repoRoot: string; name: string; carryChanges: boolean },
): Promise<WorktreeSession | undefined> {
  const setup = worktreeSetupCommand();
  try {
    return await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Tandem: creating a worktree for "${o.name}"`,
        cancellable: !!setup,
      },
      (progress, token) =>
        createWorktree({
          ...o,
          parentDir: worktreesDir(d.ctx.extension),
          runSetup: setup
            ? (cwd) => {
                progress.report({ message: `running ${setup}` });
                return runSetupCommand(setup, cwd, d.ctx.logger, token);
              }
            : undefined,
        }),
    );
  } catch (err) {
    if (!(err instanceof WorktreeSetupError)) return fail(`could not create the worktree: ${message(err)}`);
    const start = 'Start the Session Anyway';
    const pick = await vscode.window.showWarningMessage(
      `Tandem: the setup command failed in ${err.session.path}.`,
      { modal: true, detail: message(err.setupError) },
      start,
      'Remove the Worktree',
    );
    if (pick === start) return err.session;
    await discard(err.session, { deleteBranch: true }).catch((e) => d.ctx.logger.warn(`Discard: ${message(e)}`));
    return undefined;
  }
}

/** Shows the agent and opens a session in `place`: the agent's first session if it was not running. */
async function openIn(ctl: Controller, agentName: string, place: SessionPlace): Promise<string | undefined> {
  const inPlace = () =>
    ctl
      .agents()
      .find((a) => a.name === agentName)
      ?.client.sessions()
      .find((s) => s.place === place.label)?.sessionId;
  await ctl.start(agentName, undefined, { place });
  // A running agent was only shown (or it reopened a past session): open one in the worktree.
  if (!inPlace() && ctl.agent.name === agentName && ctl.agent.state === 'ready') await ctl.newSession(undefined, place);
  return inPlace();
}

async function pickAgent(ctx: Ctx, ctl: Controller): Promise<string | undefined> {
  const shown = ctl.agent.name;
  const agents = readSettings(ctx.extension.extensionUri).agents.map((a) => a.name);
  const names = shown && agents.includes(shown) ? [shown, ...agents.filter((n) => n !== shown)] : agents;
  const pick = await vscode.window.showQuickPick(
    names.map((n) => ({
      label: n,
      description: n === shown ? 'shown now' : n === DEMO_AGENT_NAME ? 'built in, no API key' : undefined,
    })),
    { title: 'Tandem: New Session in Worktree', placeHolder: 'Which agent works in the new worktree?' },
  );
  return pick?.label;
}

async function askName(agentName: string): Promise<string | undefined> {
  const v = await vscode.window.showInputBox({
    title: 'Tandem: New Session in Worktree',
    prompt: `What will ${agentName} work on? It names the session and its branch (tandem/…).`,
    placeHolder: 'fix login redirect',
    validateInput: (s) => (slugify(s) ? undefined : 'Use a few words with letters or digits.'),
  });
  return v?.trim() || undefined;
}

/** Asked only when there is something to carry. */
async function askCarry(repoRoot: string): Promise<boolean | undefined> {
  const changed = await changedPaths(repoRoot).catch(() => []);
  if (!changed.length) return false;
  const carry = {
    label: 'Carry My Uncommitted Changes',
    detail: `${changed.length} changed files are copied into the worktree; yours stay as they are.`,
    carry: true,
  };
  const clean = {
    label: 'Start from HEAD',
    detail: 'The worktree starts from your last commit; your changes stay here only.',
    carry: false,
  };
  const pick = await vscode.window.showQuickPick([clean, carry], {
    title: 'Tandem: New Session in Worktree',
    placeHolder: `You have uncommitted changes in ${changed.length} files.`,
  });
  return pick?.carry;
}

function fail(why: string): undefined {
  void vscode.window.showErrorMessage(`Tandem: ${why.charAt(0).toUpperCase()}${why.slice(1)}`);
  return undefined;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
