// A subagent's tool calls in the real VS Code: the scripted agent (test/fixtures/scripts/
// e2e-subagents.json) starts an Agent call whose subagent makes its own calls, marked the way
// claude-agent-acp marks them (`_meta.claudeCode.parentToolUseId`). They show indented under the
// Agent call, Left arrow goes to it, and a subagent call that arrives after the next prompt
// started goes into the Agent call's (now folded) turn, not into the current one.
import { agentIdle, agentReply, focusedRow, sendPrompt, scriptedAgentSettings } from '../harness/codeServer.mjs';

const SCRIPT = 'test/fixtures/scripts/e2e-subagents.json';
const row = (view, id) => view.locator(`[data-testid="tool-call"][data-id="${id}"]`);
/** The tool rows in the DOM, in order: [id, aria-level]. */
const rows = (view) =>
  view
    .locator('[data-testid="tool-call"]')
    .evaluateAll((els) => els.map((e) => [e.dataset.id, e.getAttribute('aria-level')]));

export default {
  userSettings: scriptedAgentSettings(SCRIPT),
  tests: [
    {
      name: "a subagent's calls show under its Agent call, and Left arrow goes to it",
      timeoutMs: 60_000,
      async run({ openTandemView, view, screenshot, log }) {
        await openTandemView();
        await sendPrompt(view, 'survey');
        await agentReply(view, 'SURVEY-DONE');
        await agentIdle(view);
        const got = await rows(view);
        const want = [
          ['a', '2'],
          ['r1', '3'],
          ['g1', '3'],
          ['b', '2'],
        ];
        if (JSON.stringify(got) !== JSON.stringify(want))
          throw new Error(`rows: ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
        for (const id of ['r1', 'g1'])
          if (!/\bdepth-1\b/.test(await row(view, id).getAttribute('class'))) throw new Error(`${id} is not indented`);
        const title = await row(view, 'a').locator('[data-testid="tool-title"]').innerText();
        if (!/Agent \(Explore\)/.test(title)) throw new Error(`Agent call title: ${JSON.stringify(title)}`);
        await row(view, 'g1').focus();
        await row(view, 'g1').press('ArrowLeft');
        // ArrowLeft on a subagent's call goes to its Agent call.
        await focusedRow(view, 'a');
        log(`screenshot: ${await screenshot('e2e-subagents')}`);
      },
    },
    {
      name: "a subagent's call after the next prompt started goes into its Agent call's turn",
      timeoutMs: 60_000,
      async run({ view }) {
        await sendPrompt(view, 'later');
        await agentReply(view, 'LATER-REPLY');
        await row(view, 'own').waitFor({ timeout: 20_000 });
        await agentIdle(view);
        if (await row(view, 'r3').count()) throw new Error('the late subagent call shows in the current turn');
        const first = view.locator('[data-testid="turn"][data-turn="0"]');
        if ((await first.getAttribute('data-collapsed')) !== 'true') throw new Error('the first turn should be folded');
        // The line's start (its chevron): the prompt's Edit and resend button sits further along it.
        await first.locator('.turn-line').click({ position: { x: 6, y: 6 } });
        await row(view, 'r3').waitFor({ timeout: 10_000 });
        const got = (await rows(view)).map(([id, level]) => `${id}:${level}`).join(' ');
        if (got !== 'a:2 r1:3 g1:3 r3:3 b:2 own:2') throw new Error(`rows after unfolding: ${got}`);
      },
    },
  ],
};
