// The narrow view's layout in the real VS Code: a scripted agent (test/fixtures/scripts/
// e2e-layout.json) advertises claude-agent-acp's five config options and titles every session
// "Fix the build". The composer keeps its pickers on one row, clear of Cancel and Queue while a
// turn runs; an edit's permission prompt names the file, shows the proposed diff (Open diff opens
// VS Code's diff editor) and makes Allow the primary button; claude-agent-acp-like rows read
// workspace-relative with the command as the terminal's title; a long error wraps; many sessions
// keep the active tab in view.
import { runCommand, sendPrompt, scriptedAgentSettings } from '../harness/codeServer.mjs';
// The tests' one polling wait, test/support/until.ts, as the build transpiles it (out/ exists
// whenever e2e runs: the scripted agent runs from there too).
import { until } from '../../out/test/support/until.js';

const SCRIPT = 'test/fixtures/scripts/e2e-layout.json';

async function box(locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not laid out');
  return b;
}

export default {
  userSettings: scriptedAgentSettings(SCRIPT),
  tests: [
    {
      name: "claude-agent-acp's pickers read whole in the narrow view; the rest open from the settings button",
      timeoutMs: 60_000,
      async run({ openTandemView, view, screenshot, log }) {
        await openTandemView();
        await view.locator('[data-testid="composer-input"]:not([disabled])').waitFor({ timeout: 30_000 });
        await view.locator('[data-testid="config-model"]').waitFor({ timeout: 10_000 });
        const mode = await box(view.locator('[data-testid="config-mode"]'));
        const more = await box(view.locator('[data-testid="more-pickers"]'));
        // Two of the five are in view (mode, model); in a narrow view they wrap rather than cut.
        log(`mode at y ${Math.round(mode.y)}, settings button at y ${Math.round(more.y)}`);
        const pickers = await box(view.locator('.pickers'));
        log(`pickers row: ${Math.round(pickers.height)} px high, ${Math.round(pickers.width)} px wide`);
        // Each shown picker's chosen value reads ("Manual", not "Man…"): a short one whole, a long one
        // ("Default (recommended)") for at least its first ten characters beside the arrow.
        const clipped = await view.locator('select.picker').evaluateAll((selects) =>
          selects
            .map((s) => {
              const ctx = document.createElement('canvas').getContext('2d');
              ctx.font = s.ownerDocument.defaultView.getComputedStyle(s).font;
              const text = s.options[s.selectedIndex]?.text ?? '';
              const width = ctx.measureText(text).width;
              const shown = Math.floor((text.length * Math.max(0, s.clientWidth - 24)) / Math.max(1, width));
              return { text, shown: Math.min(shown, text.length) };
            })
            .filter((p) => p.shown < Math.min(p.text.length, 10)),
        );
        if (clipped.length) throw new Error(`pickers cut: ${JSON.stringify(clipped)}`);
        log(`screenshot: ${await screenshot('e2e-layout-pickers')}`);
        await view.locator('[data-testid="more-pickers"]').click();
        await view.locator('[data-testid="config-ultracode"]').waitFor({ timeout: 5_000 });
        const open = await box(view.locator('.pickers'));
        log(`pickers opened: ${Math.round(open.height)} px high`);
        log(`screenshot: ${await screenshot('e2e-layout-pickers-open')}`);
        await view.locator('[data-testid="more-pickers"]').click();
      },
    },
    {
      name: 'while a turn runs, Cancel and Queue stay clear of the pickers, which keep their width',
      timeoutMs: 60_000,
      async run({ view, screenshot, log }) {
        await sendPrompt(view, 'hold on');
        const cancel = view.locator('[data-testid="cancel"]');
        await cancel.waitFor({ timeout: 20_000 });
        // All in the page's coordinates, as the user sees them.
        const buttons = await box(view.locator('.composer-buttons'));
        const row = await box(view.locator('.pickers'));
        const pickers = [];
        for (const p of await view.locator('.pickers select, [data-testid="more-pickers"]').all()) {
          const b = await box(p);
          pickers.push({ id: await p.getAttribute('data-testid'), x: b.x, y: b.y, w: b.width, h: b.height });
        }
        log(`buttons ${JSON.stringify(buttons)}; pickers ${JSON.stringify(pickers)}`);
        const under = pickers.filter(
          (p) =>
            p.x < buttons.x + buttons.width &&
            buttons.x < p.x + p.w &&
            p.y < buttons.y + buttons.height &&
            buttons.y < p.y + p.h,
        );
        if (under.length) throw new Error(`under the buttons: ${under.map((p) => p.id)}`);
        const out = pickers.filter((p) => p.x + p.w > row.x + row.width + 1);
        if (out.length) throw new Error(`past the pickers' row: ${out.map((p) => p.id)}`);
        log(`screenshot: ${await screenshot('e2e-layout-running')}`);
        await cancel.click();
        await cancel.waitFor({ state: 'detached', timeout: 20_000 });
      },
    },
    {
      name: 'an edit prompt names the file, shows the proposed diff, and Allow is the primary button',
      timeoutMs: 60_000,
      async run({ page, view, screenshot, log }) {
        await sendPrompt(view, 'edit please');
        const p = view.locator('[data-testid="tool-call"][data-id="e1"] [data-testid="permission-prompt"]');
        await p.waitFor({ timeout: 20_000 });
        const q = await p.locator('[data-testid="permission-question"]').innerText();
        if (q !== 'Edit edit-me.txt?') throw new Error(`question: ${JSON.stringify(q)}`);
        const diff = p.locator('[data-testid="diff"]');
        await diff.waitFor({ timeout: 10_000 });
        const text = await diff.innerText();
        if (!/hello ACP/.test(text) || !/third line, edited/.test(text)) throw new Error(`diff: ${text}`);
        const kinds = await p
          .locator('[data-testid="permission-option"]')
          .evaluateAll((bs) => bs.map((b) => `${b.dataset.kind}${b.classList.contains('secondary') ? '' : '*'}`));
        if (kinds.join(' ') !== 'allow_once* allow_always reject_once') throw new Error(`buttons: ${kinds}`);
        log(`screenshot: ${await screenshot('e2e-layout-permission-diff')}`);
        await diff.locator('[data-testid="open-diff"]').click();
        await page.locator('.tabs-container .tab.active', { hasText: 'edit-me.txt' }).waitFor({ timeout: 10_000 });
        log(`diff editor tab: ${await page.locator('.tabs-container .tab.active').first().innerText()}`);
        log(`screenshot: ${await screenshot('e2e-layout-permission-open-diff')}`);
        await p.locator('[data-kind="allow_once"]').click();
        await view.locator('[data-testid="message-agent"]', { hasText: 'edit answer: allow-once' }).waitFor();
      },
    },
    {
      name: 'rows read workspace-relative, the terminal is titled with its command, a long error wraps',
      timeoutMs: 60_000,
      async run({ view, screenshot, log }) {
        await sendPrompt(view, 'search and build');
        const error = view.locator('[data-testid="turn-error"]').last();
        await error.waitFor({ timeout: 20_000 });
        const grep = await view
          .locator('[data-testid="tool-call"][data-id="g1"] [data-testid="tool-title"]')
          .innerText();
        if (grep.trim() !== 'Search "needle"') throw new Error(`search title: ${JSON.stringify(grep)}`);
        const bash = view.locator('[data-testid="tool-call"][data-id="b1"]');
        await until(
          async () => {
            if ((await bash.getAttribute('aria-expanded')) !== 'true') await bash.locator('.twisty').click();
            return (await bash.locator('.terminal-command').count()) > 0;
          },
          10_000,
          'the Bash row expanded',
          100,
        );
        const cmd = await bash.locator('.terminal-command').innerText();
        if (cmd !== 'npm run build') throw new Error(`terminal title: ${JSON.stringify(cmd)}`);
        const fits = await error.evaluate((e) => e.scrollWidth <= e.clientWidth + 1);
        if (!fits) throw new Error('the error line is clipped');
        log(`screenshot: ${await screenshot('e2e-layout-rows-error')}`);
      },
    },
    {
      name: 'many sessions: tabs told apart, the active one in view, the list reaches all',
      timeoutMs: 120_000,
      async run({ page, view, screenshot, log }) {
        for (let i = 0; i < 7; i++) {
          const before = await view.locator('[data-testid="session-tab"]').count();
          await runCommand(page, 'Tandem: New Session');
          await view.locator('[data-testid="session-tab"]').nth(Math.max(before, 1)).waitFor({ timeout: 20_000 });
        }
        const labels = await view.locator('[data-testid="session-tab"]').allInnerTexts();
        log(`tabs: ${JSON.stringify(labels)}`);
        if (new Set(labels).size !== labels.length) throw new Error(`tabs share a label: ${labels}`);
        const strip = await box(view.locator('.session-tab-strip'));
        const inView = async () => {
          const t = await box(view.locator('.session-tab.active'));
          return t.x >= strip.x - 1 && t.x + t.width <= strip.x + strip.width + 1;
        };
        await until(inView, 5_000, 'the active tab scrolled into view', 100);
        log(`screenshot: ${await screenshot('e2e-layout-tabs')}`);
        const list = view.locator('[data-testid="session-list"]');
        const first = await list.locator('option').first().getAttribute('value');
        await list.selectOption(first);
        await view.locator('.session-tab.active [data-testid="session-tab"]', { hasText: labels[0] }).waitFor({
          timeout: 10_000,
        });
        await until(inView, 5_000, 'the first tab scrolled into view', 100);
        log(`screenshot: ${await screenshot('e2e-layout-tabs-first')}`);
      },
    },
  ],
};
