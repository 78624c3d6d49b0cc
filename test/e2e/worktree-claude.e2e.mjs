// Many agents at once with real agents, in the real VS Code, across a window reload:
// claude-code-acp 0.16.2 and claude-agent-acp 0.101.0 (from npm, each against its own fake
// Anthropic server) each open a session in a worktree of their own through "New Session in
// Worktree…" and run a turn at the same time, editing notes.txt differently. Both show as Running
// in the Sessions view; a permission prompt of the session not shown is listed there as waiting
// and answered from there; the user's tree is unchanged. After a reload both sessions come back on
// their branches with their turns, and a command each runs (`pwd`) runs in its worktree. Applying
// one merges it; applying the other opens the conflict in the merge editor, and Abort undoes it.
// (test/integration/compatWorktrees.test.ts has the same agents without the UI and the reload;
// worktree.e2e.mjs the Demo agent's worktree session.)
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installPaths } from '../harness/install.mjs';
import {
  agentReply,
  answerQuickInput as answer,
  notification,
  runCommand,
  sendPrompt,
} from '../harness/codeServer.mjs';
import { installAgents } from '../compat/installAgents.mjs';
import { git, initRepo } from '../../out/test/support/gitRepo.js';
import { until } from '../../out/test/support/until.js';

const require = createRequire(import.meta.url);
/** How long each model holds its first reply: both turns are running at once meanwhile. */
const HOLD_MS = 15_000;
const ORIGINAL = 'line one\nline two\nline three\n';
const PROMPT = 'Change line two of notes.txt';
const PWD_PROMPT = 'Where do you work? Run pwd';
const homes = [];
let workspace;

/**
 * The two sessions. Each model's steps are filled in once its worktree is known (the fake reads
 * them when a request comes); a reply is picked by the number of assistant messages so far, so a
 * reopened conversation goes on where it was.
 */
const agents = {
  code: {
    agent: 'Claude Code',
    name: 'code edit',
    branch: 'tandem/code-edit',
    edited: 'CLAUDE-CODE-EDITED',
    pwdDone: 'CLAUDE-CODE-PWD',
    steps: [],
    stepsIn: (wt, a) => [
      { tool: 'mcp__acp__Read', input: { file_path: join(wt, 'notes.txt') }, delayMs: HOLD_MS },
      {
        tool: 'mcp__acp__Edit',
        input: { file_path: join(wt, 'notes.txt'), old_string: 'line two', new_string: 'line two, by Claude Code' },
      },
      { text: a.edited },
      {
        tool: 'mcp__acp__Bash',
        input: { command: 'pwd', description: 'Print the working directory', timeout: 30_000 },
      },
      { text: a.pwdDone },
    ],
  },
  agent: {
    agent: 'Claude Agent',
    name: 'agent edit',
    branch: 'tandem/agent-edit',
    edited: 'CLAUDE-AGENT-EDITED',
    pwdDone: 'CLAUDE-AGENT-PWD',
    steps: [],
    stepsIn: (wt, a) => [
      {
        tool: 'Edit',
        input: { file_path: join(wt, 'notes.txt'), old_string: 'line two', new_string: 'line two, by Claude Agent' },
        delayMs: HOLD_MS,
      },
      { text: a.edited },
      { tool: 'Bash', input: { command: 'pwd', description: 'Print the working directory' } },
      { text: a.pwdDone },
    ],
  },
};
const both = Object.values(agents);
const editedBy = (who) => `line one\nline two, by ${who}\nline three\n`;
const read = (dir) => readFileSync(join(dir, 'notes.txt'), 'utf8');

/** The Sessions view (beside the session view), expanded. */
async function sessionsPane(page) {
  const header = page.locator('.pane-header[aria-label^="Sessions"]').first();
  await header.waitFor({ timeout: 20_000 });
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
  return page.locator('.pane', { has: header });
}

/**
 * Drags the side bar's edge to the right so the screenshots show whole rows of the Sessions view
 * ("Claude Code in tandem/code-edit · running 5 s · …") instead of cutting them at the default width.
 */
async function widenSideBar(page, to = 640) {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box || box.width >= to) return;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width, y);
  await page.mouse.down();
  await page.mouse.move(box.x + to, y, { steps: 5 });
  await page.mouse.up();
}

/** The Sessions view's row of a worktree session ("Claude Code in tandem/code-edit · …"). */
const overviewRow = (pane, a) => pane.locator('.monaco-list-row', { hasText: `${a.agent} in ${a.branch}` });

