// Known ACP agents, ready to pick in "Tandem: Select Agent". Each preset runs the agent's own
// binary when it is installed, and says how to install it when it is not.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { AgentConfig } from './agentConfig';

export interface AgentPreset extends AgentConfig {
  /** One line shown under the name. */
  description: string;
  /** How to get the command, shown when it is missing. */
  install: string;
  /** The npm package behind it, if any (for `npx -y <pkg>` as an alternative). */
  npmPackage?: string;
}

export const AGENT_PRESETS: readonly AgentPreset[] = [
  {
    name: 'Claude Code',
    command: 'claude-code-acp',
    description: "Anthropic Claude Code through Zed's ACP adapter",
    install: 'npm install -g @zed-industries/claude-code-acp',
    npmPackage: '@zed-industries/claude-code-acp',
  },
  {
    name: 'Claude Agent',
    command: 'claude-agent-acp',
    description: 'Claude Agent SDK adapter (successor of claude-code-acp)',
    install: 'npm install -g @agentclientprotocol/claude-agent-acp',
    npmPackage: '@agentclientprotocol/claude-agent-acp',
  },
  {
    name: 'Gemini CLI',
    command: 'gemini',
    args: ['--acp'],
    description: 'Google Gemini CLI in ACP mode',
    install: 'npm install -g @google/gemini-cli',
    npmPackage: '@google/gemini-cli',
  },
  {
    name: 'Codex',
    command: 'codex-acp',
    // The adapter moved: @zed-industries/codex-acp ends at 0.16.0.
    description: 'OpenAI Codex through its ACP adapter',
    install: 'npm install -g @agentclientprotocol/codex-acp',
    npmPackage: '@agentclientprotocol/codex-acp',
  },
  {
    name: 'OpenCode',
    command: 'opencode',
    args: ['acp'],
    description: 'OpenCode in ACP mode',
    install: 'npm install -g opencode-ai',
    npmPackage: 'opencode-ai',
  },
  {
    name: 'Qwen Code',
    command: 'qwen',
    args: ['--acp'],
    description: 'Qwen Code in ACP mode',
    install: 'npm install -g @qwen-code/qwen-code',
    npmPackage: '@qwen-code/qwen-code',
  },
  {
    name: 'Kilo Code',
    command: 'kilo',
    args: ['acp'],
    description: 'Kilo Code CLI in ACP mode',
    install: 'npm install -g @kilocode/cli',
    npmPackage: '@kilocode/cli',
  },
];

/**
 * Finds an executable the way a shell would: an absolute or relative path is checked as is,
 * a bare name is looked up on PATH (with PATHEXT on Windows). Returns the resolved path.
 */
export function findExecutable(
  command: string,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): string | undefined {
  const isWin = process.platform === 'win32';
  const exts = isWin ? (env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').concat('') : [''];
  const candidates =
    command.includes('/') || (isWin && command.includes('\\'))
      ? [isAbsolute(command) ? command : join(cwd, command)]
      : (env.PATH ?? '')
          .split(delimiter)
          .filter(Boolean)
          .map((d) => join(d, command));
  for (const base of candidates) {
    for (const ext of exts) {
      const p = base + ext;
      try {
        if (!statSync(p).isFile()) continue;
        if (!isWin) accessSync(p, constants.X_OK);
        return p;
      } catch {
        /* next */
      }
    }
  }
  return undefined;
}

/** A message for a command that is not installed: what was run and how to get it. */
export function missingCommandHelp(agent: AgentConfig): string {
  const preset = AGENT_PRESETS.find((p) => p.command === agent.command || p.name === agent.name);
  const line = [agent.command, ...(agent.args ?? [])].join(' ');
  return preset
    ? `"${agent.command}" is not installed (Tandem tried to run: ${line}). Install it with:\n  ${preset.install}\nor set "command" in tandem.agents to its full path.`
    : `"${agent.command}" was not found on PATH (Tandem tried to run: ${line}). Install the agent, or set "command" in tandem.agents to its full path.`;
}
