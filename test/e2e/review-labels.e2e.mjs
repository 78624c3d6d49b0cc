// Review Changes names a file at the workspace root by its workspace-relative path and labels a
// change written through Tandem's fs/write_text_file as such (the agent showed its diff first, as
// claude-code-acp does). The edit came with no permission request: its details say the agent's
// own settings let it run.
import { agentIdle, agentReply, runCommand, sendPrompt, scriptedAgentSettings } from '../harness/codeServer.mjs';

export default {
  userSettings: scriptedAgentSettings('test/fixtures/scripts/e2e-review-labels.json'),
  tests: [
    {
      name: 'a root file written through Tandem: relative path, "written through Tandem", and the unasked note',
      timeoutMs: 90_000,
      async run({ page, view, openTandemView, screenshot, log }) {
        await openTandemView();
        await sendPrompt(view, 'write');
        await agentReply(view, 'written review-root.txt');
        await agentIdle(view);
        const row = view.locator('[data-testid="tool-call"][data-id="w1"]');
        await row.locator('.tool-head').click();
        const note = await row.locator('[data-testid="tool-permission"]').innerText({ timeout: 10_000 });
        if (!/Ran without asking: allowed by the agent's own settings/.test(note)) throw new Error(`note: ${note}`);
        log(`screenshot: ${await screenshot('e2e-review-unasked-note')}`);
        await runCommand(page, 'Tandem: Review Changes');
        const item = page.locator('.quick-input-list .monaco-list-row', { hasText: 'review-root.txt' });
        await item.first().waitFor({ timeout: 10_000 });
        const text = await item.first().innerText();
        log(`review row: ${text.replace(/\n/g, ' | ')}`);
        if (!/written through Tandem/.test(text)) throw new Error(`label: ${text}`);
        if (/\/tmp\/|directly/.test(text)) throw new Error(`absolute path or wrong label: ${text}`);
        if (text.split('review-root.txt').length !== 2) throw new Error(`the root file's name shows once: ${text}`);
        log(`screenshot: ${await screenshot('e2e-review-root-file')}`);
        await page.keyboard.press('Escape');
      },
    },
  ],
};
