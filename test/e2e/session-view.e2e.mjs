// The session view in the real VS Code: a scripted agent (test/fixtures/scripts/
// e2e-session-view.json) streams markdown and a thought, makes read / edit / write / execute
// tool calls with diffs and a live terminal (agent-side `_meta.terminal_output`), updates a
// plan, usage and title; then a slash command chosen from completion, a file @-mention, and a
// cancelled turn. Asserts the DOM; screenshots in dark and light themes.
import { focusedRow, runCommand, sendPrompt, scriptedAgentSettings } from '../harness/codeServer.mjs';

const SCRIPT = 'test/fixtures/scripts/e2e-session-view.json';
// Theme ids in VS Code 1.139 (code-server 4.139): "Dark Modern", "Light Modern", "Default High Contrast".
// Other themes: session-view-light.e2e.mjs, session-view-hc.e2e.mjs run the same turn.

export const THEMES = {
  dark: { id: 'Dark Modern', shot: 'dark' },
  light: { id: 'Light Modern', shot: 'light' },
  hc: { id: 'Default High Contrast', shot: 'high-contrast' },
};

/** The e2e spec for one theme; `only` limits it to the first tests (the other theme files). */
export function sessionViewSpec(theme, only) {
  const spec = {
    userSettings: scriptedAgentSettings(SCRIPT, { extra: { 'workbench.colorTheme': theme.id } }),
    tests: [
      {
        name: 'the view opens with commands and modes from the agent',
        timeoutMs: 60_000,
        async run({ openTandemView, view, log }) {
          await openTandemView();
          await view.locator('[data-testid="composer-input"]:not([disabled])').waitFor({ timeout: 30_000 });
          // Seen here: the agent sometimes starts before the user settings reach the extension
          // host, and the Demo agent runs instead. A restart reads the settings again.
          for (
            let i = 0;
            i < 3 && (await view.locator('[data-testid="agent-name"]').innerText()) !== 'Scripted Agent';
            i++
          ) {
            log(`agent is ${JSON.stringify(await view.locator('[data-testid="agent-name"]').innerText())}: restarting`);
            await view.locator('button[aria-label="Restart agent"]').first().click();
            await view
              .locator('[data-testid="agent-name"]', { hasText: 'Scripted Agent' })
              .waitFor({ timeout: 10_000 })
              .catch(() => {});
          }
          await view.locator('[data-testid="composer-input"]:not([disabled])').waitFor({ timeout: 30_000 });
          await view.locator('[data-testid="mode-picker"]').waitFor({ timeout: 10_000 });
        },
      },
      {
        name: 'a turn: markdown, thought, tool calls with diffs and a live terminal, plan, usage',
        timeoutMs: 60_000,
        async run({ view, page, screenshot, log }) {
          await sendPrompt(view, 'give me the tour');
          // Mid-turn: the live view (terminal streaming, plan open).
          await view
            .locator('[data-testid="tool-call"][data-id="x1"] [data-testid="terminal-screen"]')
            .waitFor({ timeout: 15_000 });
          log(`screenshot: ${await screenshot(`session-view-running-${theme.shot}`)}`);
          // While it runs: the plan is visible and the terminal streams live.
          await view.locator('[data-testid="plan"]').waitFor({ timeout: 15_000 });
          await view
            .locator('[data-testid="tool-call"][data-id="x1"] [data-testid="terminal"]')
            .waitFor({ timeout: 15_000 });
          await view
            .locator('[data-testid="message-agent"]', { hasText: 'All done: the tests pass.' })
            .waitFor({ timeout: 20_000 });
          await view
            .locator('[data-testid="tool-call"][data-id="x1"][data-status="completed"]')
            .waitFor({ timeout: 10_000 });

          // Markdown: rendered, sanitized, code block with a copy button.
          const agent = view.locator('[data-testid="message-agent"]').first();
          await agent.locator('h1', { hasText: 'Session tour' }).waitFor();
          await agent.locator('ol li').nth(2).waitFor();
          await agent.locator('.code-block [data-copy]').waitFor();
          if (await agent.locator('script').count()) throw new Error('a <script> reached the DOM');
          if (await agent.locator('a[href^="javascript:"]').count())
            throw new Error('a javascript: link reached the DOM');
          if (!(await agent.innerText()).includes('<script>alert(1)</script>'))
            throw new Error('raw HTML should show as text');

          // The thought is collapsed; it opens on click.
          const thought = view.locator('[data-testid="message-thought"]');
          if ((await thought.getAttribute('aria-expanded')) !== 'false')
            throw new Error('the thought should start collapsed');
          await thought.locator('.thought-head').click();
          await thought.locator('.thought-body', { hasText: 'read the README first' }).waitFor();

          // Tool calls: kinds, statuses, natural titles.
          const calls = view.locator('[data-testid="tool-call"]');
          const got = await calls.evaluateAll((els) =>
            els.map(
              (e) =>
                `${e.dataset.id}:${e.dataset.kind}:${e.dataset.status}:${e.querySelector('[data-testid="tool-title"]').textContent}`,
            ),
          );
          log(`tool calls: ${JSON.stringify(got)}`);
          const want = [
            'r1:read:completed:Read README.md',
            'e1:edit:completed:Edit src/math.ts',
            'w1:edit:completed:Write src/new.ts',
            'x1:execute:completed:Run the tests npm test',
          ];
          if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`tool calls: ${JSON.stringify(got)}`);

          // The edit's diff: expand, line-level colors; the new file is marked as such.
          await view.locator('[data-testid="tool-call"][data-id="e1"] .tool-head').click();
          const diff = view.locator('[data-testid="tool-call"][data-id="e1"] [data-testid="diff"]');
          await diff.waitFor();
          if (
            (await diff.locator('.diff-line-add').count()) !== 1 ||
            (await diff.locator('.diff-line-del').count()) !== 1
          )
            throw new Error('the diff should show one removed and one added line');
          // "Open diff": VS Code's own diff editor, on read-only virtual documents.
          await diff.locator('[data-testid="open-diff"]').click();
          await page.locator('.monaco-diff-editor').first().waitFor({ timeout: 15_000 });
          const tab = await page.locator('.tabs-container .tab.active').first().innerText();
          log(`diff editor tab: ${JSON.stringify(tab)}`);
          if (!/math\.ts/.test(tab)) throw new Error(`the diff editor shows ${tab}`);
          await view.locator('[data-testid="tool-call"][data-id="w1"] .tool-head').click();
          await view
            .locator(
              '[data-testid="tool-call"][data-id="w1"] [data-testid="diff"][data-new-file="true"] [data-testid="diff-new-file"]',
            )
            .waitFor();

          // The terminal: ANSI colors, the progress bar redrawn in place, exit status.
          const term = view.locator('[data-testid="tool-call"][data-id="x1"] [data-testid="terminal"]');
          await term.locator('[data-testid="terminal-exit"]', { hasText: 'exit 0' }).waitFor({ timeout: 10_000 });
          const screenText = await term.locator('[data-testid="terminal-screen"]').innerText();
          log(`terminal: ${JSON.stringify(screenText)}`);
          if (
            !screenText.includes('Progress [##########] 100%') ||
            screenText.includes('10%') ||
            screenText.includes('50%')
          )
            throw new Error('the progress bar should be redrawn in place');
          if ((await term.locator('.ansi-fg-green').count()) < 2) throw new Error('ANSI green should be rendered');

          // Plan: in place, all completed (folded once the turn is over: open it); usage and title in the header.
          if ((await view.locator('.plan-head').getAttribute('aria-expanded')) === 'false')
            await view.locator('.plan-head').click();
          const entries = await view
            .locator('[data-testid="plan-entry"]')
            .evaluateAll((els) => els.map((e) => e.dataset.status));
          if (JSON.stringify(entries) !== JSON.stringify(['completed', 'completed', 'completed']))
            throw new Error(`plan: ${entries}`);
          await view.locator('[data-testid="usage"]', { hasText: '12.3k/200k' }).waitFor();
          await view.locator('[data-testid="session-title"]', { hasText: 'Session tour' }).waitFor();
          await view.locator('[data-testid="usage"]', { hasText: '$0.42' }).waitFor();

          // The tree is a tree, with keyboard navigation.
          await view.locator('[role="tree"]').waitFor();
          const first = view.locator('[data-testid="tool-call"][data-id="r1"]');
          await first.focus();
          await first.press('ArrowDown');
          // ArrowDown should move to the next call.
          await focusedRow(view, 'e1');
          const second = view.locator('[data-testid="tool-call"][data-id="e1"]');
          await second.press('Enter');
          await view.locator('[data-testid="tool-call"][data-id="e1"][aria-expanded="false"]').waitFor();
          await second.press('Enter');
          await view.locator('[data-testid="tool-call"][data-id="e1"][aria-expanded="true"]').waitFor();

          log(`screenshot: ${await screenshot(`session-view-${theme.shot}`)}`);
        },
      },
      {
        name: 'a slash command chosen from completion, with its input hint',
        timeoutMs: 45_000,
        async run({ view, log }) {
          const input = view.locator('[data-testid="composer-input"]');
          await input.click();
          await input.fill('');
          await input.pressSequentially('/re');
          const items = view.locator('[data-testid="command-completion"] [data-testid="completion-item"]');
          await items.first().waitFor({ timeout: 10_000 });
          log(`completion: ${JSON.stringify(await items.allInnerTexts())}`);
          await input.press('Enter');
          if ((await input.inputValue()) !== '/review ')
            throw new Error(`completion gave ${JSON.stringify(await input.inputValue())}`);
          await view.locator('[data-testid="command-hint"]', { hasText: 'what to focus on' }).waitFor();
          await input.pressSequentially('the tests');
          await input.press('Enter');
          await view
            .locator('[data-testid="message-agent"]', { hasText: 'Reviewing with focus: /review the tests' })
            .waitFor({ timeout: 15_000 });
        },
      },
      {
        name: 'an @-mention of a workspace file is sent as a resource_link',
        timeoutMs: 45_000,
        async run({ view, log, screenshot }) {
          const input = view.locator('[data-testid="composer-input"]');
          await input.click();
          await input.pressSequentially('explain @mat');
          const items = view.locator('[data-testid="file-completion"] [data-testid="completion-item"]');
          await items.first().waitFor({ timeout: 15_000 });
          log(`files: ${JSON.stringify(await items.allInnerTexts())}`);
          await input.press('Enter');
          if (!(await input.inputValue()).startsWith('explain @math.ts '))
            throw new Error(`mention gave ${JSON.stringify(await input.inputValue())}`);
          await view.locator('[data-testid="attachment"][data-kind="file"]', { hasText: 'math.ts' }).waitFor();
          log(`screenshot: ${await screenshot('session-view-mention')}`);
          await input.press('Enter');
          const reply = view.locator('[data-testid="message-agent"]', { hasText: /You mentioned file:.*\(\w+\)\./ });
          await reply.waitFor({ timeout: 15_000 });
          const text = await reply.innerText();
          log(`reply: ${JSON.stringify(text)}`);
          if (!/src\/math\.ts \(resource_link\)/.test(text))
            throw new Error('the mention should arrive as a resource_link to src/math.ts');
        },
      },
      {
        name: 'cancel a running turn with Escape',
        timeoutMs: 45_000,
        async run({ view, screenshot, log }) {
          await sendPrompt(view, 'please wait');
          await view.locator('[data-testid="cancel"]').waitFor({ timeout: 10_000 });
          await view
            .locator('[data-testid="message-agent"]', { hasText: 'Working on it' })
            .waitFor({ timeout: 10_000 });
          await view.locator('[data-testid="composer-input"]').press('Escape');
          await view.locator('[data-testid="stop-reason"]', { hasText: 'Cancelled' }).waitFor({ timeout: 10_000 });
          await view.locator('[data-testid="send"]').waitFor();
          // Older turns fold; collapse all / expand all work.
          const folded = await view.locator('[data-testid="turn"][data-collapsed="true"]').count();
          log(`folded turns: ${folded}`);
          if (folded < 3) throw new Error('older turns should be folded');
          await view.locator('[data-testid="expand-all"]').click();
          await view
            .locator('[data-testid="turn"][data-collapsed="true"]')
            .first()
            .waitFor({ state: 'detached', timeout: 5000 })
            .catch(() => {});
          if (await view.locator('[data-testid="turn"][data-collapsed="true"]').count())
            throw new Error('expand all left a turn folded');
          await view.locator('[data-testid="collapse-all"]').click();
          await view.locator('[data-testid="filter-toggle"]').click();
          await view.locator('[data-testid="filter-kind-execute"]').click();
          await view.locator('[data-testid="expand-all"]').click();
          const kinds = await view
            .locator('[data-testid="tool-call"]')
            .evaluateAll((els) => els.map((e) => e.dataset.kind));
          if (!kinds.length || kinds.some((k) => k !== 'execute')) throw new Error(`filter by kind: ${kinds}`);
          log(`screenshot: ${await screenshot('session-view-filtered')}`);
        },
      },
      {
        name: 'the view hidden (its page disposed) and shown again: the unsent prompt, the filter, unfolded turns and the scroll position are kept',
        timeoutMs: 60_000,
        async run({ page, view, openTandemView, screenshot, log }) {
          // Left by the previous test: a filter (execute) and every turn unfolded. Read from the top.
          const filterOn = () => view.locator('[data-testid="filter-toggle"][aria-pressed="true"]').count();
          if (!(await filterOn())) throw new Error('expected the filter of the previous test');
          const folded = () => view.locator('[data-testid="turn"][data-collapsed="true"]').count();
          const transcript = view.locator('[data-testid="transcript"]');
          const scroll = () =>
            transcript.evaluate((el) => ({ top: el.scrollTop, height: el.scrollHeight, client: el.clientHeight }));
          await transcript.evaluate((el) => {
            el.scrollTop = 40;
            el.dispatchEvent(new Event('scroll'));
          });
          const before = {
            folded: await folded(),
            scroll: await scroll(),
            first: await view.locator('.vrow').first().getAttribute('data-key'),
          };
          log(`before: ${JSON.stringify(before)}`);
          if (before.scroll.height < before.scroll.client + 100)
            throw new Error('the transcript should be taller than the view here');
          await page.waitForTimeout(400); // the memory is saved 200 ms after a change
          const input = view.locator('[data-testid="composer-input"]');
          await input.click();
          await input.pressSequentially('draft about @mat');
          await view
            .locator('[data-testid="file-completion"] [data-testid="completion-item"]')
            .first()
            .waitFor({ timeout: 15_000 });
          await input.press('Enter');
          await input.pressSequentially('and keep this');
          const typed = await input.inputValue();
          // Hiding the view disposes its page (another view container takes the side bar).
          await runCommand(page, 'View: Show Explorer');
          await page
            .locator('.part.sidebar iframe.webview')
            .first()
            .waitFor({ state: 'detached', timeout: 10_000 })
            .catch(() => {});
          await runCommand(page, 'Tandem: Focus on Session View');
          await openTandemView();
          const again = view.locator('[data-testid="composer-input"]');
          await again.waitFor({ timeout: 20_000 });
          const value = await again.inputValue();
          log(`draft after re-show: ${JSON.stringify(value)}`);
          if (value !== typed) throw new Error(`draft lost: ${JSON.stringify(value)}, typed ${JSON.stringify(typed)}`);
          await view
            .locator('[data-testid="attachment"][data-kind="file"]', { hasText: 'math.ts' })
            .waitFor({ timeout: 5000 });
          const after = {
            folded: await folded(),
            scroll: await scroll(),
            first: await view.locator('.vrow').first().getAttribute('data-key'),
          };
          log(`after: ${JSON.stringify(after)}`);
          if (!(await filterOn())) throw new Error('the filter was lost');
          if (after.folded !== before.folded) throw new Error(`folded turns: ${after.folded}, were ${before.folded}`);
          if (Math.abs(after.scroll.top - before.scroll.top) > 30)
            throw new Error(`scrolled to ${after.scroll.top}, was at ${before.scroll.top}`);
          log(`screenshot: ${await screenshot('session-view-reshown')}`);
          await again.fill('');
        },
      },
    ],
  };
  if (only) spec.tests = spec.tests.slice(0, only);
  return spec;
}

export default sessionViewSpec(THEMES.dark);
