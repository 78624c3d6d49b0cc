// The agent feature: its traffic (log, ring, recording), the past sessions (the one to reopen),
// the controller (which agent runs; the connection scope), and its status in the status bar.
import { Controller } from './controller';
import { Traffic } from './traffic';
import type { Ctx } from '../ctx';
import { SessionHistory } from '../sessions/sessionHistory';
import { inFlightSlot, keptSession } from '../prompts/interruptedPrompts';

export function registerAgent(ctx: Ctx) {
  const { extension, logger } = ctx;
  const traffic = ctx.own(new Traffic(ctx.log, logger, extension.globalStorageUri));
  // The prompt a reload interrupted is kept here; its session is reopened first.
  const inFlight = inFlightSlot(extension);
  const history = new SessionHistory(extension.workspaceState, (agentName) => keptSession(inFlight, agentName));
  const controller = ctx.own(
    new Controller({
      context: extension,
      logger,
      traffic: traffic.onMessage,
      resumeSession: (agentName) => history.lastSession(agentName),
      openAgents: () => history.openAgents(),
      onWillConnect: (agentName) => traffic.startConnection(agentName),
    }),
  );
  ctx.own(controller.registerFeatures(() => [history]));
  return { controller, traffic, history, inFlight };
}

export type AgentFeature = ReturnType<typeof registerAgent>;
