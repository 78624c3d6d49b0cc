// Folded turns arrive as outlines (issue 3, long sessions): after the view is rebuilt from a
// snapshot, an older turn shows its prompt and counts only; unfolding it loads its messages and
// tool calls from the host, in the real VS Code.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTandemView, runCommand, sendPrompt, scriptedAgentSettings } from '../harness/codeServer.mjs';

const dir = mkdtempSync(join(tmpdir(), 'tandem-e2e-outline-'));
const SCRIPT = join(dir, 'outline-agent.json');
const call = (id, title, kind, status) => ({
  update: { sessionUpdate: 'tool_call', toolCallId: id, title, kind, status },
});
writeFileSync(
  SCRIPT,
  JSON.stringify({
    name: 'outline',
    prompts: [
      {
        match: 'first',
        steps: [
          { stream: 'FIRST-TURN-REPLY reading three files.', chunk: 12, delayMs: 5 },
          call('a1', 'Read alpha.ts', 'read', 'completed'),
          call('a2', 'Read beta.ts', 'read', 'completed'),
          call('a3', 'Run failing check', 'execute', 'failed'),
        ],
      },
      { match: 'second', steps: [{ stream: 'SECOND-TURN-REPLY' }, call('b1', 'Read gamma.ts', 'read', 'completed')] },
    ],
  }),
);

export default {
  userSettings: scriptedAgentSettings(SCRIPT, { name: 'Outline' }),
  tests: [
    {
      name: 'an older turn comes as an outline after a rebuild and loads its content when unfolded',
      timeoutMs: 90_000,
      async run({ page, view, screenshot, log }) {
        await openTandemView(page);
        await sendPrompt(view, 'first');
        await view.locator('[data-testid="tool-call"][data-id="a3"]').waitFor({ timeout: 20_000 });
        await view.locator('[data-testid="agent-state"]', { hasText: 'idle' }).waitFor({ timeout: 20_000 });
        await sendPrompt(view, 'second');
        await view.locator('[data-testid="tool-call"][data-id="b1"]').waitFor({ timeout: 20_000 });
        await view.locator('[data-testid="agent-state"]', { hasText: 'idle' }).waitFor({ timeout: 20_000 });

        // A new webview document: the host sends a snapshot with turn 1 as an outline.
        await runCommand(page, 'Developer: Reload Webviews');
        const first = view.locator('[data-testid="turn"][data-turn="0"]');
        await first.waitFor({ timeout: 20_000 });
        await view.locator('[data-testid="tool-call"][data-id="b1"]').waitFor({ timeout: 20_000 });
        const head = await first.innerText();
        if (!/first/.test(head) || !/3 tool calls/.test(head) || !/1 failed/.test(head))
          throw new Error(`outline header: ${JSON.stringify(head)}`);
        if ((await first.getAttribute('data-collapsed')) !== 'true') throw new Error('the older turn should be folded');
        if (await view.locator('[data-testid="tool-call"][data-id="a1"]').count())
          throw new Error("a folded turn's calls should not be in the DOM");

        await first.locator('.turn-line').click();
        for (const id of ['a1', 'a2', 'a3'])
          await view.locator(`[data-testid="tool-call"][data-id="${id}"]`).waitFor({ timeout: 10_000 });
        await view
          .locator('[data-testid="message-agent"]', { hasText: 'FIRST-TURN-REPLY' })
          .waitFor({ timeout: 10_000 });
        if (await view.locator('[data-testid="turn-loading"]').count())
          throw new Error('Loading… stays after the content came');
        const status = await view.locator('[data-testid="tool-call"][data-id="a3"]').getAttribute('data-status');
        if (status !== 'failed') throw new Error(`a3 status ${status}`);
        // Nothing doubled: one row per call, the second turn untouched.
        for (const id of ['a1', 'b1']) {
          const n = await view.locator(`[data-testid="tool-call"][data-id="${id}"]`).count();
          if (n !== 1) throw new Error(`${id}: ${n} rows`);
        }
        log(`screenshot: ${await screenshot('e2e-outline-unfolded')}`);
      },
    },
  ],
};
