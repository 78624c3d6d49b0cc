// The transport of one agent connection: the agent's process, spawned in its own process group,
// and the ACP connection over its stdio.
import { spawnAgent, type AgentExit, type AgentProcess } from '../../acp/agentProcess';
import { AcpConnection } from '../../acp/connection';
import type { Logger } from '../../common/logger';
import type { AgentConfig } from '../agents/agentConfig';
import { SubagentSessions } from './subagentSessions';

export interface TransportOptions {
  agent: AgentConfig;
  /** The process's cwd unless the agent sets its own. */
  cwd: string;
  logger: Logger;
  traffic?: (direction: 'in' | 'out', message: unknown) => void;
  maxLineBytes?: number;
}

export interface Transport {
  proc: AgentProcess;
  conn: AcpConnection;
  /** The subagents' child sessions the agent announced, shown in their root sessions. */
  subagents: SubagentSessions;
}

export function openTransport(opts: TransportOptions): Transport {
  const { agent, logger } = opts;
  const proc = spawnAgent({
    command: agent.command,
    args: agent.args,
    env: agent.env,
    cwd: agent.cwd ?? opts.cwd,
    logger,
    name: agent.name,
  });
  const subagents = new SubagentSessions(logger);
  const conn = new AcpConnection({
    input: proc.stdout,
    output: proc.stdin,
    logger,
    traffic: opts.traffic,
    maxLineBytes: opts.maxLineBytes,
    translate: (m) => subagents.translate(m),
  });
  return { proc, conn, subagents };
}

/**
 * Resolves with the agent's exit once the listeners registered before this call ran (the
 * client's exit handling), or undefined if the process outlives `ms`.
 */
export function waitForExit(proc: AgentProcess | undefined, ms = 1500): Promise<AgentExit | undefined> {
  if (!proc) return Promise.resolve(undefined);
  if (proc.exited) return Promise.resolve(proc.exited);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      sub.dispose();
      resolve(undefined);
    }, ms);
    // Registered after the client's exit listener, so the sessions are already marked when this runs.
    const sub = proc.onDidExit((e) => {
      clearTimeout(timer);
      sub.dispose();
      resolve(e);
    });
  });
}
