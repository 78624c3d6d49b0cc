// First UI end-to-end test: a prompt typed into the real Tandem sidebar reaches the scripted
// agent (test/fixtures/agents/scripted-agent.ts playing test/fixtures/scripts/e2e-first-reply.json)
// and its streamed reply shows up in the conversation.
import { scriptedAgentSettings } from '../harness/codeServer.mjs';

const SCRIPT = 'test/fixtures/scripts/e2e-first-reply.json';

export default {
  userSettings: scriptedAgentSettings(SCRIPT),
  tests: [
    {
      name: 'the Tandem view opens and shows the composer',
      timeoutMs: 45_000,
      async run({ openTandemView, view }) {
        await openTandemView();
        await view.locator('[data-testid="composer-input"]').waitFor({ state: 'visible', timeout: 30_000 });
      },
    },
    {
      name: "a prompt gets the scripted agent's reply",
      timeoutMs: 45_000,
      async run({ view, screenshot, log }) {
        const input = view.locator('[data-testid="composer-input"]');
        // The agent may still be starting: wait until the composer accepts input.
        await input.waitFor({ state: 'visible' });
        await view.locator('[data-testid="composer-input"]:not([disabled])').waitFor({ timeout: 30_000 });
        await input.click();
        await input.fill('hello from the e2e test');
        await input.press('Enter');
        await view
          .locator('[data-testid="message-user"]', { hasText: 'hello from the e2e test' })
          .waitFor({ timeout: 15_000 });
        const reply = view.locator('[data-testid="message-agent"]', {
          hasText: 'Hello from the scripted agent! You asked: hello from the e2e test',
        });
        await reply.waitFor({ timeout: 20_000 });
        log(`reply: ${JSON.stringify(await reply.innerText())}`);
        log(`screenshot: ${await screenshot('e2e-first-reply')}`);
      },
    },
  ],
};
