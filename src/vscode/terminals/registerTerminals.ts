// Terminals: the agent's commands on every connection (in VS Code terminals when
// tandem.terminal.visible is on, else as processes), and "Open in terminal".
import { TerminalsFeature } from '../../client/terminals/terminals';
import type { Controller } from '../agent/controller';
import type { Ctx } from '../ctx';
import { TerminalMirror } from './terminalMirror';
import { VisibleTerminals } from './visibleTerminals';

export function registerTerminals(ctx: Ctx, ctl: Pick<Controller, 'current' | 'registerFeatures'>) {
  const visible = ctx.own(new VisibleTerminals(ctx.logger));
  const mirror = ctx.own(new TerminalMirror(() => ctl.current?.session));
  ctx.own(ctl.registerFeatures(() => [new TerminalsFeature({ processes: visible })]));
  return { visible, mirror };
}
