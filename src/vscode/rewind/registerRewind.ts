// Edit and resend of an earlier prompt, and its Redo (editPrompts.ts): one object for the
// extension's life, attached to every agent connection (it sends `_session/rewind` over it).
import type { Controller } from '../agent/controller';
import type { Ctx } from '../ctx';
import { EditPrompts, type EditPromptsDeps } from './editPrompts';

export type RewindDeps = Omit<EditPromptsDeps, 'logger' | 'ctl'> & { ctl: Controller };

export function registerRewind(ctx: Ctx, deps: RewindDeps): EditPrompts {
  const edits = ctx.own(new EditPrompts({ ...deps, logger: ctx.logger }));
  ctx.own(deps.ctl.registerFeatures(() => [edits]));
  return edits;
}
