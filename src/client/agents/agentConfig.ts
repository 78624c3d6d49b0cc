/** One configured agent (setting `tandem.agents`, or a built-in preset). */
export interface AgentConfig {
  name: string;
  command: string;
  args?: string[];
  env?: Record<string, string>;
  /** Working directory of the process; defaults to the workspace folder. */
  cwd?: string;
  /** Environment variables whose values are secrets (API keys): asked once, kept in SecretStorage. */
  secretEnv?: string[];
}

export const DEMO_AGENT_NAME = 'Demo';

/**
 * The built-in demo agent: Tandem's own scripted agent, run by the extension host's Node.
 * On desktop VS Code the host is Electron, which acts as Node only with ELECTRON_RUN_AS_NODE.
 */
export function demoAgent(nodePath: string, scriptPath: string): AgentConfig {
  return { name: DEMO_AGENT_NAME, command: nodePath, args: [scriptPath], env: { ELECTRON_RUN_AS_NODE: '1' } };
}

/** Plays a recorded session (JSONL) back as an agent, paths rebased to the workspace. */
export function replayAgent(nodePath: string, scriptPath: string, recording: string): AgentConfig {
  const base = recording.split(/[\\/]/).pop() ?? recording;
  return {
    name: `Replay: ${base}`,
    command: nodePath,
    args: [scriptPath, recording],
    env: { ELECTRON_RUN_AS_NODE: '1' },
  };
}

/**
 * Validates the raw `tandem.agents` setting. Returns the usable agents and one warning per
 * entry skipped, so a typo in one entry never hides the others.
 */
export function parseAgents(raw: unknown): { agents: AgentConfig[]; warnings: string[] } {
  const agents: AgentConfig[] = [];
  const warnings: string[] = [];
  if (raw === undefined || raw === null) return { agents, warnings };
  if (!Array.isArray(raw)) return { agents, warnings: ['tandem.agents must be a list of agents.'] };
  raw.forEach((a, i) => {
    const where = `tandem.agents[${i}]`;
    if (typeof a !== 'object' || a === null) {
      warnings.push(`${where} is not an object: skipped.`);
      return;
    }
    const { name, command, args, env, cwd, secretEnv } = a as Record<string, unknown>;
    if (typeof name !== 'string' || !name.trim()) {
      warnings.push(`${where} has no "name": skipped.`);
      return;
    }
    if (typeof command !== 'string' || !command.trim()) {
      warnings.push(`${where} ("${name}") has no "command": skipped.`);
      return;
    }
    if (args !== undefined && !(Array.isArray(args) && args.every((x) => typeof x === 'string'))) {
      warnings.push(`${where} ("${name}"): "args" must be a list of strings: skipped.`);
      return;
    }
    if (
      env !== undefined &&
      !(typeof env === 'object' && env !== null && Object.values(env).every((x) => typeof x === 'string'))
    ) {
      warnings.push(`${where} ("${name}"): "env" must map names to strings: skipped.`);
      return;
    }
    if (cwd !== undefined && typeof cwd !== 'string') {
      warnings.push(`${where} ("${name}"): "cwd" must be a string: skipped.`);
      return;
    }
    if (
      secretEnv !== undefined &&
      !(Array.isArray(secretEnv) && secretEnv.every((x) => typeof x === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(x)))
    ) {
      warnings.push(`${where} ("${name}"): "secretEnv" must be a list of environment variable names: skipped.`);
      return;
    }
    if (agents.some((x) => x.name === name))
      warnings.push(`${where}: a second agent named "${name}" replaces the first.`);
    const cfg: AgentConfig = { name, command };
    if (args) cfg.args = args as string[];
    if (env) cfg.env = env as Record<string, string>;
    if (cwd) cfg.cwd = cwd;
    if (secretEnv) cfg.secretEnv = secretEnv as string[];
    const at = agents.findIndex((x) => x.name === name);
    if (at >= 0) agents[at] = cfg;
    else agents.push(cfg);
  });
  return { agents, warnings };
}
