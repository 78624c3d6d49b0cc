// The visible-terminal mode with a real agent: claude-code-acp 0.16.2 (its Bash goes through
// terminal/*) against the fake Anthropic model server, through Tandem's own UI in the real VS Code,
// with tandem.terminal.visible on. The command runs in a VS Code terminal named after the agent
// (bash with shell integration), its output shows both there and in the tool call's terminal box,
// and the model gets it back as plain text (no escape sequences). A second command reuses the
// same terminal.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentReply, openTandemView, sendPrompt } from '../harness/codeServer.mjs';
import { installAgents } from '../compat/installAgents.mjs';
// The tests' one polling wait, test/support/until.ts, as the build transpiles it (out/ exists
// whenever e2e runs: the scripted agent runs from there too).
import { until } from '../../out/test/support/until.js';

const require = createRequire(import.meta.url);
let model;
let home;
const FIRST = `echo vt-line-1; sleep 1; printf '\\033[1;34mvt-blue\\033[0m\\n'`;
const SECOND = 'echo vt-second-command';
// Typed into an interactive bash these went wrong: `!` history expansion ("event not found", the
// command never finished) and an `exit` that closed the terminal. As `bash -c` runs them: neither.
const BANG = 'echo "reach!bang" && echo after-bang';
const EXIT3 = 'echo before-exit; exit 3';

const allowOnce = (view) =>
  view.locator('[data-testid="permission-prompt"] [data-testid="permission-option"][data-kind="allow_once"]').first();

/** The text of the VS Code terminal panel (the DOM renderer: GPU acceleration is off below). */
const panelText = (page) =>
  page
    .locator('.terminal-wrapper.active .xterm-rows')
    .first()
    .innerText()
    .catch(() => '');

