// A session's life around slow or sudden events, in the real VS Code: a new session that takes
// the agent seconds to open (claude-code-acp: 3–5 s) keeps what the user types for it and sends
// nothing to the old one; a turn running when the window reloads comes back marked interrupted,
// with Resend; and the agent does not outlive an extension host killed with SIGKILL.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  agentReply,
  notification,
  openTandemView,
  runCommand,
  sendPrompt,
  scriptedAgentSettings,
} from '../harness/codeServer.mjs';
// The tests' one polling wait, test/support/until.ts, as the build transpiles it (out/ exists
// whenever e2e runs: the scripted agent runs from there too).
import { until } from '../../out/test/support/until.js';

const dir = mkdtempSync(join(tmpdir(), 'tandem-e2e-lifecycle-'));
const SCRIPT = join(dir, 'lifecycle-agent.json');
writeFileSync(
  SCRIPT,
  JSON.stringify({
    name: 'lifecycle',
    initialize: { agentCapabilities: { loadSession: true } },
    // The first session opens at once, every later one after 3 s.
    newSession: { steps: [{ branch: 'n', cases: { 1: [] }, else: [{ sleep: 3000 }] }] },
    prompts: [
      { match: 'slow old', steps: [{ stream: 'OLD-TURN-RUNNING' }, { sleep: 9000 }, { stream: ' OLD-TURN-DONE' }] },
      { match: 'typed while opening', steps: [{ stream: 'NEW-SESSION-REPLY' }] },
      {
        match: 'reload me',
        steps: [{ stream: 'RELOAD-TURN-RUNNING' }, { sleep: 8000 }, { stream: ' RELOAD-TURN-FINISHED' }],
      },
      { match: 'hang', steps: [{ stream: 'WORKING-FOREVER' }, { hang: true }] },
    ],
  }),
);

