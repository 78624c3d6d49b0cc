// Checkpoints with real agents in the real VS Code, across a window reload: claude-agent-acp
// 0.100.0 writes the disk itself (Edit, Write) and runs a command that edits a file (`sed -i`),
// over two prompts; claude-code-acp 0.16.2 writes through Tandem (fs/write_text_file). Each time
// the window is reloaded, then "Restore to here" on the first prompt puts every file back byte
// for byte (a CRLF file among them), and Undo Restore brings the agent's versions back. Both
// agents talk to one fake Anthropic server, one conversation per prompt text (lanes).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installPaths } from '../harness/install.mjs';
import { agentIdle, notification, openTandemView, runCommand, sendPrompt } from '../harness/codeServer.mjs';
import { installAgents } from '../compat/installAgents.mjs';
// The tests' one polling wait, test/support/until.ts, as the build transpiles it (out/ exists
// whenever e2e runs: the scripted agent runs from there too).
import { until } from '../../out/test/support/until.js';

const require = createRequire(import.meta.url);
const ORIGINAL = { a: 'alpha\r\nbeta\r\ngamma\r\n', b: 'b0\n', d: 'delta one\ndelta two\n' };
let model;
let home;
let dir;
const file = (name) => join(dir, name);
const lanes = {};

/** Answers every permission prompt with "Allow" (once) until `text` is in the agent's reply. */
async function allowUntilReply(view, text, timeout = 120_000) {
  const allow = view.locator(
    '[data-testid="permission-prompt"] [data-testid="permission-option"][data-kind="allow_once"]',
  );
  const reply = view.locator('[data-testid="message-agent"]', { hasText: text });
  for (const t0 = Date.now(); !(await reply.count());) {
    if (Date.now() - t0 > timeout) throw new Error(`no reply "${text}" after ${timeout} ms`);
    if (await allow.count())
      await allow
        .first()
        .click({ timeout: 2_000 })
        .catch(() => {});
    else await new Promise((r) => setTimeout(r, 200));
  }
}

async function reloadWindow(page, view, agent) {
  await page.reload({ waitUntil: 'domcontentloaded' });
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await openTandemView(page);
  await view.locator('[data-testid="agent-name"]', { hasText: agent }).waitFor({ timeout: 60_000 });
  // The session is reopened with its turns (session/load).
  await view.locator('[data-testid="turn"][data-turn="0"]').waitFor({ timeout: 60_000 });
}

/** "Restore to here" on the first prompt, then the QuickPick's safe choice (it lists the files first). */
async function restoreFirstPrompt(page, view, log) {
  const first = view.locator('[data-testid="turn"][data-turn="0"]');
  if ((await first.getAttribute('data-collapsed')) === 'true') await first.locator('.turn-line').click();
  await first.locator('[data-testid="restore-here"]').click({ timeout: 20_000 });
  await pickRestore(page, log);
}

/** The restore QuickPick's safe choice ("Restore N files to …"), not a palette row still on screen. */
async function pickRestore(page, log) {
  const safe = page.locator('.quick-input-list .monaco-list-row', { hasText: /Restore \d+ files? to/ }).first();
  await safe.waitFor({ timeout: 15_000 });
  log(`restore choices: ${JSON.stringify(await page.locator('.quick-input-list .monaco-list-row').allInnerTexts())}`);
  await safe.click();
}

/** Undo Restore from the restore's notification: the same QuickPick, the safe choice. */
async function undoRestore(page, log, restored) {
  const item = await notification(page, restored);
  await item.locator('.monaco-button', { hasText: 'Undo Restore' }).click();
  await pickRestore(page, log);
}

const bytes = (name) => (existsSync(file(name)) ? readFileSync(file(name), 'latin1') : undefined);

