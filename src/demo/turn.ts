// A turn: the request being served (a prompt, a handler, startup), its cancellation and the
// clean-ups that must run when it is cancelled (e.g. releasing a terminal).
import type { Answer } from './rpcChannel';
import type { PromptScript, Step } from './scriptTypes';

/** Thrown out of the steps when the turn was cancelled or already answered. */
export class Interrupt extends Error {
  constructor() {
    super('interrupted');
  }
}

export interface SessionState {
  id: string;
  cwd: string;
  n: number;
  vars: Record<string, unknown>;
  modes?: { currentModeId: string; availableModes: unknown[] };
  configOptions?: Array<Record<string, unknown>>;
  turn?: Turn;
}

export interface Turn {
  /** Answers the request being served (prompt or handler) at most once. */
  respond(answer: Answer): void;
  answered: boolean;
  cancelled: boolean;
  ignoreCancel: boolean;
  abort: AbortController;
  vars: Record<string, unknown>;
  session?: SessionState;
  prompt?: PromptScript;
  /** Run (in order, not awaited) when the turn is cancelled, before it answers `cancelled`. */
  cleanups: Set<() => void>;
}

export function makeTurn(reply: (a: Answer) => void, vars: Record<string, unknown>, session?: SessionState): Turn {
  const turn: Turn = {
    answered: false,
    cancelled: false,
    ignoreCancel: false,
    abort: new AbortController(),
    vars,
    session,
    cleanups: new Set(),
    respond: (a) => {
      if (turn.answered) return;
      turn.answered = true;
      reply(a);
    },
  };
  return turn;
}

export const never = new Promise<never>(() => {
  /* never settles */
});

/** `p`, or an Interrupt as soon as the turn is cancelled. */
export function interruptible<T>(p: Promise<T>, turn: Turn): Promise<T> {
  if (turn.cancelled) return Promise.reject(new Interrupt());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Interrupt());
    turn.abort.signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (x) => {
        turn.abort.signal.removeEventListener('abort', onAbort);
        resolve(x);
      },
      (e: unknown) => {
        turn.abort.signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** Waits `ms × timeScale`; cancellable. */
export function sleep(ms: number, timeScale: number, turn: Turn): Promise<void> {
  const t = ms * timeScale;
  if (t <= 0) return turn.cancelled ? Promise.reject(new Interrupt()) : Promise.resolve();
  return interruptible(new Promise<void>((r) => setTimeout(r, t)), turn);
}

/** session/cancel: clean-ups (release terminals) first, then the prompt's onCancel steps, then `cancelled`. */
export function cancelTurn(
  turn: Turn,
  steps: { run(steps: Step[], turn: Turn): Promise<void> },
  log: (text: string) => void,
): void {
  if (turn.cancelled || turn.answered || turn.ignoreCancel) return;
  turn.cancelled = true;
  for (const c of [...turn.cleanups]) {
    try {
      c();
    } catch (e) {
      log(`clean-up failed: ${String(e)}`);
    }
  }
  turn.cleanups.clear();
  turn.abort.abort();
  const after = turn.prompt?.onCancel;
  void (async () => {
    if (after?.length) {
      const t2 = makeTurn(
        () => {
          /* the prompt is answered below */
        },
        turn.vars,
        turn.session,
      );
      try {
        await steps.run(after, t2);
      } catch {
        /* ignore */
      }
    }
    turn.respond({ result: { stopReason: 'cancelled' } });
    if (turn.session?.turn === turn) turn.session.turn = undefined;
  })();
}
