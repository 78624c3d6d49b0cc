// Telling the user when the agent needs them: a turn that ended or failed out of sight
// (notification, badge), and the agent's state in the status bar.
import type { Controller } from '../agent/controller';
import { StatusIndicators } from '../agent/statusBar';
import type { Ctx } from '../ctx';
import type { TurnEnds } from '../prompts/turnEnds';
import { type AttentionView, TurnAttention } from './attention';

export function registerAttention(
  ctx: Ctx,
  d: { ctl: Controller; turns: TurnEnds; view: AttentionView },
): TurnAttention {
  const attention = ctx.own(new TurnAttention(d.ctl, d.turns, d.view));
  ctx.own(new StatusIndicators(d.ctl, attention));
  return attention;
}
