// Checkpoints and review in the real VS Code: the scripted agent
// (test/fixtures/scripts/e2e-checkpoints.json) changes two files and creates one. The turn lists
// them under its prompt with +/− lines; "Review" opens VS Code's multi-file diff editor; the
// editor shows "Keep | Undo" above each hunk, and undoing one hunk there leaves the other, which
// the view's list shows as still pending. Screenshots of each.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentIdle, agentReply, runCommand, sendPrompt, scriptedAgentSettings } from '../harness/codeServer.mjs';

const AGENT_TITLE = 'Checkpoints Agent';

export default {
  userSettings: scriptedAgentSettings('test/fixtures/scripts/e2e-checkpoints.json'),
  tests: [
    {
      name: 'the turn lists its changed files with +/− lines, and Review opens the multi-file diff',
      timeoutMs: 90_000,
      async run({ openTandemView, view, page, screenshot, log }) {
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
        const texts = await rows.allInnerTexts();
        log(`changed files: ${JSON.stringify(texts)}`);
        if (!/src\/math\.ts\s*\+2\s*−1/.test(texts[0])) throw new Error(`math.ts row: ${texts[0]}`);
        if (!/src\/util\.ts\s*created\s*\+1\s*−0/.test(texts[2])) throw new Error(`util.ts row: ${texts[2]}`);
        await view.locator('[data-testid="restore-here"]').first().waitFor();
        log(`screenshot: ${await screenshot('checkpoints-changes-list')}`);

        await view.locator('[data-testid="review-turn"]').click();
        await page.locator('.tab', { hasText: 'changes of turn 1' }).first().waitFor({ timeout: 15_000 });
        await page.waitForTimeout(1500); // the diffs render
        log(`screenshot: ${await screenshot('checkpoints-multi-diff')}`);
      },
    },
    {
      name: 'the editor offers Keep | Undo per hunk; undoing one leaves the other, and the view agrees',
      timeoutMs: 60_000,
      async run({ page, view, workspace, screenshot, log }) {
        await runCommand(page, 'View: Close All Editors');
        await page.keyboard.press('Control+P');
        await page.locator('.quick-input-widget input').fill('math.ts');
        await page.locator('.quick-input-list .monaco-list-row', { hasText: 'math.ts' }).first().waitFor();
        await page.keyboard.press('Enter');
        const lenses = page.locator('.contentWidgets .codelens-decoration a, .codelens-decoration a');
        await lenses.filter({ hasText: 'Undo' }).nth(1).waitFor({ timeout: 15_000 });
        const titles = await lenses.allInnerTexts();
        log(`code lenses: ${JSON.stringify(titles)}`);
        log(`screenshot: ${await screenshot('checkpoints-hunk-codelens')}`);
        // The second hunk's Undo: the lenses are Keep All, Undo All, Keep, Undo, Keep, Undo.
        await lenses
          .filter({ hasText: /^Undo$/ })
          .nth(1)
          .click();
        const file = join(workspace, 'src', 'math.ts');
        const deadline = Date.now() + 10_000;
        while (!readFileSync(file, 'utf8').includes("throw new Error('mean of an empty list')")) {
          if (Date.now() > deadline) throw new Error(`second hunk not undone: ${readFileSync(file, 'utf8')}`);
          await page.waitForTimeout(200);
        }
        if (!readFileSync(file, 'utf8').includes('// Plain addition')) throw new Error('the first hunk was undone too');
        const row = view.locator('[data-testid="changed-file"]', { hasText: 'src/math.ts' });
        if ((await row.getAttribute('data-state')) !== 'pending') throw new Error('math.ts should still be pending');
        // Its counts follow the undo: only the first hunk (one added line) is left.
        await view
          .locator('[data-testid="changed-file"]', { hasText: /src\/math\.ts\s*\+1\s*−0/ })
          .waitFor({ timeout: 10_000 });
        await page.waitForTimeout(500);
        log(`screenshot: ${await screenshot('checkpoints-hunk-after-undo')}`);
      },
    },
  ],
};
