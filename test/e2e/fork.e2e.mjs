// Forking a session in the real VS Code: an agent that advertises session/fork gets "Fork from
// here" under its last prompt only, and Tandem: Fork Session in the palette; a click opens the
// fork as a new, active tab showing the earlier turns. An agent without session/fork gets neither.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentIdle, agentReply, openTandemView, runCommand, sendPrompt } from '../harness/codeServer.mjs';

const dir = mkdtempSync(join(tmpdir(), 'tandem-e2e-fork-'));
const prompts = [
  { match: 'first', steps: [{ stream: 'FIRST-REPLY' }] },
  { match: 'second', steps: [{ stream: 'SECOND-REPLY' }] },
];
const FORKER = join(dir, 'forker.json');
writeFileSync(
  FORKER,
  JSON.stringify({
    name: 'forker',
    // What claude-agent-acp 0.101.0 advertises; its answer has session/new's shape.
    initialize: { agentCapabilities: { loadSession: true, sessionCapabilities: { fork: {} } } },
    prompts,
    handlers: { 'session/fork': { steps: [{ sleep: 500 }], result: { sessionId: 'forked-${params.sessionId}' } } },
  }),
);
const PLAIN = join(dir, 'plain.json');
writeFileSync(
  PLAIN,
  JSON.stringify({ name: 'plain', initialize: { agentCapabilities: { loadSession: true } }, prompts }),
);

const agent = (name, script, repo, node) => ({
  name,
  command: node,
  args: [join(repo, 'out/test/fixtures/agents/scripted-agent.js'), script],
});

/** Whether the command palette lists `label` (typed in full), without running it. */
async function paletteOffers(page, label) {
  await page
    .locator('.monaco-workbench')
    .click({ position: { x: 5, y: 5 }, force: true })
    .catch(() => {});
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`>${label}`);
  // A row's aria-label is the command's label, plus ", <keybinding>" when it has one (as in runCommand).
  const row = page.locator(
    `.quick-input-list .monaco-list-row[aria-label="${label}"], .quick-input-list .monaco-list-row[aria-label^="${label},"]`,
  );
  // The palette filters as it is typed: give it a moment to list (or not) the command.
  const offered = await row
    .first()
    .waitFor({ timeout: 3_000 })
    .then(() => true)
    .catch(() => false);
  await page.keyboard.press('Escape');
  return offered;
}

export default {
  userSettings: ({ repo, node }) => ({
    'tandem.agents': [agent('Forker', FORKER, repo, node), agent('Plain', PLAIN, repo, node)],
    'tandem.defaultAgent': 'Forker',
  }),
  tests: [
    {
      name: 'an agent with session/fork: "Fork from here" on the last turn only; a click opens the fork as the active tab',
      timeoutMs: 90_000,
      async run({ page, view, screenshot, log }) {
        await openTandemView(page);
        await sendPrompt(view, 'first');
        await agentReply(view, 'FIRST-REPLY');
        await agentIdle(view);
        await sendPrompt(view, 'second');
        await agentReply(view, 'SECOND-REPLY');
        await agentIdle(view);
        const link = view.locator('[data-testid="fork-here"]');
        await link.first().waitFor({ timeout: 10_000 });
        const where = await view
          .locator('[data-testid="turn"]', { has: view.locator('[data-testid="fork-here"]') })
          .evaluateAll((turns) => turns.map((t) => t.getAttribute('data-turn')));
        if (where.join() !== '1') throw new Error(`fork links under turns [${where}], expected only the last (1)`);
        if (!(await paletteOffers(page, 'Tandem: Fork Session')))
          throw new Error('the palette does not offer Tandem: Fork Session');
        log(`screenshot: ${await screenshot('e2e-fork-link')}`);

        await link.click();
        const tabs = view.locator('[data-testid="session-tab"]');
        await tabs.nth(1).waitFor({ timeout: 15_000 });
        const active = await view.locator('[data-testid="session-tab"][aria-selected="true"]').allInnerTexts();
        const labels = await tabs.allInnerTexts();
        if (labels.length !== 2 || active.length !== 1 || active[0] !== labels[1])
          throw new Error(
            `tabs ${JSON.stringify(labels)}, active ${JSON.stringify(active)}: the fork is not the active second tab`,
          );
        // The fork shows the earlier turns (Tandem's copy): both prompts, the last one unfolded.
        await view.locator('[data-testid="turn"]').nth(1).waitFor({ timeout: 10_000 });
        const prompts = await view.locator('[data-testid="turn"]').count();
        if (prompts !== 2) throw new Error(`the fork shows ${prompts} turns, expected 2`);
        await agentReply(view, 'SECOND-REPLY');
        await agentIdle(view);
        log(`screenshot: ${await screenshot('e2e-fork-opened')}`);
      },
    },
    {
      name: 'an agent without session/fork: no "Fork from here", and the palette does not offer Fork Session',
      timeoutMs: 90_000,
      async run({ page, view, screenshot, log }) {
        await runCommand(page, 'Tandem: Select Agent');
        const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Plain' }).first();
        await row.waitFor({ timeout: 10_000 });
        await row.click();
        await view.locator('[data-testid="agent-name"]', { hasText: 'Plain' }).waitFor({ timeout: 30_000 });
        await agentIdle(view, { timeout: 30_000 }); // started: a prompt sent before would go nowhere
        await sendPrompt(view, 'first');
        await agentReply(view, 'FIRST-REPLY');
        await agentIdle(view);
        // The turn's actions are in: Restore to here shows, Fork from here does not.
        await view.locator('[data-testid="restore-here"]').first().waitFor({ timeout: 10_000 });
        const links = await view.locator('[data-testid="fork-here"]').count();
        if (links !== 0) throw new Error(`${links} fork links for an agent without session/fork`);
        // The same look-up finds a command that applies (so a miss below is the when clause).
        if (!(await paletteOffers(page, 'Tandem: New Session'))) throw new Error('the palette lists nothing');
        if (await paletteOffers(page, 'Tandem: Fork Session'))
          throw new Error('the palette offers Tandem: Fork Session for an agent without session/fork');
        log(`screenshot: ${await screenshot('e2e-fork-hidden')}`);
      },
    },
  ],
};
