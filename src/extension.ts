// Composition root: one register call per feature, in dependency order (each gets only what was
// registered before it); no behaviour here. docs/ARCHITECTURE.md has the map.
import * as vscode from 'vscode';
import type { TandemApi } from './api';
import { registerAgent } from './vscode/agent/registerAgent';
import { registerChanges } from './vscode/changes/registerChanges';
import { SessionSummaries } from './vscode/changes/sessionSummaries';
import { registerClientTools } from './vscode/clientTools/registerClientTools';
import { registerCommitKept } from './vscode/commit/registerCommitKept';
import { registerCommands } from './vscode/commands';
import { createCtx } from './vscode/ctx';
import { registerEditor } from './vscode/editor/registerEditor';
import { registerPermissions } from './vscode/permissions/registerPermissions';
import { registerPrompts } from './vscode/prompts/registerPrompts';
import { registerRegistry } from './vscode/registry/registerRegistry';
import { registerRewind } from './vscode/rewind/registerRewind';
import { registerFeedback } from './vscode/review/registerFeedback';
import { registerTerminals } from './vscode/terminals/registerTerminals';
import { registerAttention } from './vscode/view/registerAttention';
import { registerElicitation } from './vscode/view/registerElicitation';
import { registerOverview } from './vscode/view/registerOverview';
import { registerAskSeveral } from './vscode/worktrees/askSeveral';
import { registerWorktrees } from './vscode/worktrees/registerWorktrees';
import { connectView, registerView } from './vscode/view/registerView';

let stopAgent: (() => Promise<void>) | undefined;

export function activate(context: vscode.ExtensionContext): TandemApi {
  const ctx = createCtx(context);
  const view = registerView(ctx);
  const agent = registerAgent(ctx);
  const ctl = agent.controller;
  const worktrees = registerWorktrees(ctx, { ctl, sessions: agent.worktrees });
  const permissions = registerPermissions(ctx, { ctl, view });
  const changes = registerChanges(ctx, { ctl, permission: permissions.broker });
  const terminals = registerTerminals(ctx, ctl);
  const follow = registerEditor(ctx, ctl, worktrees);
  const prompts = registerPrompts(ctx, { ctl, notices: changes, inFlight: agent.inFlight, view });
  const edits = registerRewind(ctx, { ctl, sender: prompts.sender, restore: changes.restore, notices: changes, view });
  const summaries = ctx.own(new SessionSummaries(ctl, prompts.sender, context.workspaceState));
  const askSeveral = registerAskSeveral(ctx, { ctl, sessions: worktrees.sessions, sender: prompts.sender });
  registerCommitKept(ctx, { ctl, tracker: changes.tracker, worktrees: worktrees.sessions, summaries });
  const clientTools = registerClientTools(ctx, { ctl, permission: permissions.broker, tracker: changes.tracker });
  const elicitation = registerElicitation(ctx, { ctl, view });
  registerAttention(ctx, { ctl, turns: prompts.turns, view });
  const overview = registerOverview(ctx, {
    ctl,
    view,
    broker: permissions.broker,
    elicitation,
    turns: prompts.turns,
    tracker: changes.tracker,
    reviewed: changes.reviewed,
    summaries,
    worktrees: worktrees.sessions,
  });
  const feedback = registerFeedback(ctx, {
    ctl,
    tracker: changes.tracker,
    turns: prompts.turns,
    sender: prompts.sender,
    view,
    overview,
    placeOf: (id) => worktrees.sessions.placeOf(id),
  });
  const commands = registerCommands(ctx, {
    ctl,
    view,
    traffic: agent.traffic,
    history: agent.history,
    permissions,
    sender: prompts.sender,
    removeCheckpoints: changes,
    worktrees,
    summaries,
  });
  const intents = connectView(ctx, view, {
    ctl,
    commands,
    sender: prompts.sender,
    queue: prompts.queued,
    diffs: changes.diffs,
    permissions,
    elicitation,
    changes,
    edits,
  });
  const registry = registerRegistry(ctx, { ctl, commands, view });
  stopAgent = ctl.stop.bind(ctl);

  const api: TandemApi = { registerToolGroup: clientTools.registerToolGroup, registry };
  if (context.extensionMode !== vscode.ExtensionMode.Test) return api;
  return {
    ...api,
    testing: {
      controller: ctl,
      changes,
      terminals,
      follow,
      permissions,
      clientTools,
      elicitation,
      intents,
      overview,
      worktrees: worktrees.sessions,
      askSeveral,
      feedback,
      edits,
    },
  };
}

export async function deactivate(): Promise<void> {
  // Wait for the agent's process group to be gone so no orphan outlives the window.
  await stopAgent?.();
}
