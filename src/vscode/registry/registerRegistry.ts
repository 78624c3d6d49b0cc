// The ACP Registry inside VS Code: browse, install, update, uninstall registry agents
// (registryCommands.ts), for the window's lifetime.
import type { TandemCommands } from '../commands';
import type { Ctx } from '../ctx';
import { type RegistryApi, registryCommands, type RunningAgent } from './registryCommands';

export function registerRegistry(
  ctx: Ctx,
  d: { ctl: RunningAgent; commands: Pick<TandemCommands, 'tandem.signIn'>; view: { show(): void } },
): RegistryApi {
  const registry = registryCommands({
    context: ctx.extension,
    logger: ctx.logger,
    runner: d.ctl,
    signIn: () => d.commands['tandem.signIn'](),
    showView: () => d.view.show(),
  });
  for (const r of registry) ctx.own(r);
  return registry.api;
}