export default {
  async userSettings({ repo, workspace }) {
    await installAgents(['claude-code-acp-0.16.2', 'claude-agent-acp-0.100.0']);
    const { fakeAnthropic } = require(join(repo, 'out/test/compat/fakeModels.js'));
    const { CLAUDE_CODE_ACP, CLAUDE_AGENT_ACP, claudeCodeEnv, claudeAgentEnv } = require(
      join(repo, 'out/test/compat/agentPaths.js'),
    );
    dir = join(workspace, 'ckpt');
    mkdirSync(dir, { recursive: true });
    writeFileSync(file('a.txt'), ORIGINAL.a);
    writeFileSync(file('b.txt'), ORIGINAL.b);
    writeFileSync(file('d.txt'), ORIGINAL.d);
    // claude-agent-acp: its own Edit / Write on the disk and a command, then a second prompt's edit.
    lanes.direct = {
      when: /change the files yourself/,
      script: [
        { tool: 'Edit', input: { file_path: file('a.txt'), old_string: 'beta', new_string: 'BETA' } },
        { tool: 'Write', input: { file_path: file('c.txt'), content: 'created by the agent\n' } },
        {
          tool: 'Bash',
          input: { command: `sed -i 's/b0/b1/' '${file('b.txt')}'`, timeout: 30000, description: 'Edit b.txt' },
        },
        { text: 'DIRECT-FIRST-DONE' },
        { tool: 'Edit', input: { file_path: file('a.txt'), old_string: 'alpha', new_string: 'ALPHA' } },
        { text: 'DIRECT-SECOND-DONE' },
      ],
      requests: [],
    };
    // claude-code-acp: its edits come to Tandem as fs/write_text_file.
    lanes.client = {
      when: /change the files through the editor/,
      script: [
        {
          tool: 'mcp__acp__Edit',
          input: { file_path: file('d.txt'), old_string: 'delta one', new_string: 'DELTA ONE' },
        },
        { text: 'CLIENT-DONE' },
      ],
      requests: [],
    };
    model = await fakeAnthropic([{ text: 'Nothing to do.' }], Object.values(lanes));
    home = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-e2e-ckpt-home-')));
    return {
      'tandem.agents': [
        // claude-agent-acp needs Node ≥ 22: the Node 24 the harness installed.
        {
          name: 'Claude Agent',
          command: installPaths().node24,
          args: [CLAUDE_AGENT_ACP],
          env: claudeAgentEnv(model, home),
        },
        { name: 'Claude Code', command: process.execPath, args: [CLAUDE_CODE_ACP], env: claudeCodeEnv(model, home) },
      ],
      'tandem.defaultAgent': 'Claude Agent',
    };
  },
  async cleanup() {
    await model?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  },
  tests: [
    {
      name: 'claude-agent-acp writes the disk and runs sed over two prompts; after a reload, restore to the first prompt gives every original byte, and Undo Restore the agent’s',
      timeoutMs: 300_000,
      async run({ page, view, screenshot, log }) {
        await openTandemView(page);
        await view.locator('[data-testid="agent-name"]', { hasText: 'Claude Agent' }).waitFor({ timeout: 90_000 });
        await sendPrompt(view, 'Please change the files yourself', { timeout: 60_000 });
        await allowUntilReply(view, 'DIRECT-FIRST-DONE');
        await agentIdle(view, { timeout: 30_000 });
        await sendPrompt(view, 'And once more: change the files yourself');
        await allowUntilReply(view, 'DIRECT-SECOND-DONE');
        await agentIdle(view, { timeout: 30_000 });
        const after = { a: bytes('a.txt'), b: bytes('b.txt'), c: bytes('c.txt') };
        if (after.a !== 'ALPHA\r\nBETA\r\ngamma\r\n' || after.b !== 'b1\n' || after.c !== 'created by the agent\n')
          throw new Error(`the agent's changes: ${JSON.stringify(after)}`);

        await reloadWindow(page, view, 'Claude Agent');
        await restoreFirstPrompt(page, view, log);
        await until(
          () => bytes('a.txt') === ORIGINAL.a && bytes('b.txt') === ORIGINAL.b && bytes('c.txt') === undefined,
          20_000,
          `restored: ${JSON.stringify({ a: bytes('a.txt'), b: bytes('b.txt'), c: bytes('c.txt') })}`,
          100,
        );
        log(`screenshot: ${await screenshot('e2e-checkpoints-agent-restored')}`);

        await undoRestore(page, log, 'Restored 3 files to before prompt 1');
        await until(
          () => bytes('a.txt') === after.a && bytes('b.txt') === after.b && bytes('c.txt') === after.c,
          20_000,
          `undone: ${JSON.stringify({ a: bytes('a.txt'), b: bytes('b.txt'), c: bytes('c.txt') })}`,
          100,
        );
      },
    },
    {
      name: 'claude-code-acp writes through Tandem; after a reload, restore to the first prompt gives the original bytes, and Undo Restore the agent’s',
      timeoutMs: 240_000,
      async run({ page, view, screenshot, log }) {
        await runCommand(page, 'Tandem: Select Agent');
        const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Claude Code' }).first();
        await row.waitFor({ timeout: 10_000 });
        await row.click();
        await view.locator('[data-testid="agent-name"]', { hasText: 'Claude Code' }).waitFor({ timeout: 90_000 });
        await sendPrompt(view, 'Please change the files through the editor', { timeout: 60_000 });
        await allowUntilReply(view, 'CLIENT-DONE');
        await agentIdle(view, { timeout: 30_000 });
        const after = bytes('d.txt');
        if (after !== 'DELTA ONE\ndelta two\n') throw new Error(`the agent's change: ${JSON.stringify(after)}`);

        await reloadWindow(page, view, 'Claude Code');
        await restoreFirstPrompt(page, view, log);
        await until(() => bytes('d.txt') === ORIGINAL.d, 20_000, `restored: ${JSON.stringify(bytes('d.txt'))}`, 100);
        log(`screenshot: ${await screenshot('e2e-checkpoints-client-restored')}`);
        await undoRestore(page, log, 'Restored 1 file to before prompt 1');
        await until(() => bytes('d.txt') === after, 20_000, `undone: ${JSON.stringify(bytes('d.txt'))}`, 100);
      },
    },
  ],
};
