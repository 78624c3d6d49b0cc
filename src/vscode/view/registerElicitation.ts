// elicitation/create on every connection: forms in the view (a notification when it is out of
// sight), URLs opened only after a modal names their host.
import { ElicitationFeature } from '../../client/elicitation';
import type { Controller } from '../agent/controller';
import type { Ctx } from '../ctx';
import { notifyHiddenForms, VsCodeUrlPort } from './elicitation';

export function registerElicitation(
  ctx: Ctx,
  d: { ctl: Pick<Controller, 'registerFeatures'>; view: { readonly isVisible: boolean; show(): void } },
): ElicitationFeature {
  const elicitation = new ElicitationFeature({ url: new VsCodeUrlPort(), logger: ctx.logger });
  ctx.own(notifyHiddenForms(elicitation, d.view));
  ctx.own(d.ctl.registerFeatures(() => [elicitation]));
  return elicitation;
}
