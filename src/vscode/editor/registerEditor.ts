// The editor follows the agent: the file it reads or edits opens where it works (follow-along).
import type { Controller } from '../agent/controller';
import type { Ctx } from '../ctx';
import { FollowAgent } from './followAgent';

export function registerEditor(ctx: Ctx, ctl: Pick<Controller, 'onDidChangeSession'>): FollowAgent {
  return ctx.own(new FollowAgent(ctl.onDidChangeSession));
}
