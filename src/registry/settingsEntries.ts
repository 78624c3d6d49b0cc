// The `tandem.agents` entries a registry install writes, as plain list edits: the VS Code side
// reads the user-settings list, applies one of these, and writes it back.
import { DEMO_AGENT_NAME, type AgentConfig } from '../client/agents/agentConfig';
import type { InstalledAgent } from './types';

type Entry = Record<string, unknown>;

const nameOf = (e: unknown) => (typeof e === 'object' && e !== null ? (e as Entry).name : undefined);

/**
 * Adds the agent, or replaces how an existing entry of that name runs (command, args, env). What
 * the user added to that entry is kept: `secretEnv`, `cwd`, and environment variables the
 * registry does not set.
 */
export function upsertEntry(entries: readonly unknown[], config: AgentConfig): unknown[] {
  const at = entries.findIndex((e) => nameOf(e) === config.name);
  const next: Entry = { name: config.name, command: config.command };
  if (config.args?.length) next.args = [...config.args];
  const old = at >= 0 ? (entries[at] as Entry) : undefined;
  const oldEnv = old && typeof old.env === 'object' && old.env !== null ? (old.env as Record<string, string>) : {};
  const env = { ...oldEnv, ...(config.env ?? {}) };
  if (Object.keys(env).length) next.env = env;
  if (old?.cwd !== undefined) next.cwd = old.cwd;
  if (old?.secretEnv !== undefined) next.secretEnv = old.secretEnv;
  const out = entries.slice();
  if (at >= 0) out[at] = next;
  else out.push(next);
  return out;
}

export function removeEntry(entries: readonly unknown[], name: string): unknown[] {
  return entries.filter((e) => nameOf(e) !== name);
}

/**
 * The settings name for a newly installed agent: its registry name, unless an entry the user made
 * already has it, or it is the built-in Demo (then "Name (id)"), so an install never overwrites
 * someone's own configuration.
 */
export function uniqueAgentName(
  name: string,
  id: string,
  entries: readonly unknown[],
  installed: readonly InstalledAgent[],
): string {
  const taken = (n: string) =>
    n === DEMO_AGENT_NAME ||
    entries.some((e) => nameOf(e) === n) ||
    installed.some((i) => i.agentName === n && i.id !== id);
  if (!taken(name)) return name;
  const withId = `${name} (${id})`;
  if (!taken(withId)) return withId;
  for (let i = 2; ; i++) if (!taken(`${withId} ${i}`)) return `${withId} ${i}`;
}