/** The session's tab in the session view, by the branch its tooltip names. */
const tabOf = (view, a) => view.locator(`[data-testid="session-tab"][title*="in its worktree on ${a.branch}"]`);

/** Clicks the session's tab and waits for the view to show it (its branch in the header). */
async function show(view, a) {
  await tabOf(view, a).click({ timeout: 30_000 });
  await view.locator('[data-testid="session-place"]', { hasText: a.branch }).waitFor({ timeout: 20_000 });
}

/** A row of the open quick pick whose label is exactly `label` (not one that only contains it). */
async function pickExactly(page, label) {
  const input = page.locator('.quick-input-widget input').first();
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(label);
  await page
    .locator('.quick-input-list .monaco-list-row', {
      has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }),
    })
    .first()
    .click({ timeout: 10_000 });
}

/** "Tandem: New Session in Worktree…" for `a`, answered as a user does; resolves with the worktree's path. */
async function openInWorktree(page, a) {
  await runCommand(page, 'Tandem: New Session in Worktree…');
  await pickExactly(page, a.agent);
  await answer(page, a.name);
  const slug = a.branch.slice('tandem/'.length);
  let worktree;
  await until(
    () =>
      (worktree = git(workspace, 'worktree', 'list', '--porcelain')
        .split('\n')
        .filter((l) => l.startsWith('worktree '))
        .map((l) => l.slice('worktree '.length))
        .find((p) => p.endsWith(`/${slug}`))),
    30_000,
    `the worktree of "${a.name}"`,
    100,
  );
  return worktree;
}

/**
 * Answers every permission prompt until `done()`: the session view's own with Allow, and one the
 * Sessions view lists as waiting by clicking its row there first (which shows that session).
 * Returns the rows clicked while another session was shown: prompts of a session in the background
 * (`onBackground` sees the first such row before it is clicked).
 */
async function answerPrompts({ view, pane, done, onBackground, timeout = 120_000 }) {
  const allow = view.locator(
    '[data-testid="permission-prompt"] [data-testid="permission-option"][data-kind="allow_once"]',
  );
  const waiting = pane.locator('.monaco-list-row', { hasText: 'waits for' });
  const fromBackground = [];
  await until(
    async () => {
      if (await done()) return true;
      if (await allow.count()) {
        await allow
          .first()
          .click({ timeout: 2_000 })
          .catch(() => {});
      } else if (await waiting.count()) {
        const row = (await waiting.first().innerText()).replace(/\s+/g, ' ');
        const shown = (await view.locator('[data-testid="session-place"]').innerText({ timeout: 2_000 })).trim();
        if (!row.includes(` in ${shown}`)) {
          if (!fromBackground.length) await onBackground?.();
          fromBackground.push({ row, shown });
        }
        await waiting
          .first()
          .click({ timeout: 2_000 })
          .catch(() => {});
        // The prompt now shows in the session view; the next round answers it.
        await allow.first().waitFor({ timeout: 10_000 });
      }
      return false;
    },
    timeout,
    'every permission prompt answered and both replies in',
    200,
  );
  return fromBackground;
}

/** The text of the tool result the agent sent its model in `request` (the one after a command). */
function toolResultIn(request) {
  const messages = request?.messages ?? [];
  const blocks = messages.at(-1)?.content ?? [];
  const result = (Array.isArray(blocks) ? blocks : []).filter((b) => b.type === 'tool_result').at(-1);
  if (!result) return undefined;
  const content = result.content;
  return typeof content === 'string' ? content : (content ?? []).map((c) => c.text ?? '').join('');
}

