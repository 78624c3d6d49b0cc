// Conversation control in the real VS Code with the scripted agent
// (test/fixtures/scripts/e2e-queue.json): two prompts queued while a turn runs, reordered in the
// view, both sent in that order when the turn ends; after a cancel the queue waits for Send; a
// turn that ends while the view is hidden
// brings a notification and a badge, and "Show Session" opens the view again.
import {
  agentIdle,
  agentReply,
  notification,
  runCommand,
  sendPrompt,
  scriptedAgentSettings,
} from '../harness/codeServer.mjs';

const SCRIPT = 'test/fixtures/scripts/e2e-queue.json';

export default {
  userSettings: scriptedAgentSettings(SCRIPT),
  tests: [
    {
      name: 'two prompts queued during a turn, reordered, are sent in the new order when it ends',
      timeoutMs: 60_000,
      async run({ openTandemView, view, screenshot, log }) {
        await openTandemView();
        await sendPrompt(view, 'slow please');
        await view.locator('[data-testid="cancel"]').waitFor({ timeout: 15_000 });
        await sendPrompt(view, 'alpha');
        await sendPrompt(view, 'beta');
        const texts = () => view.locator('[data-testid="queue-text"]').allInnerTexts();
        await view.locator('[data-testid="queue-item"]').nth(1).waitFor({ timeout: 10_000 });
        if ((await texts()).join('|') !== 'alpha|beta') throw new Error(`queued: ${(await texts()).join('|')}`);
        // In the sidebar's width the prompt keeps room to be read (the actions wrap below it if need be).
        const textWidth = (await view.locator('[data-testid="queue-text"]').first().boundingBox())?.width ?? 0;
        log(`queued prompt text is ${Math.round(textWidth)} px wide`);
        if (textWidth < 140) throw new Error(`the queued prompt's text is only ${Math.round(textWidth)} px wide`);
        if ((await view.locator('[data-testid="message-user"]').count()) !== 1)
          throw new Error('a queued prompt was sent while the turn ran');
        await view.locator('[data-testid="queue-item"]').nth(1).locator('[data-testid="queue-up"]').click();
        await view
          .locator('[data-testid="queue-item"]')
          .first()
          .filter({ hasText: 'beta' })
          .waitFor({ timeout: 5_000 });
        log(`screenshot: ${await screenshot('e2e-queue-reordered')}`);
        // The last turn is alpha's (older turns fold: read the order with every turn unfolded).
        await agentReply(view, 'alpha reply', { timeout: 20_000 });
        await agentIdle(view);
        await view.locator('[data-testid="expand-all"]').click();
        await view.locator('[data-testid="message-agent"]', { hasText: 'beta reply' }).waitFor({ timeout: 10_000 });
        const users = await view.locator('[data-testid="message-user"]').allInnerTexts();
        const order = users.map((u) => u.trim()).slice(-3);
        if (order.join('|') !== 'slow please|beta|alpha') throw new Error(`sent in this order: ${order.join('|')}`);
        if (await view.locator('[data-testid="queue"]').count()) throw new Error('the queue should be empty and gone');
      },
    },
    {
      name: 'after a cancel the queue is held and shows Send; Send sends it',
      timeoutMs: 60_000,
      async run({ view, screenshot, log }) {
        await sendPrompt(view, 'hold on');
        await view.locator('[data-testid="cancel"]').waitFor({ timeout: 15_000 });
        await sendPrompt(view, 'gamma');
        await view.locator('[data-testid="queue-item"]').first().waitFor({ timeout: 10_000 });
        await view.locator('[data-testid="cancel"]').click();
        await view.locator('[data-testid="queue"][data-held="true"]').waitFor({ timeout: 15_000 });
        await view.locator('[data-testid="send"]').waitFor({ timeout: 10_000 });
        log(`screenshot: ${await screenshot('e2e-queue-held')}`);
        if ((await view.locator('[data-testid="message-user"]', { hasText: 'gamma' }).count()) !== 0)
          throw new Error('the queue went on after a cancel');
        await view.locator('[data-testid="queue-resume"]').click();
        await view.locator('[data-testid="message-user"]', { hasText: 'gamma' }).waitFor({ timeout: 15_000 });
        await agentIdle(view);
        await view.locator('[data-testid="queue"]').waitFor({ state: 'detached', timeout: 5_000 });
      },
    },
    {
      name: 'a turn that ends while the view is hidden: a notification and a badge; Show Session opens the view',
      timeoutMs: 60_000,
      async run({ page, view, openTandemView, screenshot, log }) {
        await sendPrompt(view, 'away');
        await view.locator('[data-testid="cancel"]').waitFor({ timeout: 15_000 });
        await runCommand(page, 'View: Close Primary Side Bar');
        try {
          const badge = page.locator('.part.activitybar .action-item .badge .badge-content', { hasText: '1' });
          await badge.first().waitFor({ timeout: 20_000 });
          // In the notification center: the harness's smoke-test driver suppresses every toast.
          const item = await notification(page, 'finished', { timeout: 20_000 });
          log(`screenshot: ${await screenshot('e2e-queue-notification')}`);
          await item.locator('.monaco-button', { hasText: 'Show Session' }).click();
          await view.locator('[data-testid="message-agent"]', { hasText: 'away done' }).waitFor({ timeout: 15_000 });
        } finally {
          await openTandemView();
        }
        await agentIdle(view);
      },
    },
  ],
};
