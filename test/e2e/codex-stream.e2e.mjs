// codex-acp 2.6.0 in the real VS Code, through Tandem's own UI: a command's output streams into its
// row while the command runs (codex-acp sends `_meta.terminal_output_delta` chunks), caught on a
// screenshot mid-stream: some lines shown, the row still running, the last line not yet there.
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { agentReply, openTandemView, sendPrompt } from '../harness/codeServer.mjs';
import { installAgents } from '../compat/installAgents.mjs';
// The tests' one polling wait, test/support/until.ts, as the build transpiles it.
import { until } from '../../out/test/support/until.js';

const require = createRequire(import.meta.url);
/** Six lines 0.8 s apart: long enough to look at the row between two of them. It starts quiet: Codex's
 *  app server never sends what a command wrote before it reported the command started. */
const LOOP = 'sleep 0.5; for i in 1 2 3 4 5 6; do echo stream-line-$i; sleep 0.8; done';
let model, codexHomeDir;

export default {
  async userSettings({ repo }) {
    await installAgents(['codex-acp-2.6.0']);
    const { fakeResponses } = require(join(repo, 'out/test/compat/fakeModels.js'));
    const paths = require(join(repo, 'out/test/compat/agentPaths.js'));
    model = await fakeResponses([
      { tool: 'exec_command', input: { cmd: LOOP, yield_time_ms: 20000 } },
      { text: 'CODEX-STREAM-DONE' },
    ]);
    codexHomeDir = paths.codexHome();
    return {
      'tandem.agents': [
        { name: 'Codex', command: process.execPath, args: paths.codexArgs(), env: paths.codexEnv(codexHomeDir, model) },
      ],
      'tandem.defaultAgent': 'Codex',
    };
  },
  async cleanup() {
    await model?.close();
    if (codexHomeDir) rmSync(codexHomeDir, { recursive: true, force: true });
  },
  tests: [
    {
      name: "codex-acp: a command's output fills its row line by line while it runs",
      timeoutMs: 180_000,
      async run({ page, view, screenshot, log }) {
        await openTandemView(page);
        await view.locator('[data-testid="agent-name"]', { hasText: 'Codex' }).waitFor({ timeout: 60_000 });
        await sendPrompt(view, 'Print six lines, slowly', { timeout: 60_000 });
        const running = view
          .locator('[data-testid="tool-call"][data-kind="execute"][data-status="in_progress"]')
          .first();
        await running.waitFor({ timeout: 90_000 });
        const box = view.locator('[data-testid="terminal"]').first();
        if (!(await box.isVisible().catch(() => false))) await running.click();
        // Mid-stream: the second line is there, the command still runs, its last line is not.
        const shown = () => box.innerText().catch(() => '');
        await until(async () => /stream-line-2/.test(await shown()), 20_000, 'the second line in the row', 100);
        const mid = await shown();
        const stillRunning = await running.isVisible();
        log(`mid-stream: ${JSON.stringify(mid)}; row still running: ${stillRunning}`);
        log(`screenshot: ${await screenshot('e2e-codex-stream-mid')}`);
        if (!stillRunning) throw new Error('the row ended before its output was shown');
        if (/stream-line-6/.test(mid)) throw new Error(`the whole output came at once: ${mid}`);
        await agentReply(view, 'CODEX-STREAM-DONE', { timeout: 90_000 });
        const done = view.locator('[data-testid="tool-call"][data-kind="execute"][data-status="completed"]').first();
        await done.waitFor({ timeout: 10_000 });
        await until(async () => /stream-line-6/.test(await shown()), 10_000, 'the last line in the row', 100);
        log(`screenshot: ${await screenshot('e2e-codex-stream-done')}`);
      },
    },
  ],
};
