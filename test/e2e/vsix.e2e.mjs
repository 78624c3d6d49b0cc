// Tandem as users install it: the packaged tandem-<version>.vsix (npm run package) goes into
// code-server with `--install-extension` — no development path, no source tree — and then the
// built-in Demo agent runs its turn, and a real agent (claude-code-acp 0.16.2, chosen with
// "Tandem: Select Agent" as a user would) reads a file and answers through the fake Anthropic
// model server. Fails when the VSIX lacks a runtime file the turn needs (a bundle, a lazy chunk,
// the demo agent, the MCP bridge, codicons, CSS).
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentReply, runCommand, sendPrompt } from '../harness/codeServer.mjs';
import { installAgents } from '../compat/installAgents.mjs';

const require = createRequire(import.meta.url);
let model;
let home;

export default {
  vsix: true,
  async userSettings({ repo, workspace }) {
    await installAgents(['claude-code-acp-0.16.2']);
    const { fakeAnthropic } = require(join(repo, 'out/test/compat/fakeModels.js'));
    const { CLAUDE_CODE_ACP, claudeCodeEnv } = require(join(repo, 'out/test/compat/agentPaths.js'));
    writeFileSync(join(workspace, 'installed.txt'), 'read through the installed VSIX\n');
    model = await fakeAnthropic([
      { tool: 'mcp__acp__Read', input: { file_path: join(workspace, 'installed.txt') } },
      { text: 'The file says it was read through the installed VSIX.' },
    ]);
    home = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-vsix-home-')));
    return {
      'tandem.agents': [
        {
          name: 'Claude Code',
          command: process.execPath,
          args: [CLAUDE_CODE_ACP],
          env: claudeCodeEnv(model, home),
        },
      ],
      'tandem.defaultAgent': 'Demo',
    };
  },
  async cleanup() {
    await model?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  },
  tests: [
    {
      name: 'the installed VSIX runs the Demo turn: plan, read, permission + edit, live command, client tool',
      timeoutMs: 120_000,
      async run({ openTandemView, view, page, screenshot, log }) {
        await openTandemView();
        await sendPrompt(view, 'Show me what you can do', { timeout: 45_000 });
        const allow = view.locator(
          '[data-testid="permission-prompt"] [data-testid="permission-option"][data-kind="allow_once"]',
        );
        await allow.first().waitFor({ timeout: 60_000 });
        await allow.first().click();
        await view.locator('[data-testid="cancel"]').waitFor({ state: 'detached', timeout: 60_000 });
        const kinds = await view
          .locator('[data-testid="tool-call"]')
          .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-kind')}:${e.getAttribute('data-status')}`));
        for (const k of ['read:completed', 'edit:completed', 'execute:completed'])
          if (!kinds.includes(k)) throw new Error(`missing ${k} in ${kinds.join(' ')}`);
        // The lazily loaded terminal renderer (a chunk of its own) shows the command's output.
        await view.locator('[data-testid="tool-call"][data-kind="execute"]').first().click();
        const term = await view.locator('[data-testid="terminal"]').first().innerText({ timeout: 10_000 });
        if (!/Hello from a real process/.test(term)) throw new Error(`terminal output: ${JSON.stringify(term)}`);
        // The client tool went through the MCP server and opened the file.
        await page.locator('.tab', { hasText: 'tandem-demo.md' }).first().waitFor({ timeout: 10_000 });
        // Codicons load from the VSIX (the font is a file of its own): an icon has a glyph width.
        const iconWidth = await view
          .locator('[data-testid="tool-call"] .codicon')
          .first()
          .evaluate((el) => el.getBoundingClientRect().width);
        if (!(iconWidth > 0)) throw new Error('codicons did not load from the installed VSIX');
        log(`screenshot: ${await screenshot('vsix-demo-turn')}`);
      },
    },
    {
      name: 'the installed VSIX runs claude-code-acp picked with Select Agent: it reads a file and answers',
      timeoutMs: 150_000,
      async run({ page, view, screenshot, log }) {
        await runCommand(page, 'Tandem: Select Agent');
        const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Claude Code' }).first();
        await row.waitFor({ timeout: 10_000 });
        await row.click();
        await view.locator('[data-testid="agent-name"]', { hasText: 'Claude Code' }).waitFor({ timeout: 60_000 });
        await sendPrompt(view, 'What does installed.txt say?', { timeout: 60_000 });
        await agentReply(view, 'read through the installed VSIX', { timeout: 90_000 });
        const read = view.locator('[data-testid="tool-call"][data-kind="read"][data-status="completed"]');
        await read.first().waitFor({ timeout: 10_000 });
        if (!model.requests.length) throw new Error('claude-code-acp never reached the fake model server');
        log(`model requests: ${model.requests.length}; screenshot: ${await screenshot('vsix-claude-code')}`);
      },
    },
  ],
};
