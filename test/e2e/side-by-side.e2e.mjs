// Two agents side by side in the real VS Code: a turn of one goes on while the user starts the
// other and talks to it; both sessions are tabs named by their agent and rows of the Sessions
// overview; a tab shows its agent's session again, where the background turn has finished.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentReply, openTandemView, selectAgent, sendPrompt } from '../harness/codeServer.mjs';

const dir = mkdtempSync(join(tmpdir(), 'tandem-e2e-side-'));
function script(name, prompts) {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ name, prompts }));
  return file;
}
const ALPHA = script('alpha', [
  { match: 'long job', steps: [{ stream: 'ALPHA-RUNNING' }, { sleep: 8000 }, { stream: ' ALPHA-DONE' }] },
]);
const BETA = script('beta', [{ match: '', steps: [{ stream: 'BETA-ANSWERS' }] }]);

export default {
  userSettings: ({ repo, node }) => ({
    'tandem.agents': [
      { name: 'Alpha', command: node, args: [join(repo, 'out/test/fixtures/agents/scripted-agent.js'), ALPHA] },
      { name: 'Beta', command: node, args: [join(repo, 'out/test/fixtures/agents/scripted-agent.js'), BETA] },
    ],
    'tandem.defaultAgent': 'Alpha',
  }),
  tests: [
    {
      name: "starting a second agent leaves the first one's turn running; tabs name their agents",
      timeoutMs: 120_000,
      async run({ page, view, screenshot, log }) {
        await openTandemView(page);
        await sendPrompt(view, 'long job');
        await agentReply(view, 'ALPHA-RUNNING');
        await selectAgent(page, view, 'Beta', { timeout: 30_000 });
        await sendPrompt(view, 'hello beta');
        await agentReply(view, 'BETA-ANSWERS');
        const tabs = view.locator('[data-testid="session-tab"]');
        // The tab strip is a lazy chunk: wait for the second tab before reading them.
        await tabs.nth(1).waitFor({ timeout: 10_000 });
        const labels = await tabs.allInnerTexts();
        if (!labels.some((l) => l.includes('Alpha ·')) || !labels.some((l) => l.includes('Beta ·')))
          throw new Error(`tabs do not name their agents: ${JSON.stringify(labels)}`);
        const alphaTab = tabs.filter({ hasText: 'Alpha ·' });
        // Alpha's turn still runs in the background: its tab shows it working.
        await alphaTab.locator('[aria-label="working"]').waitFor({ timeout: 5_000 });
        log(`screenshot: ${await screenshot('e2e-side-by-side-two-agents')}`);
        // The Sessions overview (collapsed at first, under the session view) lists both sessions.
        const header = page.locator('.pane-header[aria-label^="Sessions"]').first();
        if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
        const pane = page.locator('.pane', { has: header });
        await pane.locator('.monaco-list-row', { hasText: 'Running (1)' }).waitFor({ timeout: 10_000 });
        await pane.locator('.monaco-list-row', { hasText: 'Alpha · 1 turn' }).waitFor({ timeout: 10_000 });
        await pane.locator('.monaco-list-row', { hasText: 'Beta · 1 turn' }).waitFor({ timeout: 10_000 });
        log(`screenshot: ${await screenshot('e2e-side-by-side-overview')}`);
        await alphaTab.click();
        await view.locator('[data-testid="agent-name"]', { hasText: 'Alpha' }).waitFor({ timeout: 10_000 });
        await agentReply(view, 'ALPHA-DONE', { timeout: 20_000 });
        log(`screenshot: ${await screenshot('e2e-side-by-side-back-to-alpha')}`);
      },
    },
  ],
};