export default {
  async userSettings({ repo }) {
    await installAgents(['claude-code-acp-0.16.2']);
    const { fakeAnthropic } = require(join(repo, 'out/test/compat/fakeModels.js'));
    const { CLAUDE_CODE_ACP, claudeCodeEnv } = require(join(repo, 'out/test/compat/agentPaths.js'));
    model = await fakeAnthropic([
      { tool: 'mcp__acp__Bash', input: { command: FIRST, timeout: 30000, description: 'Print in colour' } },
      { tool: 'mcp__acp__Bash', input: { command: SECOND, timeout: 30000, description: 'Print again' } },
      { text: 'VISIBLE-TERMINAL-DONE' },
      { tool: 'mcp__acp__Bash', input: { command: BANG, timeout: 30000, description: 'Print a bang' } },
      { tool: 'mcp__acp__Bash', input: { command: EXIT3, timeout: 30000, description: 'Exit with 3' } },
      { text: 'BASH-C-DONE' },
    ]);
    home = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-e2e-vterm-home-')));
    return {
      'tandem.agents': [
        { name: 'Claude Code', command: process.execPath, args: [CLAUDE_CODE_ACP], env: claudeCodeEnv(model, home) },
      ],
      'tandem.defaultAgent': 'Claude Code',
      'tandem.terminal.visible': true,
      // The DOM renderer, so the test can read the terminal's rows.
      'terminal.integrated.gpuAcceleration': 'off',
    };
  },
  async cleanup() {
    await model?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  },
  tests: [
    {
      name: 'claude-code-acp with tandem.terminal.visible: Bash runs in a VS Code terminal, output there and in the tool call',
      timeoutMs: 180_000,
      async run({ page, view, screenshot, log }) {
        await openTandemView(page);
        await view.locator('[data-testid="agent-name"]', { hasText: 'Claude Code' }).waitFor({ timeout: 60_000 });
        await sendPrompt(view, 'Print something in colour, then again', { timeout: 60_000 });
        for (let i = 0; i < 2; i++) {
          await allowOnce(view).waitFor({ timeout: 90_000 });
          await allowOnce(view).click();
          if (i === 0) {
            // The first command's terminal opens while it runs: named after the agent.
            const tab = page.locator('.terminal-tabs-entry, .single-terminal-tab', { hasText: 'Claude Code (Tandem)' });
            await tab.first().waitFor({ timeout: 30_000 });
          }
        }
        await agentReply(view, 'VISIBLE-TERMINAL-DONE', { timeout: 90_000 });

        // The VS Code terminal shows both commands' output (one terminal, reused).
        await until(
          async () => /vt-line-1[\s\S]*vt-blue[\s\S]*vt-second-command/.test(await panelText(page)),
          20_000,
          'both outputs in the VS Code terminal',
          200,
        );
        const tabs = await page.locator('.terminal-tabs-entry', { hasText: 'Claude Code (Tandem)' }).count();
        log(`terminal tabs named "Claude Code (Tandem)": ${tabs}`);
        if (tabs > 1) throw new Error(`the second command opened another terminal (${tabs} tabs)`);
        // Colors reach the terminal: the output line vt-blue is drawn unlike the plain vt-line-1.
        const rowColor = (text) =>
          page
            .locator('.terminal-wrapper.active .xterm-rows span', { hasText: new RegExp(`^${text}$`) })
            .first()
            .evaluate((el) => el.ownerDocument.defaultView.getComputedStyle(el).color);
        const [plainColor, blueColor] = [await rowColor('vt-line-1'), await rowColor('vt-blue')];
        log(`VS Code terminal: vt-line-1 ${plainColor}, vt-blue ${blueColor}`);
        if (plainColor === blueColor) throw new Error('the VS Code terminal lost the colors');

        // The tool call's terminal box shows the same output, colors rendered.
        const call = view.locator('[data-testid="tool-call"][data-kind="execute"][data-status="completed"]').first();
        await call.waitFor({ timeout: 10_000 });
        await call.click();
        const box = view.locator('[data-testid="terminal"]').first();
        await until(
          async () => /vt-line-1[\s\S]*vt-blue/.test(await box.innerText().catch(() => '')),
          10_000,
          'the output in the tool call',
          200,
        );
        // Each run of one style is a span in its line: vt-blue is drawn unlike its plain line box.
        const boxLine = box.locator('.term-line', { hasText: /^vt-blue$/ }).first();
        const color = (el) => el.ownerDocument.defaultView.getComputedStyle(el).color;
        const [boxPlain, boxBlue] = [
          await boxLine.evaluate(color),
          await boxLine.locator('span').first().evaluate(color),
        ];
        log(`tool call: plain ${boxPlain}, vt-blue ${boxBlue}`);
        if (boxPlain === boxBlue) throw new Error('the tool call lost the colors');

        // The model got the output back as plain text.
        const sent = JSON.stringify(model.requests[1]);
        if (!/vt-line-1\\nvt-blue/.test(sent)) throw new Error(`the model did not get the output: ${sent.slice(-600)}`);
        if (/\\u001b\[/.test(sent)) throw new Error('escape sequences reached the model');
        if (!/vt-second-command/.test(JSON.stringify(model.requests[2])))
          throw new Error('the second command’s output did not reach the model');
        log(`screenshot: ${await screenshot('e2e-visible-terminal-claude')}`);
      },
    },
    {
      name: 'a visible-terminal command runs as bash -c: `!` is literal, `exit 3` ends the command with 3, the terminal stays',
      timeoutMs: 120_000,
      async run({ page, view, screenshot, log }) {
        await sendPrompt(view, 'Now a bang and an exit', { timeout: 30_000 });
        for (let i = 0; i < 2; i++) {
          await allowOnce(view).waitFor({ timeout: 60_000 });
          await allowOnce(view).click();
        }
        await agentReply(view, 'BASH-C-DONE', { timeout: 60_000 });
        const bang = JSON.stringify(model.requests[4]);
        if (!/reach!bang\\nafter-bang/.test(bang))
          throw new Error(`the model did not get "reach!bang": ${bang.slice(-600)}`);
        const exit = JSON.stringify(model.requests[5]);
        log(`what the model got for exit 3: ${exit.slice(-300)}`);
        if (!/before-exit/.test(exit) || !/\b3\b/.test(exit) || /SIGHUP|Interrupted/.test(exit))
          throw new Error(`the model was not told exit code 3: ${exit.slice(-600)}`);
        // The exit ended the command, not the terminal: its tab and scrollback are still there.
        const tabs = page.locator('.terminal-tabs-entry, .single-terminal-tab', { hasText: 'Claude Code (Tandem)' });
        if ((await tabs.count()) < 1) throw new Error('exit 3 closed the session’s terminal');
        await until(
          async () => /reach!bang[\s\S]*after-bang[\s\S]*before-exit/.test(await panelText(page)),
          20_000,
          'both outputs in the VS Code terminal',
          200,
        );
        // The row keeps the agent's status (claude-code-acp reports the call completed); its
        // terminal says how the command ended.
        const exits = await view.locator('[data-testid="terminal-exit"]').allInnerTexts();
        log(`terminal exits: ${exits.join(', ')}`);
        if (exits.at(-1) !== 'exit 3' || exits.at(-2) !== 'exit 0')
          throw new Error(`the terminals do not read exit 0 then exit 3: ${exits.join(', ')}`);
        log(`screenshot: ${await screenshot('e2e-visible-terminal-bash-c')}`);
      },
    },
  ],
};
