// Elicitation in the real VS Code (issue 7): the scripted agent
// (test/fixtures/scripts/e2e-elicitation.json) sends elicitation/create. A form generated from
// its schema is filled in the view — an invalid attempt shows the validator's messages inline and
// sends nothing — and the agent's reply echoes the validated content it received. A second form
// is declined. URL requests: VS Code's modal names the host; one is opened (then closed by
// elicitation/complete), one declined.
import { agentIdle, agentReply, sendPrompt, scriptedAgentSettings } from '../harness/codeServer.mjs';

const SCRIPT = 'test/fixtures/scripts/e2e-elicitation.json';
const AGENT_TITLE = 'Elicitation Agent';

const reply = (view, text, timeout = 20_000) => agentReply(view, text, { timeout });
const idle = (view) => agentIdle(view);

/** VS Code's modal dialog (in the workbench page, not the webview). */
const dialog = (page) => page.locator('.monaco-dialog-box');

export default {
  userSettings: scriptedAgentSettings(SCRIPT),
  tests: [
    {
      name: 'the scripted agent starts',
      timeoutMs: 60_000,
      async run({ openTandemView, view, log }) {
        await openTandemView();
        await view.locator('[data-testid="composer-input"]:not([disabled])').waitFor({ timeout: 30_000 });
        // The agent sometimes starts before the user settings reach the extension host: restart.
        for (let i = 0; i < 3 && (await view.locator('[data-testid="agent-name"]').innerText()) !== AGENT_TITLE; i++) {
          log(`agent is ${JSON.stringify(await view.locator('[data-testid="agent-name"]').innerText())}: restarting`);
          await view.locator('button[aria-label="Restart agent"]').first().click();
          await view
            .locator('[data-testid="agent-name"]', { hasText: AGENT_TITLE })
            .waitFor({ timeout: 10_000 })
            .catch(() => {});
        }
        await view.locator('[data-testid="agent-name"]', { hasText: AGENT_TITLE }).waitFor({ timeout: 10_000 });
        await idle(view);
      },
    },
    {
      name: 'a form from the schema: an invalid attempt shows inline messages, the valid answer reaches the agent',
      timeoutMs: 90_000,
      async run({ view, screenshot, log }) {
        await sendPrompt(view, 'send the report form');
        const form = view.locator('[data-testid="elicitation-form"]');
        await form.waitFor({ timeout: 20_000 });
        const field = (name) => form.locator(`[data-testid="elicitation-field"][data-field="${name}"]`);
        // Generated from the schema: titles, description, defaults, one control per kind.
        await form
          .locator('[data-testid="elicitation-message"]', { hasText: 'Who should the report be sent to?' })
          .waitFor();
        if (!(await field('name').locator('text=Full name, at least 2 characters').isVisible()))
          throw new Error('the description is not shown');
        if ((await field('copies').locator('input[type="number"]').inputValue()) !== '1')
          throw new Error('the integer default is not filled in');
        if ((await field('format').locator('select').inputValue()) !== 'pdf')
          throw new Error('the select default is not chosen');
        if ((await field('sections').locator('input[type="checkbox"]').count()) !== 3)
          throw new Error('one checkbox per multi-select choice');
        if (await field('urgent').locator('input[type="checkbox"]').isChecked())
          throw new Error('a boolean without default starts unchecked');
        const focused = await form.evaluate((el) =>
          el.contains(document.activeElement) ? document.activeElement.id : null,
        );
        log(`focused on appearance: ${focused}`);
        log(`screenshot: ${await screenshot('e2e-elicitation-form')}`);

        // Invalid: too short a name, a malformed email, no section chosen, copies out of range.
        await field('name').locator('input').fill('A');
        await field('email').locator('input').fill('ada-at-example');
        await field('copies').locator('input').fill('9');
        await form.locator('[data-testid="elicitation-submit"]').click();
        const errors = form.locator('[data-testid="elicitation-error"]');
        await errors.first().waitFor({ timeout: 5_000 });
        const texts = await errors.allInnerTexts();
        log(`inline messages: ${JSON.stringify(texts)}`);
        for (const want of [
          '"Name" must be at least 2 characters.',
          '"Email" must be an email address.',
          '"Copies" must be at most 5.',
          '"Sections" needs at least 1 choice.',
        ]) {
          if (!texts.some((t) => t.includes(want)))
            throw new Error(`missing inline message ${want}: ${JSON.stringify(texts)}`);
        }
        if ((await field('name').locator('input').getAttribute('aria-invalid')) !== 'true')
          throw new Error('the invalid field is not marked aria-invalid');
        log(`screenshot: ${await screenshot('e2e-elicitation-invalid')}`);
        // Nothing was sent: the agent is still waiting and the form is still there.
        await new Promise((r) => setTimeout(r, 300));
        if (await view.locator('[data-testid="message-agent"]', { hasText: 'Got it' }).count())
          throw new Error('an invalid form reached the agent');

        // Fix it: messages go away as the fields become valid.
        await field('name').locator('input').fill('Ada Lovelace');
        await field('email').locator('input').fill('ada@example.com');
        await field('copies').locator('input').fill('2');
        await field('format').locator('select').selectOption('html');
        await field('sections').locator('input[value="summary"]').check();
        await field('sections').locator('input[value="appendix"]').check();
        await field('urgent').locator('input[type="checkbox"]').check();
        await errors.first().waitFor({ state: 'detached', timeout: 5_000 });
        log(`screenshot: ${await screenshot('e2e-elicitation-filled')}`);
        await form.locator('[data-testid="elicitation-submit"]').click();
        const echoed =
          '{"name":"Ada Lovelace","email":"ada@example.com","copies":2,"format":"html","sections":["summary","appendix"],"urgent":true}';
        await reply(view, `Got it: ${echoed}`);
        await form.waitFor({ state: 'detached', timeout: 5_000 });
        log(`agent received: ${echoed}`);
        log(`screenshot: ${await screenshot('e2e-elicitation-answered')}`);
        await idle(view);
      },
    },
    {
      name: 'a form can be declined',
      timeoutMs: 45_000,
      async run({ view }) {
        await sendPrompt(view, 'decline this one');
        const form = view.locator('[data-testid="elicitation-form"]');
        await form.waitFor({ timeout: 20_000 });
        await form.locator('[data-testid="elicitation-decline"]').click();
        await reply(view, 'Calendar answer: decline');
        await form.waitFor({ state: 'detached', timeout: 5_000 });
        await idle(view);
      },
    },
    {
      name: 'a URL request: the modal names the host; Open → accept, a card until elicitation/complete',
      timeoutMs: 60_000,
      async run({ page, view, screenshot, log }) {
        const popups = [];
        page.context().on('page', (p) => popups.push(p));
        await sendPrompt(view, 'url yes');
        const d = dialog(page);
        await d.waitFor({ timeout: 20_000 });
        const text = await d.innerText();
        log(`dialog: ${JSON.stringify(text)}`);
        if (!text.includes('example.com')) throw new Error(`the dialog does not name the host: ${text}`);
        if (!text.includes('Sign in to Example to continue.'))
          throw new Error("the dialog does not show the agent's message");
        log(`screenshot: ${await screenshot('e2e-elicitation-url-dialog')}`);
        await d.locator('.monaco-button', { hasText: /^Open$/ }).click();
        // VS Code's own link protection may ask again for a domain the user has not trusted.
        const guard = page.locator('.monaco-dialog-box', { hasText: 'open the external website' });
        if (
          await guard.waitFor({ timeout: 5_000 }).then(
            () => true,
            () => false,
          )
        ) {
          log(`screenshot: ${await screenshot('e2e-elicitation-url-link-protection')}`);
          await guard.locator('.monaco-button', { hasText: /^Open$/ }).click();
        }
        await page.locator('.monaco-dialog-box').waitFor({ state: 'detached', timeout: 5_000 });
        await reply(view, 'URL answer: accept.');
        const card = view.locator('[data-testid="elicitation-url"]');
        await card.waitFor({ timeout: 5_000 });
        if ((await card.locator('[data-testid="elicitation-host"]').innerText()) !== 'example.com')
          throw new Error('the card does not name the host');
        log(`screenshot: ${await screenshot('e2e-elicitation-url-card')}`);
        // elicitation/complete closes it.
        await card.waitFor({ state: 'detached', timeout: 15_000 });
        await reply(view, 'Sign-in complete.');
        log(`pages opened by the browser: ${popups.map((p) => p.url()).join(', ') || 'none'}`);
        await Promise.all(popups.map((p) => p.close().catch(() => {})));
        await idle(view);
      },
    },
    {
      name: 'a URL request declined in the modal opens nothing',
      timeoutMs: 45_000,
      async run({ page, view, log }) {
        const popups = [];
        page.context().on('page', (p) => popups.push(p));
        await sendPrompt(view, 'url no');
        const d = dialog(page);
        await d.waitFor({ timeout: 20_000 });
        const text = await d.innerText();
        if (!text.includes('github.com')) throw new Error(`the dialog does not name the host: ${text}`);
        await d.locator('.monaco-button', { hasText: /^Decline$/ }).click();
        await reply(view, 'URL answer: decline.');
        if (await view.locator('[data-testid="elicitation-url"]').count())
          throw new Error('a declined URL shows a card');
        if (popups.length) throw new Error(`a declined URL was opened: ${popups.map((p) => p.url())}`);
        log('declined: nothing opened');
        await idle(view);
      },
    },
  ],
};
