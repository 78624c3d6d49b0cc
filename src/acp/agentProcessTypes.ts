// What spawning an agent gives back (agentProcess.ts): the process, its exit, its options.
import type { IDisposable } from '../common/disposable';
import type { Event } from '../common/event';
import type { Logger } from '../common/logger';

export interface AgentExit {
  /** Exit code, or null when killed by a signal or never started. */
  code: number | null;
  /** Signal name (e.g. "SIGTERM") when the process was killed by a signal. */
  signal: string | null;
  /** Set when the process could not be started (spawn error): a short technical reason. */
  error?: string;
  /** Human text for the user, including the last stderr lines when there are any. */
  message: string;
}

export interface AgentProcess extends IDisposable {
  readonly pid: number | undefined;
  readonly stdin: NodeJS.WritableStream;
  readonly stdout: NodeJS.ReadableStream;
  /**
   * Fires once, as soon as the agent exits, crashes or fails to start. A listener added after
   * that is called on the next microtask with the same value (no exit is ever missed).
   */
  readonly onDidExit: Event<AgentExit>;
  readonly exited: AgentExit | undefined;
  /**
   * The host watchdog guarding the agent's tree (shared with its terminal commands): it kills the
   * tree if this process dies first.
   */
  readonly watchdogPid: number | undefined;
  /** The last `lines` (default 20) complete stderr lines, plus a pending partial line. */
  stderrTail(lines?: number): string[];
  /** SIGTERM the whole process tree, SIGKILL after the grace; resolves when the tree is gone. */
  kill(): Promise<void>;
  /** Kill without waiting. */
  dispose(): void;
}

export interface SpawnAgentOptions {
  command: string;
  args?: readonly string[];
  /** Merged over process.env; an `undefined` value removes the variable. */
  env?: Readonly<Record<string, string | undefined>>;
  cwd?: string;
  logger?: Logger;
  /** Display name used in log lines and messages; default: the command's base name. */
  name?: string;
  /** Time between SIGTERM and SIGKILL. Default 2000 ms. */
  killGraceMs?: number;
  /** Bound of the stderr ring buffer in bytes. Default 64 KiB. */
  stderrTailBytes?: number;
}
