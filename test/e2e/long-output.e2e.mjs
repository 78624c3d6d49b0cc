// 20 MB of command output shown live in the Tandem view, in the real VS Code: the command runs
// through Tandem's terminal (terminal/create with the tool call's terminal content), its output
// streams into the view's terminal box, the kept tail and the truncation notice are shown, and a
// gap probe in the workbench and in the webview records the longest main-thread stall. The
// 100 ms gap budget is enforced by the benchmark (bench/flood.mjs sets TANDEM_ENFORCE_BUDGETS=1),
// never by `npm test`: timings belong in benchmarks.
import { agentIdle, agentReply, scriptedAgentSettings, sendPrompt } from '../harness/codeServer.mjs';
import { GAP_BUDGET_MS, START_GAP_PROBE, STOP_GAP_PROBE, tandemViewFrame } from './gapProbe.mjs';

const SCRIPT = 'test/fixtures/scripts/e2e-long-output.json';

export default {
  userSettings: scriptedAgentSettings(SCRIPT, { name: 'Long Output' }),
  tests: [
    {
      name: '20 MB of command output stream into the view; its tail and the truncation notice are shown',
      timeoutMs: 180_000,
      async run({ openTandemView, view, page, log, screenshot }) {
        await openTandemView();
        await agentIdle(view, { timeout: 60_000 });
        const frame = await tandemViewFrame(page);
        await frame.evaluate(START_GAP_PROBE);
        await page.evaluate(START_GAP_PROBE);
        const sent = Date.now();
        await sendPrompt(view, 'long output please');
        await agentReply(view, 'Printed it (exit code 0, truncated true)', { timeout: 150_000 });
        const doneMs = Date.now() - sent;
        const webview = await frame.evaluate(STOP_GAP_PROBE);
        const workbench = await page.evaluate(STOP_GAP_PROBE);
        const terminal = view.locator('[data-testid="tool-call"][data-id="big"] [data-testid="terminal"]');
        await terminal.waitFor({ timeout: 10_000 });
        const text = await terminal.innerText();
        // The last line the command printed is in the kept tail; the first is long gone.
        if (!text.includes('000209716 ')) throw new Error('the last line of the output is not shown');
        if (text.includes('000000001 ')) throw new Error('the first line should have been cut from the kept tail');
        if (!/truncated|earlier output|cut/i.test(text))
          throw new Error(`no truncation notice in the terminal box: ${text.slice(0, 200)}`);
        const result = { outputMB: 20, doneMs, webview, workbench, budgetMs: GAP_BUDGET_MS };
        log(`LONG_OUTPUT ${JSON.stringify(result)}`);
        log(`screenshot: ${await screenshot('long-output')}`);
        if (process.env.TANDEM_ENFORCE_BUDGETS === '1') {
          for (const [where, probe] of Object.entries({ webview, workbench }))
            if (probe.maxGapMs > GAP_BUDGET_MS)
              throw new Error(`${where} main thread stalled ${probe.maxGapMs} ms (budget ${GAP_BUDGET_MS})`);
        }
      },
    },
  ],
};
