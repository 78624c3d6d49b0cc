// Permissions: rules → remembered decisions → the prompt in the view (a notification and a badge
// when the view is out of sight), for every agent connection.
import type { Controller } from '../agent/controller';
import type { Ctx } from '../ctx';
import { type PermissionViewPort, TandemPermissions } from './tandemPermissions';

export function registerPermissions(
  ctx: Ctx,
  d: { ctl: Pick<Controller, 'registerFeatures' | 'current' | 'switchTo' | 'onDidReplace'>; view: PermissionViewPort },
): TandemPermissions {
  const { ctl, view } = d;
  // Prompts of a session the view does not show (another agent's, running beside) are told about.
  const port: PermissionViewPort = {
    get isVisible() {
      return view.isVisible;
    },
    onDidChangeVisibility: view.onDidChangeVisibility,
    setBadge: (count, tooltip) => view.setBadge(count, tooltip),
    show: () => view.show(),
    shownSession: () => ctl.current?.session?.sessionId,
    showSession: (sessionId) => {
      ctl.switchTo(sessionId);
      view.show();
    },
  };
  const permissions = ctx.own(new TandemPermissions(ctx.extension, ctx.logger, port));
  // Another session shown: its prompts come into sight, the hidden one's leave it.
  ctx.own(ctl.onDidReplace(() => permissions.updateBadge()));
  ctx.own(ctl.registerFeatures(() => [permissions.feature()]));
  return permissions;
}
