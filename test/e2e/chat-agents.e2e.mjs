// opencode 1.18.33 and Qwen Code 0.24.4 from npm, each against a fake Chat Completions server
// (test/compat/fakeChat.ts), through Tandem's sidebar in the real VS Code: what the rows show.
// opencode's command `echo tandem-$((6*7)); echo second-line; echo '# not-a-heading …'` shows its
// output as the lines it printed (no Markdown heading, no italics), also after a window reload
// reopened the session; Qwen Code's edit row is titled with the file it edits, which Qwen names
// only in its permission request (test/integration/compatChatAgents.test.ts checks the rest).
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installPaths } from '../harness/install.mjs';
import { agentIdle, agentReply, openTandemView, selectAgent, sendPrompt } from '../harness/codeServer.mjs';
import { installAgents } from '../compat/installAgents.mjs';

const require = createRequire(import.meta.url);
const COMMAND = "echo tandem-$((6*7)); echo second-line; echo '# not-a-heading *not-italic*'";
const LINES = ['tandem-42', 'second-line', '# not-a-heading *not-italic*'];
const servers = [];
const homes = [];

const commandRow = (view) => view.locator('[data-testid="tool-call"][data-kind="execute"]').first();

/** The output (the row expanded) shows every line as printed, and nothing of it became Markdown. */
async function assertLiteral(row, log) {
  if ((await row.getAttribute('aria-expanded')) !== 'true') await row.locator('.tool-head').click();
  await row.locator('.tool-details', { hasText: 'tandem-42' }).waitFor({ timeout: 15_000 });
  const markdown = await row.locator('.tool-details').locator('h1, h2, em, strong').count();
  if (markdown) throw new Error(`the output was rendered as Markdown (${markdown} heading or emphasis elements)`);
  const text = await row.locator('[data-testid="plain-text"]', { hasText: 'tandem-42' }).first().innerText();
  log(`command output: ${JSON.stringify(text)}`);
  const lines = text.split('\n').map((l) => l.trimEnd());
  for (const l of LINES) if (!lines.includes(l)) throw new Error(`line ${JSON.stringify(l)} missing: ${text}`);
}

async function allowOnce(view) {
  const card = view.locator('[data-testid="permission-prompt"]').first();
  await card.waitFor({ timeout: 90_000 });
  await card.locator('[data-testid="permission-option"][data-kind="allow_once"]').click();
}

export default {
  async userSettings({ repo, workspace }) {
    await installAgents(['opencode-1.18.33', 'qwen-code-0.24.4']);
    const { fakeChat } = require(join(repo, 'out/test/compat/fakeChat.js'));
    const agents = require(join(repo, 'out/test/compat/chatAgents.js'));
    const file = join(workspace, 'edit-me.txt');
    writeFileSync(file, 'hello world\nsecond line\n');
    const opencode = await fakeChat([
      { tool: 'bash', input: { command: COMMAND, description: 'Print three lines' } },
      { text: 'COMMAND-DONE' },
    ]);
    const qwen = await fakeChat([
      { tool: 'read_file', input: { file_path: file } },
      { tool: 'edit', input: { file_path: file, old_string: 'hello world', new_string: 'hello Qwen' } },
      { text: 'EDIT-DONE' },
    ]);
    servers.push(opencode, qwen);
    const home = () => {
      const h = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-e2e-chat-home-')));
      homes.push(h);
      return h;
    };
    return {
      'tandem.agents': [
        { name: 'opencode', ...agents.opencodeLaunch(opencode, home()) },
        // Qwen Code needs Node ≥ 22: the Node 24 the harness installed.
        { name: 'Qwen Code', ...agents.qwenLaunch(qwen, home(), installPaths().node24) },
      ],
      'tandem.defaultAgent': 'opencode',
    };
  },
  async cleanup() {
    for (const s of servers) await s.close();
    for (const h of homes) rmSync(h, { recursive: true, force: true });
  },
  tests: [
    {
      name: "opencode: a command's output shows its lines as printed, not as Markdown, also after a window reload",
      timeoutMs: 240_000,
      async run({ page, view, screenshot, log }) {
        await openTandemView(page);
        await view.locator('[data-testid="agent-name"]', { hasText: 'opencode' }).waitFor({ timeout: 90_000 });
        await sendPrompt(view, 'Run the command', { timeout: 90_000 });
        await allowOnce(view);
        await agentReply(view, 'COMMAND-DONE', { timeout: 90_000 });
        await agentIdle(view, { timeout: 30_000 });
        await assertLiteral(commandRow(view), log);
        log(`screenshot: ${await screenshot('e2e-opencode-command-output')}`);
        // A window reload reopens the session (session/load): the replayed row reads the same.
        await page.reload({ waitUntil: 'domcontentloaded' });
        await openTandemView(page, { timeout: 60_000 });
        await agentReply(view, 'COMMAND-DONE', { timeout: 120_000 });
        await assertLiteral(commandRow(view), log);
        log(`screenshot: ${await screenshot('e2e-opencode-command-output-reloaded')}`);
      },
    },
    {
      name: 'Qwen Code: its edit row is titled with the file it edits',
      timeoutMs: 240_000,
      async run({ page, view, screenshot, log }) {
        await openTandemView(page);
        await selectAgent(page, view, 'Qwen Code');
        await sendPrompt(view, 'Edit edit-me.txt', { timeout: 90_000 });
        await allowOnce(view);
        await agentReply(view, 'EDIT-DONE', { timeout: 90_000 });
        await agentIdle(view, { timeout: 30_000 });
        const titles = await view.locator('[data-testid="tool-call"] [data-testid="tool-title"]').allInnerTexts();
        log(`row titles: ${JSON.stringify(titles)}`);
        const edit = await view
          .locator('[data-testid="tool-call"][data-kind="edit"] [data-testid="tool-title"]')
          .innerText();
        const empty = await view
          .locator('[data-testid="message-agent"]')
          .evaluateAll((els) => els.filter((e) => !e.textContent?.trim()).length);
        log(`empty agent messages: ${empty}`);
        log(`screenshot: ${await screenshot('e2e-qwen-edit-row')}`);
        if (!edit.includes('edit-me.txt')) throw new Error(`the edit row is titled ${JSON.stringify(edit)}`);
        if (empty) throw new Error(`${empty} empty agent message(s) shown`);
      },
    },
  ],
};
