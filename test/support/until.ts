// The one polling wait of the tests: resolves when `pred` holds, rejects after `ms` saying what
// it waited for (and the predicate's last error, if it threw). Tests wait on conditions, never
// on fixed sleeps.

export async function until(
  pred: () => boolean | Promise<boolean>,
  ms = 10_000,
  what = 'condition',
  everyMs = 5,
): Promise<void> {
  const deadline = Date.now() + ms;
  let lastError: unknown;
  for (;;) {
    try {
      if (await pred()) return;
      lastError = undefined;
    } catch (err) {
      lastError = err; // not ready yet (a view not rendered, a file not written): retry
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${ms} ms waiting for ${what}${cause}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
