// The rebuilt permission system with real agents from npm, through Tandem's UI in the real VS Code
// (permissions.e2e.mjs has the scripted versions). claude-code-acp 0.16.2 and claude-agent-acp
// 0.100.0 talk to one fake Anthropic server (one conversation per first prompt: lanes), codex-acp
// 2.6.0 to a fake Responses server. Checked: an "Always allow" on `git status -s` never covers a
// line with a substitution (and the rejected line never runs); ExitPlanMode's "Yes, and auto-accept
// edits" switches the mode and is never remembered; claude-agent-acp's "Yes, allow all edits during
// this session" lasts for that session only; codex-acp's long command line (longer than the
// question shows) is shown on the card in full. (codex-acp 0.16.0 sent argv arrays, 2.6.0 sends the
// line as a string: the argv case is in test/unit/webview/permissionPrompt.test.ts.)
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installPaths } from '../harness/install.mjs';
import { agentIdle, agentReply, openTandemView, runCommand, selectAgent, sendPrompt } from '../harness/codeServer.mjs';
import { installAgents } from '../compat/installAgents.mjs';
// The tests' one polling wait, test/support/until.ts, as the build transpiles it (out/ exists
// whenever e2e runs: the scripted agent runs from there too).
import { until } from '../../out/test/support/until.js';

const require = createRequire(import.meta.url);
/** Where Claude Code keeps the allow rules it writes for itself. */
const AGENT_RULES = '.claude/settings.local.json';
const PWNED_LINE = `git status "'" $(touch PWNED) "'"`;
/** Longer than the card's question shows (60 characters): the full line goes to its own block. */
const CODEX_CMD = `git status -s && echo "the status was checked before the change" > status.log`;
const bash = (command) => ({ command, timeout: 30000, description: 'Show the status' });
let anthropic, responses, home, codexHomeDir, ws;
const lanes = {};

const card = (view) => view.locator('[data-testid="permission-prompt"]').first();
const text = (loc) => loc.innerText({ timeout: 5_000 });
/** The decision line of a tool-call row (the row is expanded to show it). */
async function decisionOf(row) {
  if ((await row.getAttribute('aria-expanded')) !== 'true') await row.locator('.tool-head').click();
  return text(row.locator('[data-testid="tool-permission"]'));
}
async function setMode(view, id) {
  const picker = view.locator('[data-testid="mode-picker"]:not([disabled])');
  await picker.selectOption(id, { timeout: 30_000 });
  await until(async () => (await picker.inputValue()) === id, 10_000, `mode picker shows ${id}`, 100);
}
const file = (name) => join(ws, name);
const read = (name) => readFileSync(file(name), 'utf8');

