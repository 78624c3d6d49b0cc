// Permissions: rules → remembered decisions → the prompt in the view (a notification and a badge
// when the view is out of sight), for every agent connection.
import type { Controller } from '../agent/controller';
import type { Ctx } from '../ctx';
import { type PermissionViewPort, TandemPermissions } from './tandemPermissions';

export function registerPermissions(
  ctx: Ctx,
  d: { ctl: Pick<Controller, 'registerFeatures'>; view: PermissionViewPort },
): TandemPermissions {
  const permissions = ctx.own(new TandemPermissions(ctx.extension, ctx.logger, d.view));
  ctx.own(d.ctl.registerFeatures(() => [permissions.feature()]));
  return permissions;
}
