// The agent feature: its traffic (log, ring, recording), the past sessions (the one to reopen),
// the controller (which agent runs; the connection scope), its status in the status bar, and
// Show Agent Capabilities (what each running agent declared and did on the wire).
import { existsSync } from 'node:fs';
import { Controller } from './controller';
import { registerShowCapabilities } from './showCapabilities';
import { Traffic } from './traffic';
import type { Ctx } from '../ctx';
import { SessionHistory } from '../sessions/sessionHistory';
import { inFlightSlot, keptSession } from '../prompts/interruptedPrompts';
import { WorktreeSessions } from '../worktrees/worktreeSessions';

export function registerAgent(ctx: Ctx) {
  const { extension, logger } = ctx;
  const traffic = ctx.own(new Traffic(ctx.log, logger, extension.globalStorageUri));
  // The prompt a reload interrupted is kept here; its session is reopened first.
  const inFlight = inFlightSlot(extension);
  const worktrees = ctx.own(new WorktreeSessions(extension.workspaceState));
  const history = new SessionHistory(
    extension.workspaceState,
    (agentName) => keptSession(inFlight, agentName),
    (sessionId) => worktrees.placeOf(sessionId),
  );
  const controller = ctx.own(
    new Controller({
      context: extension,
      logger,
      traffic: traffic.onMessage,
      resumeSession: (agentName) => {
        const id = history.lastSession(agentName);
        // A worktree removed by hand: nothing to reopen there (reopenWorktrees.ts says so).
        const place = id === undefined ? undefined : worktrees.placeOf(id);
        return place && !existsSync(place.cwd) ? undefined : id;
      },
      openAgents: () => history.openAgents(),
      onWillConnect: (agentName) => traffic.startConnection(agentName),
      placeOf: (sessionId) => worktrees.placeOf(sessionId),
    }),
  );
  ctx.own(controller.registerFeatures(() => [history]));
  registerShowCapabilities(ctx, controller);
  return { controller, traffic, history, inFlight, worktrees };
}

export type AgentFeature = ReturnType<typeof registerAgent>;
