// The `terminal` step: runs a command in a client terminal the way real agents do —
// terminal/create → a `terminal` content on the tool call (the client shows its output live) →
// terminal/wait_for_exit → terminal/output → terminal/release. When the turn is cancelled the
// terminal is released at once (also if terminal/create answers only later), never killed:
// release ends the process and keeps the output visible.
import type { Answer } from './rpcChannel';
import { interruptible, Interrupt, type Turn } from './turn';

export interface TerminalRun {
  terminalId?: string;
  exitCode?: number | null;
  signal?: string | null;
  output?: string;
  truncated?: boolean;
  error?: unknown;
}

export interface TerminalStepHost {
  request(method: string, params: unknown): Promise<Answer>;
  /** A session/update for the current session. */
  update(update: Record<string, unknown>): void;
}

export async function runTerminal(
  host: TerminalStepHost,
  turn: Turn,
  sessionId: string,
  create: Record<string, unknown>,
  toolCallId?: string,
): Promise<TerminalRun> {
  const created = host.request('terminal/create', { ...create, sessionId });
  let terminalId: string | undefined;
  let released = false;
  const release = () => {
    if (released || terminalId === undefined) return;
    released = true;
    void host.request('terminal/release', { sessionId, terminalId });
  };
  // Cancelled before terminal/create answered: release the terminal when it does.
  const cleanup = () => {
    if (terminalId !== undefined) release();
    else
      void created.then((a) => {
        if ('result' in a) {
          terminalId ??= idOf(a.result);
          release();
        }
      });
  };
  turn.cleanups.add(cleanup);
  try {
    const a = await interruptible(created, turn);
    if ('error' in a) {
      turn.cleanups.delete(cleanup);
      return { error: a.error };
    }
    terminalId = idOf(a.result);
    if (terminalId === undefined) {
      turn.cleanups.delete(cleanup);
      return { error: { message: 'terminal/create answered no terminalId' } };
    }
    if (toolCallId)
      host.update({ sessionUpdate: 'tool_call_update', toolCallId, content: [{ type: 'terminal', terminalId }] });
    const exit = await interruptible(host.request('terminal/wait_for_exit', { sessionId, terminalId }), turn);
    const out = await interruptible(host.request('terminal/output', { sessionId, terminalId }), turn);
    turn.cleanups.delete(cleanup);
    release();
    const status = 'result' in exit ? (exit.result as { exitCode?: number | null; signal?: string | null }) : {};
    const o = 'result' in out ? (out.result as { output?: string; truncated?: boolean }) : {};
    return {
      terminalId,
      exitCode: status.exitCode ?? null,
      signal: status.signal ?? null,
      output: o.output ?? '',
      truncated: o.truncated ?? false,
    };
  } catch (e) {
    if (e instanceof Interrupt) {
      turn.cleanups.delete(cleanup);
      cleanup();
    }
    throw e;
  }
}

function idOf(result: unknown): string | undefined {
  const id = (result as { terminalId?: unknown } | undefined)?.terminalId;
  return typeof id === 'string' ? id : undefined;
}
