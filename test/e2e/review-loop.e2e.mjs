// The review loop in the real VS Code, as a user drives it: the scripted agent
// (test/fixtures/scripts/e2e-checkpoints.json) changes files; the turn's list names the symbols
// a change touched and counts what is left to review; a click marks a file reviewed; a comment
// typed in the editor through VS Code's Comments UI is counted beside the Session view's title.
// Screenshots of each.
import { agentIdle, agentReply, runCommand, sendPrompt, scriptedAgentSettings } from '../harness/codeServer.mjs';

const AGENT_TITLE = 'Checkpoints Agent';

export default {
  userSettings: scriptedAgentSettings('test/fixtures/scripts/e2e-checkpoints.json'),
  tests: [
    {
      name: 'the changes list names touched symbols and counts what is left to review; a click marks a file',
      timeoutMs: 90_000,
      async run({ openTandemView, view, screenshot, log }) {
        await openTandemView();
        await view.locator('[data-testid="composer-input"]:not([disabled])').waitFor({ timeout: 30_000 });
        for (let i = 0; i < 3 && (await view.locator('[data-testid="agent-name"]').innerText()) !== AGENT_TITLE; i++) {
          await view.locator('button[aria-label="Restart agent"]').first().click();
          await view
            .locator('[data-testid="agent-name"]', { hasText: AGENT_TITLE })
            .waitFor({ timeout: 10_000 })
            .catch(() => {});
        }
        await sendPrompt(view, 'tidy up math.ts and the notes');
        await agentReply(view, 'Tidied math.ts');
        await agentIdle(view);
        const rows = view.locator('[data-testid="changed-file"]');
        await rows.nth(2).waitFor({ timeout: 10_000 });
        await view.locator('[data-testid="to-review"]', { hasText: '3 to review' }).waitFor({ timeout: 10_000 });
        // TypeScript's outline names what the change to math.ts touched (its language server starts first).
        const symbols = view
          .locator('[data-testid="changed-file"]', { hasText: 'src/math.ts' })
          .locator('[data-testid="changed-symbols"]');
        await symbols.waitFor({ timeout: 45_000 });
        log(`math.ts symbols: ${await symbols.innerText()}`);
        if (!/add changed/.test(await symbols.innerText())) throw new Error(`symbols: ${await symbols.innerText()}`);
        await rows.first().locator('[data-testid="mark-reviewed"]').click();
        await view.locator('[data-testid="to-review"]', { hasText: '2 to review' }).waitFor({ timeout: 10_000 });
        if ((await rows.first().locator('[data-testid="mark-reviewed"]').getAttribute('aria-pressed')) !== 'true')
          throw new Error('the first file is not shown as reviewed');
        log(`screenshot: ${await screenshot('review-changes-list')}`);
      },
    },
    {
      name: 'a comment typed in the editor through the Comments UI is counted beside the view title',
      timeoutMs: 90_000,
      async run({ page, screenshot, log }) {
        await runCommand(page, 'View: Close All Editors');
        await page.keyboard.press('Control+P');
        await page.locator('.quick-input-widget input').fill('math.ts');
        await page.locator('.quick-input-list .monaco-list-row', { hasText: 'math.ts' }).first().waitFor();
        await page.keyboard.press('Enter');
        await page.locator('.monaco-editor .view-lines').first().click();
        await runCommand(page, 'Comments: Add Comment on Current Selection');
        // The comment box is a small editor of its own: click into it and type.
        const box = page.locator('.review-widget .comment-form .monaco-editor').first();
        await box.waitFor({ timeout: 15_000 });
        await box.click();
        await page.keyboard.type('Keep the overflow note shorter.');
        await page.locator('.review-widget').getByRole('button', { name: 'Add Comment' }).first().click();
        await page
          .locator('.review-widget .comment-body, .review-widget .review-comment', {
            hasText: 'Keep the overflow note shorter.',
          })
          .first()
          .waitFor({ timeout: 10_000 });
        const title = page.locator('.pane-header', { hasText: 'Session' }).first();
        await title.locator('.description', { hasText: '1 comment pending' }).waitFor({ timeout: 10_000 });
        log(`view title: ${await title.innerText()}`);
        log(`screenshot: ${await screenshot('review-comment-thread')}`);
      },
    },
  ],
};