export default {
  async userSettings({ repo, workspace: ws }) {
    workspace = ws;
    // Committed before VS Code opens it, so its git extension knows the repository (the merge editor).
    initRepo(workspace);
    await installAgents(['claude-code-acp-0.16.2', 'claude-agent-acp-0.101.0']);
    const { fakeAnthropic } = require(join(repo, 'out/test/compat/fakeModels.js'));
    const { CLAUDE_CODE_ACP, CLAUDE_AGENT_ACP_101, claudeCodeEnv, claudeAgentEnv } = require(
      join(repo, 'out/test/compat/agentPaths.js'),
    );
    for (const a of both) a.model = await fakeAnthropic(a.steps);
    const home = () => {
      homes.push(realpathSync(mkdtempSync(join(tmpdir(), 'tandem-e2e-wt-home-'))));
      return homes.at(-1);
    };
    return {
      'tandem.agents': [
        {
          name: agents.code.agent,
          command: process.execPath,
          args: [CLAUDE_CODE_ACP],
          env: claudeCodeEnv(agents.code.model, home()),
        },
        // claude-agent-acp needs Node ≥ 22: the Node 24 the harness installed.
        {
          name: agents.agent.agent,
          command: installPaths().node24,
          args: [CLAUDE_AGENT_ACP_101],
          env: claudeAgentEnv(agents.agent.model, home()),
        },
      ],
      'tandem.defaultAgent': agents.code.agent,
    };
  },
  async cleanup() {
    for (const a of both) await a.model?.close();
    for (const h of homes) rmSync(h, { recursive: true, force: true });
  },
  tests: [
    {
      name: 'claude-code-acp and claude-agent-acp edit one file in two worktrees at once; a waiting prompt is answered from the Sessions view; the user’s tree is unchanged',
      timeoutMs: 240_000,
      async run({ page, view, openTandemView, screenshot, log }) {
        for (const a of both) {
          a.worktree = await openInWorktree(page, a);
          a.steps.push(...a.stepsIn(a.worktree, a));
          log(`${a.agent}: ${a.worktree}`);
        }
        await openTandemView();
        await widenSideBar(page);
        for (const a of both) await tabOf(view, a).waitFor({ timeout: 90_000 });

        // One prompt each, the second while the first is held at its model.
        const asked = [];
        for (const a of both) {
          await show(view, a);
          const before = a.model.requests.length;
          await sendPrompt(view, PROMPT, { timeout: 60_000 });
          await until(() => a.model.requests.length > before, 60_000, `${a.agent} asking its model`, 100);
          asked.push(Date.now());
        }
        log(`the second agent asked its model ${asked[1] - asked[0]} ms after the first (each holds ${HOLD_MS} ms)`);
        const pane = await sessionsPane(page);
        await pane.locator('.monaco-list-row', { hasText: 'Running (2)' }).waitFor({ timeout: 10_000 });
        for (const a of both) {
          const row = overviewRow(pane, a);
          await row.waitFor({ timeout: 5_000 });
          const text = (await row.innerText()).replace(/\s+/g, ' ');
          if (!/running \d+ s/.test(text)) throw new Error(`the Sessions view shows ${a.agent}'s turn as: ${text}`);
        }
        log(`screenshot: ${await screenshot('e2e-worktree-claude-running')}`);

        const fromBackground = await answerPrompts({
          view,
          pane,
          // The model was asked for its closing reply: the edit is done.
          done: () => both.every((a) => a.model.requests.length > a.steps.findIndex((s) => s.text === a.edited)),
          onBackground: async () => log(`screenshot: ${await screenshot('e2e-worktree-claude-needs-you')}`),
        });
        log(
          `prompts answered from the Sessions view while another session was shown: ${JSON.stringify(fromBackground)}`,
        );
        if (!fromBackground.length)
          throw new Error('no permission prompt of a session in the background was listed as waiting');
        for (const a of both) {
          await show(view, a);
          await agentReply(view, a.edited, { timeout: 60_000 });
          await view.locator('[data-testid="composer-input"]:not([disabled])').waitFor({ timeout: 30_000 });
        }
        if (read(workspace) !== ORIGINAL) throw new Error(`the user's notes.txt changed: ${read(workspace)}`);
        const status = git(workspace, 'status', '--porcelain');
        if (status) throw new Error(`the user's tree changed: ${status}`);
        log(`screenshot: ${await screenshot('e2e-worktree-claude-both-done')}`);
      },
    },
    {
      name: 'after a window reload both worktree sessions are back on their branches with their turns, and run commands in their worktrees',
      timeoutMs: 240_000,
      async run({ page, view, openTandemView, screenshot, log }) {
        await page.reload({ waitUntil: 'domcontentloaded' });
        await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
        await openTandemView();
        await widenSideBar(page);
        for (const a of both) await tabOf(view, a).waitFor({ timeout: 120_000 });
        const pane = await sessionsPane(page);
        for (const a of both) await overviewRow(pane, a).waitFor({ timeout: 30_000 });
        for (const a of both) {
          await show(view, a);
          await view.locator('[data-testid="message-user"]', { hasText: PROMPT }).first().waitFor({ timeout: 60_000 });
          await agentReply(view, a.edited, { timeout: 30_000 });
        }
        log(`screenshot: ${await screenshot('e2e-worktree-claude-after-reload')}`);

        // Each session's commands run in its worktree: `pwd` answers with the worktree's path.
        for (const a of both) {
          await show(view, a);
          a.requestsBeforePwd = a.model.requests.length;
          await sendPrompt(view, PWD_PROMPT, { timeout: 60_000 });
          await until(() => a.model.requests.length > a.requestsBeforePwd, 60_000, `${a.agent} asking its model`, 100);
        }
        await answerPrompts({
          view,
          pane,
          // Past the `pwd` step: the model got its result and gave the last reply.
          done: () => both.every((a) => a.model.requests.length >= a.requestsBeforePwd + 2),
        });
        for (const a of both) {
          const out = toolResultIn(a.model.requests[a.requestsBeforePwd + 1]);
          log(`${a.agent} pwd: ${JSON.stringify(out)}`);
          // The agents wrap the command's output in lines of their own (exit code, reminders): pwd's is a line of it.
          if (!out?.split('\n').some((line) => line.trim() === a.worktree))
            throw new Error(`${a.agent} ran pwd in ${JSON.stringify(out)}, not ${a.worktree}`);
          await show(view, a);
          await agentReply(view, a.pwdDone, { timeout: 60_000 });
        }
        if (read(workspace) !== ORIGINAL) throw new Error(`the user's notes.txt changed: ${read(workspace)}`);
        log(`screenshot: ${await screenshot('e2e-worktree-claude-pwd')}`);
      },
    },
    {
      name: 'applying one worktree merges it; applying the other opens the conflict in the merge editor, and Abort undoes it',
      timeoutMs: 180_000,
      async run({ page, view, screenshot, log }) {
        const [first, second] = both;
        await show(view, first);
        await runCommand(page, 'Tandem: Apply Worktree to My Workspace…');
        await answer(page, 'Merge', { pick: 'Merge' });
        await until(() => read(workspace) === editedBy(first.agent), 30_000, `${first.branch} merged`, 100);

        await show(view, second);
        await runCommand(page, 'Tandem: Apply Worktree to My Workspace…');
        await answer(page, 'Merge', { pick: 'Merge' });
        const mergeTab = page.locator('.tab', { hasText: 'Merging: notes.txt' }).first();
        await mergeTab.waitFor({ timeout: 30_000 });
        // Git's stages, not the file: VS Code's auto save (on by default in a browser) may already
        // have written the merge editor's unresolved result over the markers.
        const unmerged = git(workspace, 'diff', '--name-only', '--diff-filter=U');
        if (unmerged !== 'notes.txt') throw new Error(`unmerged after the second apply: ${JSON.stringify(unmerged)}`);
        for (const [stage, a] of [
          [2, first],
          [3, second],
        ])
          if (git(workspace, 'show', `:${stage}:notes.txt`) !== editedBy(a.agent).trimEnd())
            throw new Error(`stage ${stage} of notes.txt is not ${a.agent}'s version`);
        // The merge editor fills its panes a moment after the tab appears: both sides shown.
        for (const side of ['by Claude Code', 'by Claude Agent'])
          await page.locator('.monaco-editor .view-lines', { hasText: side }).first().waitFor({ timeout: 20_000 });
        log(`tabs: ${JSON.stringify(await page.locator('.tab').allInnerTexts())}`);
        log(`screenshot: ${await screenshot('e2e-worktree-claude-merge')}`);

        // Abort in the conflict message; closing a merge editor with its conflict unhandled makes
        // VS Code ask first, and the user says to close it.
        const conflict = await notification(page, 'conflicted file', { timeout: 20_000 });
        await conflict.locator('.monaco-button', { hasText: 'Abort' }).click();
        const closeAnyway = page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Close with Conflicts' });
        let asked = false;
        await until(
          async () => {
            if (await closeAnyway.count()) {
              asked = true;
              await closeAnyway.click({ timeout: 2_000 }).catch(() => {});
            }
            return !existsSync(join(workspace, '.git', 'MERGE_HEAD'));
          },
          30_000,
          'the merge aborted',
          100,
        );
        log(`VS Code asked before closing the merge editor: ${asked}`);
        await until(
          () => read(workspace) === editedBy(first.agent) && git(workspace, 'status', '--porcelain') === '',
          30_000,
          "the user's tree back at the first merge",
          100,
        );
        await mergeTab.waitFor({ state: 'detached', timeout: 20_000 });
        log(`after Abort: ${JSON.stringify(read(workspace))}`);
      },
    },
  ],
};
