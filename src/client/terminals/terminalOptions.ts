// What a connection's terminals are built with (terminals.ts).
import type { Logger } from '../../common/logger';
import type { SessionStore } from '../../session/store';
import type { SessionPlace } from '../connection/sessionPlace';
import type { ProcessPort } from '../ports';

/** Output limit when the agent sets none. */
export const DEFAULT_OUTPUT_BYTE_LIMIT = 1024 * 1024;

export interface TerminalsOptions {
  processes?: ProcessPort;
  /** SIGTERM → SIGKILL grace. Default 2000 ms. */
  killGraceMs?: number;
  flushMs?: number;
}

export interface TerminalManagerOptions extends TerminalsOptions {
  /** The workspace folder: commands of sessions without a place run there (a relative cwd too). */
  cwd: string;
  /** A session's own folder (a worktree): its commands run there. */
  placeOf?(sessionId: string): SessionPlace | undefined;
  agentName?: string;
  logger: Logger;
  session(sessionId: string): SessionStore | undefined;
}
