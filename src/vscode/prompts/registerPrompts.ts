// Prompts: one sender for every prompt (composer, palette, queue, steer, resend), the queues that
// send when a turn ends, the turn ends themselves, and the prompt a reload interrupted.
import type { Controller } from '../agent/controller';
import type { Ctx } from '../ctx';
import { InterruptedPrompts, type PromptSlot } from './interruptedPrompts';
import { type PromptNotices, PromptSender } from './promptSender';
import { QueuedPrompts } from './queuedPrompts';
import { TurnEnds } from './turnEnds';

export interface PromptsDeps {
  ctl: Controller;
  /** What travels with a session's next prompt (the restore notice). */
  notices: PromptNotices;
  /** Where the running prompt is kept across a reload (agent/registerAgent.ts). */
  inFlight: PromptSlot;
  view: { show(): void };
}

export function registerPrompts(ctx: Ctx, { ctl, notices, inFlight, view }: PromptsDeps) {
  const turns = ctx.own(new TurnEnds());
  const sender = new PromptSender(ctl, notices);
  const queued = ctx.own(new QueuedPrompts(ctl, turns, sender, ctx.logger));
  const interrupted = new InterruptedPrompts(inFlight, (text, attachments) => {
    view.show();
    return sender.send(text, attachments);
  });
  ctx.own(ctl.registerFeatures(() => [turns, interrupted]));
  return { turns, sender, queued };
}