export default {
  async userSettings({ repo, workspace }) {
    await installAgents(['claude-code-acp-0.16.2', 'claude-agent-acp-0.100.0', 'codex-acp-2.6.0']);
    const { fakeAnthropic, fakeResponses } = require(join(repo, 'out/test/compat/fakeModels.js'));
    const paths = require(join(repo, 'out/test/compat/agentPaths.js'));
    ws = workspace;
    for (const n of ['plan.txt', 'one.txt', 'two.txt', 'three.txt']) writeFileSync(file(n), `${n} before\n`);
    lanes.status = {
      when: /Check the status/,
      script: [
        { tool: 'mcp__acp__Bash', input: bash('git status -s') },
        { tool: 'mcp__acp__Bash', input: bash('git status -s') },
        { tool: 'mcp__acp__Bash', input: bash(PWNED_LINE) },
        { text: 'STATUS-DONE' },
      ],
      requests: [],
    };
    const planEdit = { file_path: file('plan.txt'), old_string: 'plan.txt before', new_string: 'plan.txt after' };
    lanes.plan = {
      when: /Plan the change/,
      script: [
        { tool: 'ExitPlanMode', input: { plan: 'Change plan.txt' } },
        { tool: 'mcp__acp__Edit', input: planEdit },
        { text: 'PLAN-EDIT-DONE' },
        { tool: 'ExitPlanMode', input: { plan: 'Change plan.txt once more' } },
        { text: 'SECOND-PLAN-DONE' },
      ],
      requests: [],
    };
    const edit = (n) => ({
      tool: 'Edit',
      input: { file_path: file(n), old_string: `${n} before`, new_string: `${n} after` },
    });
    lanes.edits = {
      when: /Edit one and two/,
      script: [edit('one.txt'), edit('two.txt'), { text: 'EDITS-DONE' }],
      requests: [],
    };
    lanes.fresh = { when: /Edit three/, script: [edit('three.txt'), { text: 'THREE-DONE' }], requests: [] };
    anthropic = await fakeAnthropic([{ text: 'Nothing to do.' }], Object.values(lanes));
    // codex-acp in Read Only mode (codexEnv starts sessions so) asks before a command that wants to leave the sandbox.
    const escalated = { sandbox_permissions: 'require_escalated', justification: 'Log the status' };
    responses = await fakeResponses([
      { tool: 'exec_command', input: { cmd: CODEX_CMD, yield_time_ms: 10000, ...escalated } },
      { text: 'CODEX-DONE' },
    ]);
    home = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-e2e-perm-home-')));
    codexHomeDir = paths.codexHome();
    const agent = (name, command, args, env) => ({ name, command, args, env });
    return {
      'tandem.agents': [
        agent('Claude Code', process.execPath, [paths.CLAUDE_CODE_ACP], paths.claudeCodeEnv(anthropic, home)),
        // claude-agent-acp needs Node ≥ 22: the Node 24 the harness installed.
        agent('Claude Agent', installPaths().node24, [paths.CLAUDE_AGENT_ACP], paths.claudeAgentEnv(anthropic, home)),
        agent('Codex', process.execPath, paths.codexArgs(), paths.codexEnv(codexHomeDir, responses)),
      ],
      'tandem.defaultAgent': 'Claude Code',
    };
  },
  async cleanup() {
    await anthropic?.close();
    await responses?.close();
    for (const d of [home, codexHomeDir]) if (d) rmSync(d, { recursive: true, force: true });
  },
  tests: [
    {
      name: 'claude-code-acp: "Always allow" on `git status -s` answers that command again, but a line with a substitution asks, and rejected it never runs',
      timeoutMs: 240_000,
      async run({ page, view, screenshot, log }) {
        await openTandemView(page);
        await view.locator('[data-testid="agent-name"]', { hasText: 'Claude Code' }).waitFor({ timeout: 90_000 });
        await sendPrompt(view, 'Check the status', { timeout: 60_000 });
        const first = card(view);
        await first.waitFor({ timeout: 90_000 });
        const scope = await text(first.locator('[data-testid="permission-scope"]'));
        log(`first card's footnote: ${scope}`);
        if (
          !scope.includes(
            '`git status …` (one command; any other arguments, only the options `-s`; never chained, substituted or redirected)',
          )
        )
          throw new Error(`footnote: ${scope}`);
        log(`screenshot: ${await screenshot('e2e-permissions-claude-always-scope')}`);
        await first.locator('[data-testid="permission-option"][data-kind="allow_always"]').click();
        // The second `git status -s` runs on the remembered decision; the third line asks.
        const rows = view.locator('[data-testid="tool-call"]');
        await until(async () => (await rows.count()) >= 3, 90_000, 'the third call', 100);
        const pwned = card(view);
        await pwned.waitFor({ timeout: 60_000 });
        const question = await text(pwned.locator('[data-testid="permission-question"]'));
        const pwnedScope = await text(pwned.locator('[data-testid="permission-scope"]'));
        log(`substitution card: ${question} / ${pwnedScope}`);
        if (!question.includes(`Run ${PWNED_LINE}?`)) throw new Error(`question: ${question}`);
        if (!pwnedScope.includes(`exactly \`${PWNED_LINE}\``)) throw new Error(`footnote: ${pwnedScope}`);
        if ((await pwned.getAttribute('data-tool-call-id')) !== (await rows.nth(2).getAttribute('data-id')))
          throw new Error('the card is not about the third call');
        log(`screenshot: ${await screenshot('e2e-permissions-claude-substitution-asks')}`);
        await pwned.locator('[data-testid="permission-option"][data-kind="reject_once"]').click();
        await agentIdle(view, { timeout: 60_000 });
        const how = [];
        for (let i = 0; i < 3; i++) how.push(await decisionOf(rows.nth(i)));
        log(`decisions: ${JSON.stringify(how)}`);
        if (
          !/Always Allow — by you/.test(how[0]) ||
          !/remembered choice/.test(how[1]) ||
          !/Reject — by you/.test(how[2])
        )
          throw new Error(`decisions: ${JSON.stringify(how)}`);
        if (existsSync(file('PWNED'))) throw new Error('the rejected line ran: PWNED exists in the workspace');
        // Tandem keeps "always" itself and tells the agent "allow once": no allow rule of its own.
        if (existsSync(file(AGENT_RULES))) throw new Error(`the agent wrote ${AGENT_RULES}: ${read(AGENT_RULES)}`);
        if (anthropic.requests.length) throw new Error('a prompt fell out of its lane');
      },
    },
    {
      name: 'claude-code-acp: ExitPlanMode "Yes, and auto-accept edits" switches to Accept Edits, the next edit runs unasked, and the next plan asks again',
      timeoutMs: 240_000,
      async run({ page, view, screenshot, log }) {
        await runCommand(page, 'Tandem: New Session');
        await view.locator('[data-testid="empty-session"]').waitFor({ timeout: 60_000 });
        await setMode(view, 'plan');
        await sendPrompt(view, 'Plan the change to plan.txt, then make it', { timeout: 60_000 });
        const plan = card(view);
        await plan.waitFor({ timeout: 90_000 });
        const names = await plan.locator('[data-testid="permission-option"]').allInnerTexts();
        const asks = await text(plan.locator('[data-testid="permission-question"]'));
        log(`ExitPlanMode card: ${asks} ${JSON.stringify(names)}`);
        if (asks !== 'Ready to code?') throw new Error(`question: ${asks}`);
        if (!names.some((n) => n.includes('Yes, and auto-accept edits'))) throw new Error(`options: ${names}`);
        // A mode switch remembers nothing, so the card promises nothing.
        if (await plan.locator('[data-testid="permission-scope"]').count())
          throw new Error('a footnote on a mode switch');
        log(`screenshot: ${await screenshot('e2e-permissions-claude-exit-plan')}`);
        await plan.locator('[data-option-id="acceptEdits"]').click();
        // Nobody answers a card from here on: the reply comes only if the edit ran unasked.
        await agentReply(view, 'PLAN-EDIT-DONE', { timeout: 90_000 });
        await until(
          async () => (await view.locator('[data-testid="mode-picker"]').inputValue()) === 'acceptEdits',
          10_000,
          'the mode picker shows Accept Edits',
          100,
        );
        if (read('plan.txt') !== 'plan.txt after\n') throw new Error(`plan.txt: ${read('plan.txt')}`);
        const rows = view.locator('[data-testid="tool-call"]');
        log(`ExitPlanMode row: ${await decisionOf(rows.nth(0))}`);
        // The row says the agent let it through; claude-code-acp 0.16.2 also kept an allow rule for
        // mcp__acp__Edit in the workspace (Claude Code's suggestion for an edit in Accept Edits mode).
        const unasked = await decisionOf(view.locator('[data-testid="tool-call"][data-kind="edit"]').first());
        log(`edit row: ${unasked}; ${AGENT_RULES}: ${existsSync(file(AGENT_RULES)) ? read(AGENT_RULES) : '(none)'}`);
        log(`screenshot: ${await screenshot('e2e-permissions-claude-accept-edits')}`);
        if (!/Ran without asking/.test(unasked)) throw new Error(`edit row: ${unasked}`);
        // Later tests start without the agent's own rules.
        rmSync(file('.claude'), { recursive: true, force: true });
        await agentIdle(view, { timeout: 30_000 });
        // Back to planning: the next ExitPlanMode is asked again, in the same session.
        await setMode(view, 'plan');
        await sendPrompt(view, 'And plan once more');
        const again = card(view);
        await again.waitFor({ timeout: 90_000 });
        if ((await again.getAttribute('data-active')) !== 'true') throw new Error('the second plan card is not active');
        log(`screenshot: ${await screenshot('e2e-permissions-claude-exit-plan-again')}`);
        await again.locator('[data-option-id="plan"]').click();
        await agentIdle(view, { timeout: 60_000 });
        const second = await decisionOf(rows.last());
        log(`second ExitPlanMode: ${second}`);
        if (!/No, keep planning — by you/.test(second)) throw new Error(`second ExitPlanMode: ${second}`);
        if ((await view.locator('[data-testid="mode-picker"]').inputValue()) !== 'plan')
          throw new Error('mode left plan');
        log(`plan lane requests: ${lanes.plan.requests.length}`);
      },
    },
    {
      name: 'claude-agent-acp: "Yes, allow all edits during this session" lets the next edit of another file run unasked in that session only',
      timeoutMs: 300_000,
      async run({ page, view, screenshot, log }) {
        await selectAgent(page, view, 'Claude Agent');
        await sendPrompt(view, 'Edit one and two', { timeout: 90_000 });
        const first = card(view);
        await first.waitFor({ timeout: 120_000 });
        const session = first.locator('[data-testid="permission-option"][data-kind="allow_always"]');
        const name = await text(session);
        const scope = await text(first.locator('[data-testid="permission-scope"]'));
        log(`option: ${name}; footnote: ${scope}`);
        if (!name.includes('Yes, allow all edits during this session')) throw new Error(`option: ${name}`);
        if (!scope.includes('for this session: every Edit call inside the workspace'))
          throw new Error(`footnote: ${scope}`);
        log(`screenshot: ${await screenshot('e2e-permissions-claude-agent-session-option')}`);
        await session.click();
        // No second card is answered: the reply comes only if two.txt's edit ran on the remembered answer.
        await agentReply(view, 'EDITS-DONE', { timeout: 120_000 });
        if (read('one.txt') !== 'one.txt after\n' || read('two.txt') !== 'two.txt after\n')
          throw new Error(`files: ${read('one.txt')} / ${read('two.txt')}`);
        const rows = view.locator('[data-testid="tool-call"][data-kind="edit"]');
        const how = [await decisionOf(rows.nth(0)), await decisionOf(rows.nth(1))];
        log(
          `decisions: ${JSON.stringify(how)}; screenshot: ${await screenshot('e2e-permissions-claude-agent-remembered')}`,
        );
        if (!/during this session — by you/.test(how[0]) || !/remembered choice/.test(how[1]))
          throw new Error(`decisions: ${JSON.stringify(how)}`);
        await agentIdle(view, { timeout: 30_000 });
        // A new session of the same agent: the answer is gone.
        await runCommand(page, 'Tandem: New Session');
        await view.locator('[data-testid="empty-session"]').waitFor({ timeout: 60_000 });
        await sendPrompt(view, 'Edit three in a new session', { timeout: 60_000 });
        const fresh = card(view);
        await fresh.waitFor({ timeout: 120_000 });
        log(`screenshot: ${await screenshot('e2e-permissions-claude-agent-new-session-asks')}`);
        await fresh.locator('[data-testid="permission-option"][data-kind="reject_once"]').click();
        await agentIdle(view, { timeout: 60_000 });
        if (read('three.txt') !== 'three.txt before\n') throw new Error(`three.txt: ${read('three.txt')}`);
      },
    },
    {
      name: 'codex-acp: a long command line shows on the card in full',
      timeoutMs: 240_000,
      async run({ page, view, screenshot, log }) {
        await selectAgent(page, view, 'Codex');
        await sendPrompt(view, 'Log the status', { timeout: 90_000 });
        const c = card(view);
        await c.waitFor({ timeout: 120_000 });
        const whole = CODEX_CMD;
        const question = await text(c.locator('[data-testid="permission-question"]'));
        const command = await text(c.locator('[data-testid="permission-command"]'));
        log(`question: ${question}; command block: ${command}`);
        if (command.trim() !== whole) throw new Error(`command block: ${command}`);
        if (!question.startsWith('Run git status -s')) throw new Error(`question: ${question}`);
        log(`footnote: ${await text(c.locator('[data-testid="permission-scope"]')).catch(() => '(none)')}`);
        log(`screenshot: ${await screenshot('e2e-permissions-claude-codex-card')}`);
        await c.locator('[data-testid="permission-option"][data-kind="reject_once"]').click();
        await agentIdle(view, { timeout: 60_000 });
        if (existsSync(file('status.log'))) throw new Error('the rejected command ran: status.log exists');
      },
    },
  ],
};
