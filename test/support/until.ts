// The one polling wait of the tests: resolves when `pred` holds, rejects after `ms` saying what
// it waited for (and the predicate's last error, if it threw). Tests wait on conditions, never
// on fixed sleeps. Every layer uses this copy: unit, integration and compat import it, the e2e
// files (plain .mjs) import its transpile, out/test/support/until.js.
//
// It keeps the real clock and timer it found at load, so it also works in a test that has
// switched on node:test's mock timers (support/mockTimers.ts): there it waits on real time for
// promises to settle, while the code under test's timers move only with mock.timers.tick().
const realSetTimeout = globalThis.setTimeout;
const realNow = Date.now;

export async function until(
  pred: () => boolean | Promise<boolean>,
  ms = 10_000,
  what = 'condition',
  everyMs = 5,
): Promise<void> {
  const deadline = realNow() + ms;
  let lastError: unknown;
  for (;;) {
    try {
      if (await pred()) return;
      lastError = undefined;
    } catch (err) {
      lastError = err; // not ready yet (a view not rendered, a file not written): retry
    }
    if (realNow() > deadline) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${ms} ms waiting for ${what}${cause}`);
    }
    await new Promise((r) => realSetTimeout(r, everyMs));
  }
}
