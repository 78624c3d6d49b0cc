// The gap probe of the flood and long-output benchmarks: a 50 ms setInterval in a page (the
// workbench, or the webview's frame) records the longest time between two of its ticks. A tick
// that comes late means the page's main thread was busy that long: in code-server the webview
// shares the workbench's renderer process, so a long webview frame freezes the whole workbench.
// Long tasks alone miss gaps made of many short tasks back to back; this sees both.

/** Starts the probe in the page or frame it is evaluated in. */
export const START_GAP_PROBE = () => {
  const probe = { max: 0, over100: 0, ticks: 0, prev: performance.now() };
  probe.timer = setInterval(() => {
    const now = performance.now();
    const gap = now - probe.prev;
    probe.prev = now;
    probe.ticks++;
    if (gap > probe.max) probe.max = gap;
    if (gap > 100) probe.over100++;
  }, 50);
  window.__gapProbe = probe;
};

/** Stops the probe and returns what it saw: the largest gap between ticks, gaps over 100 ms. */
export const STOP_GAP_PROBE = () => {
  const probe = window.__gapProbe;
  if (!probe) return null;
  clearInterval(probe.timer);
  return { maxGapMs: Math.round(probe.max), gapsOver100ms: probe.over100, ticks: probe.ticks };
};

/** The budget of issue "frame floor": no gap over 100 ms in the workbench or the webview. */
export const GAP_BUDGET_MS = 100;

/** The Frame (not a FrameLocator: probes need evaluate) of the Tandem view's content. */
export async function tandemViewFrame(page) {
  for (let i = 0; i < 100; i++) {
    for (const f of page.frames()) {
      if (await f.$('[data-testid="composer-input"]').catch(() => null)) return f;
    }
    await page.waitForTimeout(100);
  }
  throw new Error('the Tandem view frame was not found');
}
