// node:test's mock timers for one test: time moves only with `mock.timers.tick(ms)`, so a test
// checks what happens after a delay (a timeout, a debounce, a retry's backoff) without waiting
// for it, and checks that something did NOT wait by asserting before any tick.
import { mock } from 'node:test';

type TimerApi = 'setTimeout' | 'setInterval' | 'setImmediate' | 'Date';

/**
 * Runs `fn` with node:test's fake timers (default: setTimeout; add 'Date' when the code reads the
 * clock) and puts the real ones back when it returns or its promise settles. `until`
 * (support/until.ts) keeps working inside: it polls on the real clock.
 */
export function withMockTimers<T>(fn: () => T, apis: TimerApi[] = ['setTimeout']): T {
  mock.timers.enable({ apis });
  let result: T;
  try {
    result = fn();
  } catch (err) {
    mock.timers.reset();
    throw err;
  }
  if (result instanceof Promise) return result.finally(() => mock.timers.reset()) as T;
  mock.timers.reset();
  return result;
}

/** Lets promise callbacks run (a few event-loop turns; setImmediate is left real by default). */
export async function settleMicrotasks(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((r) => setImmediate(r));
}
