// A real claude-agent-acp 0.101.0 from npm (against the fake Anthropic server) runs a Task whose
// subagent reads a file and reports, in the real VS Code: with `subagents` advertised (the draft
// RFD) the subagent is a child session; its prompt, its Read and its report show indented under
// its Agent row (not in the answer), the row folds and unfolds them, and the header's meter and
// account chip show what the agent's `_meta` channels said (the context, what the turn spent, the
// API key it works as). Then, in a new session, a subagent whose model holds its answer back: its
// row's Stop ends its work only (session/cancel on the child session).
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installPaths } from '../harness/install.mjs';
import { agentReply, runCommand } from '../harness/codeServer.mjs';
import { installAgents } from '../compat/installAgents.mjs';
import { until } from '../../out/test/support/until.js';

const require = createRequire(import.meta.url);
let anthropic, home;
const sub = { when: /Find the alpha file/, script: [], requests: [] };
// The second test's conversation and its subagent, whose model holds its second answer back.
const slowMain = { when: /Use a slow subagent/, script: [], requests: [] };
const slowSub = { when: /Dig slowly/, script: [], requests: [] };

/** Sends `text` in Manual mode: the default "auto" mode asks a classifier model the fake does not serve. */
async function sendInManualMode(view, text) {
  // (0.101.0 offers its modes as the config option "mode".)
  const picker = view.locator('[data-testid="config-mode"]:not([disabled])');
  await picker.selectOption('default', { timeout: 60_000 });
  await until(async () => (await picker.inputValue()) === 'default', 10_000, 'Manual mode', 100);
  const input = view.locator('[data-testid="composer-input"]:not([disabled])');
  await input.click();
  await input.fill(text);
  await input.press('Enter');
}

const rows = (view) =>
  view
    .locator('[role="treeitem"]')
    .evaluateAll((els) =>
      els
        .slice(1)
        .map((e) => [
          e.dataset.testid === 'tool-call' ? `call:${e.dataset.kind}` : e.dataset.testid,
          e.getAttribute('aria-level'),
        ]),
    );

