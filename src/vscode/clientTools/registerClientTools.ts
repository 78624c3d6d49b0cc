// Client tools: the IDE group, command tools, the Code, Workspace and Extensions groups (their
// edits go to Review Changes) and other extensions' groups, served to every agent connection over
// MCP on loopback.
import type { ChangeTracker } from '../../client/changes/changeTracker';
import type { PermissionPort } from '../../client/permissions/permissionPort';
import type { Controller } from '../agent/controller';
import type { Ctx } from '../ctx';
import { createClientTools, type ClientTools } from './clientToolsSettings';
import { registerIdeIntelligence } from './ideIntelligence';

export function registerClientTools(
  ctx: Ctx,
  d: { ctl: Pick<Controller, 'clientOf' | 'registerFeatures'>; permission: PermissionPort; tracker: ChangeTracker },
): ClientTools {
  const clientTools = ctx.own(createClientTools(ctx.extension, ctx.logger, d.permission));
  ctx.own(
    registerIdeIntelligence(clientTools.registry, ctx.logger, {
      tracker: d.tracker,
      session: (id) => d.ctl.clientOf(id)?.getSession(id),
    }),
  );
  ctx.own(d.ctl.registerFeatures(() => [clientTools.feature]));
  return clientTools;
}
