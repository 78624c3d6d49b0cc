// The built-in Demo agent in the real VS Code, as a newcomer meets it in `npm start`: one turn
// shows streamed markdown, a plan, a real file read, a permission prompt before an edit (with
// its diff), a real command in a live terminal, and a client-tool call (IDE · OpenFile) — no
// API key. Saves the screenshot the README shows.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export default {
  // The Demo agent is the default: no agent settings at all.
  userSettings: () => ({}),
  tests: [
    {
      name: 'the demo agent runs a full turn: plan, read, permission + edit, live command, client tool',
      timeoutMs: 120_000,
      async run({ openTandemView, view, page, screenshot, log, workspace }) {
        await openTandemView();
        // A newcomer's first look: the agent in use, how to switch, example prompts a click sends.
        const empty = view.locator('[data-testid="empty-session"]');
        await empty.waitFor({ timeout: 45_000 });
        const agentName = await empty.locator('[data-testid="empty-session-agent"]').innerText();
        if (!/demo/i.test(agentName)) throw new Error(`the empty session names ${JSON.stringify(agentName)}`);
        await empty.locator('[data-testid="switch-agent"]').waitFor();
        log(`screenshot: ${await screenshot('first-minute')}`);
        await empty.locator('[data-testid="example-prompt"]', { hasText: 'Show me what you can do' }).click();
        // The demo asks before editing: allow it once.
        const allow = view.locator(
          '[data-testid="permission-prompt"] [data-testid="permission-option"][data-kind="allow_once"]',
        );
        await allow.first().waitFor({ timeout: 60_000 });
        await screenshot('demo-permission');
        await allow.first().click();
        await view.locator('[data-testid="cancel"]').waitFor({ state: 'detached', timeout: 60_000 });
        const kinds = await view
          .locator('[data-testid="tool-call"]')
          .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-kind')}:${e.getAttribute('data-status')}`));
        log(`tool calls: ${kinds.join(' ')}`);
        for (const k of ['read:completed', 'edit:completed', 'execute:completed']) {
          if (!kinds.includes(k)) throw new Error(`missing ${k} in ${kinds.join(' ')}`);
        }
        // The command really ran: its live output is in the terminal under the execute call.
        await view.locator('[data-testid="tool-call"][data-kind="execute"]').first().click();
        const term = await view.locator('[data-testid="terminal"]').first().innerText({ timeout: 10_000 });
        if (!/Hello from a real process/.test(term) || !/Done\./.test(term))
          throw new Error(`terminal output: ${JSON.stringify(term)}`);
        const titles = await view.locator('[data-testid="tool-call"]').allInnerTexts();
        if (!titles.some((t) => /OpenFile/.test(t)))
          throw new Error(`no client-tool call in ${JSON.stringify(titles)}`);
        const file = join(workspace, 'tandem-demo.md');
        if (!existsSync(file) || !readFileSync(file, 'utf8').includes('Tandem demo was here'))
          throw new Error('the allowed edit did not reach tandem-demo.md');
        // The OpenFile client tool opened the demo file in an editor tab.
        await page.locator('.tab', { hasText: 'tandem-demo.md' }).first().waitFor({ timeout: 10_000 });
        log(`screenshot: ${await screenshot('demo-turn')}`);
      },
    },
  ],
};
