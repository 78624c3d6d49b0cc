// Which `tandem.agents` entries came from the ACP Registry, for "Tandem: Select Agent" to say so
// ("ACP Registry · 0.16.2") instead of printing the long command line of an installed agent.
import type { InstalledAgent } from '../../registry/types';

let byName = new Map<string, InstalledAgent>();

export function rememberInstalled(agents: readonly InstalledAgent[]): void {
  byName = new Map(agents.map((a) => [a.agentName, a]));
}

/** "ACP Registry · claude-code-acp 0.16.2 (npx)" for an agent installed from the registry. */
export function registryDescription(agentName: string): string | undefined {
  const a = byName.get(agentName);
  return a ? `ACP Registry · ${a.id} ${a.version} (${a.kind})` : undefined;
}