/** Every live (non-zombie) process's pid, parent and argv. */
function processes() {
  const out = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (rest[0] === 'Z' || rest[0] === 'X') continue;
      const argv = readFileSync(`/proc/${e}/cmdline`, 'utf8').split('\0').filter(Boolean);
      out.push({ pid: Number(e), ppid: Number(rest[1]), pgid: Number(rest[2]), argv });
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

const agents = () =>
  processes().filter((p) => p.argv.some((a) => a.includes('scripted-agent')) && p.argv.includes(SCRIPT));

export default {
  userSettings: scriptedAgentSettings(SCRIPT, { name: 'Lifecycle' }),
  tests: [
    {
      name: 'a slow new session shows that it is opening, keeps what is typed for it, and points back to the running turn',
      timeoutMs: 90_000,
      async run({ page, view, screenshot, log }) {
        await openTandemView(page);
        await sendPrompt(view, 'slow old');
        await agentReply(view, 'OLD-TURN-RUNNING');
        // New Session lives in the view's title bar (VS Code's own toolbar), as in the palette.
        await runCommand(page, 'Tandem: New Session');
        await view
          .locator('[data-testid="starting"]', { hasText: 'Opening a new session…' })
          .waitFor({ timeout: 5_000 });
        const input = view.locator('[data-testid="composer-input"]');
        await input.fill('typed while opening');
        await input.press('Enter');
        log(`screenshot: ${await screenshot('e2e-lifecycle-new-session-opening')}`);
        // Enter while it opens: the composer says the prompt waits for the new session.
        await view.locator('.composer-note', { hasText: 'goes out once it is open' }).waitFor({ timeout: 5_000 });
        // The new session is there: the prompt went to it, nothing to the old session.
        await view.locator('[data-testid="starting"]').waitFor({ state: 'detached', timeout: 10_000 });
        const tabs = view.locator('[data-testid="session-tab"]');
        // The tab strip is a lazy chunk: wait for the second tab before counting.
        await tabs.nth(1).waitFor({ timeout: 10_000 });
        if ((await tabs.count()) !== 2) throw new Error(`tabs: ${await tabs.count()}`);
        await agentReply(view, 'NEW-SESSION-REPLY');
        const prompts = await view.locator('[data-testid="message-user"]').allInnerTexts();
        if (JSON.stringify(prompts) !== JSON.stringify(['typed while opening']))
          throw new Error(`the new session shows prompts ${JSON.stringify(prompts)}`);
        // The old session's turn goes on in its tab; the notification leads back to it.
        const item = await notification(page, 'is still working in its own tab');
        log(`screenshot: ${await screenshot('e2e-lifecycle-new-session-opened')}`);
        await item.locator('.monaco-button', { hasText: 'Show It' }).click();
        await agentReply(view, 'OLD-TURN-DONE', { timeout: 20_000 });
        const old = (await view.locator('[data-testid="message-user"]').allInnerTexts()).join('|');
        if (old.includes('typed while opening')) throw new Error(`the old session got the new prompt: ${old}`);
      },
    },
    {
      name: 'a turn running when the window reloads is shown again, marked interrupted, and Resend sends it again',
      timeoutMs: 120_000,
      async run({ page, view, screenshot, log }) {
        await openTandemView(page);
        await sendPrompt(view, 'reload me');
        await agentReply(view, 'RELOAD-TURN-RUNNING');
        await page.reload({ waitUntil: 'domcontentloaded' });
        await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
        await openTandemView(page);
        // The scripted agent's session/load replays nothing (as claude-code-acp drops the prompt).
        await view
          .locator('[data-testid="turn-error"]', {
            hasText: 'Interrupted: the window reloaded before the answer finished.',
          })
          .waitFor({ timeout: 30_000 });
        await view.locator('[data-testid="message-user"]', { hasText: 'reload me' }).waitFor({ timeout: 5_000 });
        log(`screenshot: ${await screenshot('e2e-lifecycle-reload-interrupted')}`);
        const item = await notification(page, 'the window reloaded before the answer to "reload me" finished');
        await item.locator('.monaco-button', { hasText: 'Resend' }).click();
        await agentReply(view, 'RELOAD-TURN-FINISHED', { timeout: 30_000 });
        // The interrupted turn (folded now) and the resent one.
        const prompts = await view.locator('[data-testid="turn"]', { hasText: 'reload me' }).count();
        if (prompts !== 2)
          throw new Error(`"reload me" shown ${prompts} times (the interrupted one and the resent one)`);
        log(`screenshot: ${await screenshot('e2e-lifecycle-reload-resent')}`);
      },
    },
    {
      // Last in this file: the window has no extension host afterwards.
      name: "the extension host killed with SIGKILL takes the agent's process group with it",
      timeoutMs: 60_000,
      async run({ page, view, log }) {
        await openTandemView(page);
        await sendPrompt(view, 'hang');
        await agentReply(view, 'WORKING-FOREVER');
        const [agent, ...more] = agents();
        if (!agent || more.length) throw new Error(`expected one agent, found ${agents().length}`);
        const host = processes().find((p) => p.pid === agent.ppid);
        if (!host?.argv.join(' ').includes('extensionHost'))
          throw new Error(`the agent's parent is not an extension host: ${host?.argv.join(' ')}`);
        // The host's one watchdog (src/acp/hostWatchdog.ts): marked, with the host's pid after the mark.
        const watchdog = processes().find(
          (p) =>
            p.argv.includes('tandem-watchdog') && p.argv[p.argv.indexOf('tandem-watchdog') + 1] === String(host.pid),
        );
        if (!watchdog) throw new Error('no watchdog for the extension host');
        log(`agent ${agent.pid}, extension host ${host.pid}, watchdog ${watchdog.pid}: SIGKILL to the host`);
        execFileSync('kill', ['-KILL', String(host.pid)]);
        const killedAt = Date.now();
        await until(
          () => !processes().some((p) => p.pgid === agent.pid || p.pid === watchdog.pid),
          10_000,
          `agent group ${agent.pid} and watchdog ${watchdog.pid} to be gone`,
          100,
        );
        log(`agent group and watchdog gone ${Date.now() - killedAt} ms after the kill`);
      },
    },
  ],
};