export default {
  async userSettings({ repo, workspace }) {
    await installAgents(['claude-agent-acp-0.101.0']);
    const { fakeAnthropic } = require(join(repo, 'out/test/compat/fakeModels.js'));
    const paths = require(join(repo, 'out/test/compat/agentPaths.js'));
    writeFileSync(join(workspace, 'a.txt'), 'alpha\n');
    sub.script = [
      { tool: 'Read', input: { file_path: join(workspace, 'a.txt') } },
      { text: 'SUBAGENT-REPORT: a.txt says alpha.' },
    ];
    const task = {
      description: 'Find alpha',
      prompt: 'Find the alpha file and report what it says',
      subagent_type: 'general-purpose',
    };
    writeFileSync(join(workspace, 'b.txt'), 'beta\n');
    slowMain.script = [
      { tool: 'Agent', input: { description: 'Dig', prompt: 'Dig slowly through b.txt', subagent_type: 'Explore' } },
      { text: 'SLOW-MAIN-ANSWER: went on without it.' },
    ];
    slowSub.script = [
      { tool: 'Read', input: { file_path: join(workspace, 'b.txt') } },
      { text: 'SLOW-REPORT: never wanted.', delayMs: 120_000 },
    ];
    anthropic = await fakeAnthropic(
      [{ tool: 'Agent', input: task }, { text: 'MAIN-ANSWER: the subagent reported.' }],
      [sub, slowMain, slowSub],
    );
    home = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-e2e-sub-home-')));
    return {
      'tandem.agents': [
        // claude-agent-acp needs Node ≥ 22: the Node 24 the harness installed.
        {
          name: 'Claude Agent',
          command: installPaths().node24,
          args: [paths.CLAUDE_AGENT_ACP_101],
          env: paths.claudeAgentEnv(anthropic, home),
        },
      ],
      'tandem.defaultAgent': 'Claude Agent',
    };
  },
  async cleanup() {
    await anthropic?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  },
  tests: [
    {
      name: "claude-agent-acp 0.101.0: a Task's subagent call and report show nested under the Agent call, and fold",
      timeoutMs: 240_000,
      async run({ openTandemView, view, screenshot, log }) {
        await openTandemView();
        await view.locator('[data-testid="agent-name"]', { hasText: 'Claude Agent' }).waitFor({ timeout: 90_000 });
        await sendInManualMode(view, 'Use a subagent');
        await agentReply(view, 'MAIN-ANSWER', { timeout: 90_000 });
        const report = view.locator('[data-testid="subagent-message"]', { hasText: 'SUBAGENT-REPORT' });
        await report.waitFor({ timeout: 60_000 });
        const got = await rows(view);
        log(`rows: ${JSON.stringify(got)}`);
        const at = (what) => got.findIndex(([w]) => w === what);
        const agent = at('call:think');
        if (agent < 0 || got[agent][1] !== '2') throw new Error(`the Agent call: ${JSON.stringify(got)}`);
        for (const what of ['call:read', 'subagent-message'])
          if (at(what) <= agent || got[at(what)][1] !== '3')
            throw new Error(`${what} is not under the Agent call: ${JSON.stringify(got)}`);
        if (await view.locator('[data-testid="message-agent"]', { hasText: 'SUBAGENT-REPORT' }).count())
          throw new Error("the subagent's report shows as the agent's answer");
        // The header: the context meter, what the turn spent, who the agent works as.
        // In a sidebar of the usual width the context and the cost show; the last turn's tokens are
        // in the tooltip.
        await view.locator('[data-testid="usage-turn"]').waitFor({ state: 'attached', timeout: 30_000 });
        await view.locator('.usage-cost').waitFor({ timeout: 30_000 });
        const title = await view.locator('[data-testid="usage"]').getAttribute('title');
        if (!/^Context: .+ tokens/m.test(title) || !/^Last turn: \d+ tokens \(/m.test(title))
          throw new Error(`meter tooltip: ${title}`);
        const account = await view.locator('[data-testid="agent-account"]').innerText({ timeout: 30_000 });
        if (!/Anthropic API key/.test(account)) throw new Error(`account chip: ${account}`);
        log(
          `meter: ${await view.locator('[data-testid="usage"]').innerText()} (${await view.locator('[data-testid="usage"]').getAttribute('title')})`,
        );
        log(`screenshot: ${await screenshot('e2e-subagents-claude')}`);
        // The Agent call folds its subagent rows and unfolds them again.
        const toggle = view.locator('[data-testid="subtree-toggle"]');
        await toggle.click();
        await report.waitFor({ state: 'detached', timeout: 10_000 });
        if (await view.locator('[data-testid="tool-call"][data-kind="read"]').count())
          throw new Error('the Read is still shown');
        log(`screenshot: ${await screenshot('e2e-subagents-claude-folded')}`);
        await toggle.click();
        await report.waitFor({ timeout: 10_000 });
      },
    },
    {
      name: "claude-agent-acp 0.101.0: Stop on a working subagent's row ends its work, and the agent answers",
      timeoutMs: 240_000,
      async run({ page, view, screenshot, log }) {
        await runCommand(page, 'Tandem: New Session');
        await view.locator('[data-testid="tool-call"]').first().waitFor({ state: 'detached', timeout: 30_000 });
        await sendInManualMode(view, 'Use a slow subagent');
        // The subagent read b.txt and its model holds the rest back: its row can be stopped.
        const stop = view.locator('[data-testid="subagent-stop"]');
        await stop.waitFor({ timeout: 90_000 });
        await until(() => slowSub.requests.length >= 2, 30_000, "the subagent's second model request", 100);
        const row = view.locator('[data-testid="tool-call"][data-kind="think"]');
        if ((await row.getAttribute('data-status')) !== 'in_progress')
          throw new Error(`the subagent's row: ${await row.getAttribute('data-status')}`);
        log(`screenshot: ${await screenshot('e2e-subagent-stop-working')}`);
        await stop.click();
        await stop.waitFor({ state: 'detached', timeout: 30_000 });
        await agentReply(view, 'SLOW-MAIN-ANSWER', { timeout: 90_000 });
        const label = await row.getAttribute('aria-label');
        if (!/, Interrupted/.test(label)) throw new Error(`after Stop the row reads: ${label}`);
        // The agent's turn ends by itself: the composer sends again.
        await view.locator('[data-testid="send"]').waitFor({ timeout: 60_000 });
        if (await view.getByText('SLOW-REPORT').count()) throw new Error("the stopped subagent's answer showed");
        log(`screenshot: ${await screenshot('e2e-subagent-stop-stopped')}`);
      },
    },
    {
      name: 'Show Agent Capabilities: the report of this agent says what it declared and what it sent',
      timeoutMs: 60_000,
      async run({ page, screenshot, log }) {
        await runCommand(page, 'Tandem: Show Agent Capabilities');
        const preview = page
          .frameLocator('iframe.webview.ready[src*="extensionId=vscode.markdown-language-features"]')
          .frameLocator('#active-frame');
        // What the agent sent on the wire (the subagent channel, its permission requests) and what
        // Tandem advertised to it (`subagents`).
        await preview.getByText('subagent_update').first().waitFor({ timeout: 30_000 });
        const text = await preview.locator('body').innerText();
        for (const want of ['Claude Agent', 'session/request_permission', 'subagents'])
          if (!text.includes(want)) throw new Error(`the report lacks ${want}: ${text.slice(0, 400)}`);
        log(`screenshot: ${await screenshot('e2e-capability-report')}`);
      },
    },
  ],
};
