// Issue 17, items 3 and 4, with a real agent: claude-code-acp 0.16.2 against the fake Anthropic
// model server, through Tandem's own UI in the real VS Code (lifecycle.e2e.mjs has the scripted
// versions, with a new session that takes seconds). New Session while a turn runs: what is typed
// meanwhile goes to the new session, never to the running one. Reload Window while a turn runs:
// the reopened session shows the prompt marked interrupted, and Resend sends it again.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentReply, notification, openTandemView, runCommand, sendPrompt } from '../harness/codeServer.mjs';
import { installAgents } from '../compat/installAgents.mjs';

const require = createRequire(import.meta.url);
/** How long the fake model holds a reply back: the turn is running for that long. */
const HOLD_MS = 8000;
let model;
let home;
const lanes = {
  fresh: { when: /typed while opening/, script: [{ text: 'NEW-SESSION-REPLY' }], requests: [] },
  reload: { when: /reload me/, script: [{ text: 'RELOAD-TURN-FINISHED', delayMs: HOLD_MS }], requests: [] },
};

const userPrompts = (view) => view.locator('[data-testid="message-user"]').allInnerTexts();

export default {
  async userSettings({ repo }) {
    await installAgents(['claude-code-acp-0.16.2']);
    const { fakeAnthropic } = require(join(repo, 'out/test/compat/fakeModels.js'));
    const { CLAUDE_CODE_ACP, claudeCodeEnv } = require(join(repo, 'out/test/compat/agentPaths.js'));
    // The main script answers "slow old" only after HOLD_MS; the lanes answer the other prompts.
    model = await fakeAnthropic([{ text: 'OLD-TURN-DONE', delayMs: HOLD_MS }], Object.values(lanes));
    home = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-e2e-claude-home-')));
    return {
      'tandem.agents': [
        {
          name: 'Claude Code',
          command: process.execPath,
          args: [CLAUDE_CODE_ACP],
          env: claudeCodeEnv(model, home),
        },
      ],
      'tandem.defaultAgent': 'Claude Code',
    };
  },
  async cleanup() {
    await model?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  },
  tests: [
    {
      name: 'claude-code-acp: New Session while a turn runs; what is typed meanwhile goes to the new session only',
      timeoutMs: 150_000,
      async run({ page, view, screenshot, log }) {
        await openTandemView(page);
        await view.locator('[data-testid="agent-name"]', { hasText: 'Claude Code' }).waitFor({ timeout: 60_000 });
        const before = model.requests.length;
        await sendPrompt(view, 'slow old', { timeout: 60_000 });
        // The old turn is at the model (held there): it is running.
        for (let t0 = Date.now(); model.requests.length === before;) {
          if (Date.now() - t0 > 60_000) throw new Error('claude-code-acp never asked the model about "slow old"');
          await new Promise((r) => setTimeout(r, 100));
        }
        await runCommand(page, 'Tandem: New Session');
        const input = view.locator('[data-testid="composer-input"]');
        await input.fill('typed while opening');
        await input.press('Enter');
        const opening = await view.locator('[data-testid="starting"]').count();
        log(`"Opening a new session…" shown when Enter was pressed: ${opening > 0}`);
        await view.locator('[data-testid="starting"]').waitFor({ state: 'detached', timeout: 30_000 });
        // Typed while it opened: kept in the composer and sent once the new session is there.
        if ((await input.inputValue()) === 'typed while opening')
          await view.locator('[data-testid="send"]:not([disabled])').click();
        await agentReply(view, 'NEW-SESSION-REPLY', { timeout: 60_000 });
        const fresh = await userPrompts(view);
        if (JSON.stringify(fresh) !== JSON.stringify(['typed while opening']))
          throw new Error(`the new session shows prompts ${JSON.stringify(fresh)}`);
        // The tab strip is a lazy chunk: wait for the second tab before counting.
        await view.locator('[data-testid="session-tab"]').nth(1).waitFor({ timeout: 10_000 });
        if ((await view.locator('[data-testid="session-tab"]').count()) !== 2) throw new Error('expected two tabs');
        log(`screenshot: ${await screenshot('e2e-claude-new-session')}`);
        // The old session's turn goes on in its tab; the notification leads back to it.
        const item = await notification(page, 'is still working in its own tab');
        await item.locator('.monaco-button', { hasText: 'Show It' }).click();
        await agentReply(view, 'OLD-TURN-DONE', { timeout: 30_000 });
        const old = await userPrompts(view);
        if (JSON.stringify(old) !== JSON.stringify(['slow old']))
          throw new Error(`the old session shows prompts ${JSON.stringify(old)}`);
        // The model saw each prompt in its own conversation.
        if (lanes.fresh.requests.length !== 1) throw new Error(`new-session requests: ${lanes.fresh.requests.length}`);
      },
    },
    {
      name: 'claude-code-acp: a turn running when the window reloads comes back marked interrupted, and Resend sends it',
      timeoutMs: 180_000,
      async run({ page, view, screenshot, log }) {
        // A session of its own: the fake model tells conversations apart by their first prompt.
        await runCommand(page, 'Tandem: New Session');
        await sendPrompt(view, 'reload me', { timeout: 60_000 });
        for (let t0 = Date.now(); !lanes.reload.requests.length;) {
          if (Date.now() - t0 > 60_000) throw new Error('claude-code-acp never asked the model about "reload me"');
          await new Promise((r) => setTimeout(r, 100));
        }
        await page.reload({ waitUntil: 'domcontentloaded' });
        await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
        await openTandemView(page);
        await view
          .locator('[data-testid="turn-error"]', {
            hasText: 'Interrupted: the window reloaded before the answer finished.',
          })
          .waitFor({ timeout: 90_000 });
        await view
          .locator('[data-testid="message-user"]', { hasText: 'reload me' })
          .first()
          .waitFor({ timeout: 5_000 });
        log(`after the reload: ${await view.locator('[data-testid="turn-error"]').last().innerText()}`);
        log(`screenshot: ${await screenshot('e2e-claude-reload-interrupted')}`);
        const item = await notification(page, 'the window reloaded before the answer to "reload me" finished');
        await item.locator('.monaco-button', { hasText: 'Resend' }).click();
        await agentReply(view, 'RELOAD-TURN-FINISHED', { timeout: 60_000 });
        log(`model requests for "reload me": ${lanes.reload.requests.length}`);
        log(`screenshot: ${await screenshot('e2e-claude-reload-resent')}`);
      },
    },
  ],
};
