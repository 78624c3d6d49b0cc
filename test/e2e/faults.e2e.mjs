// Fault injection in the real VS Code (issue 8): the webview reloaded mid-turn rebuilds from the
// host's snapshot (nothing lost, nothing doubled, the turn goes on), and the window reloaded
// mid-turn leaves no agent process behind and the reopened window offers the last session again
// (session/load replays it).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTandemView, runCommand, sendPrompt, scriptedAgentSettings } from '../harness/codeServer.mjs';

const dir = mkdtempSync(join(tmpdir(), 'tandem-e2e-faults-'));
const SCRIPT = join(dir, 'faults-agent.json');
writeFileSync(
  SCRIPT,
  JSON.stringify({
    name: 'faults',
    initialize: { agentCapabilities: { loadSession: true } },
    handlers: {
      'session/load': {
        steps: [
          {
            update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'the earlier prompt' } },
            sessionId: '${params.sessionId}',
          },
          {
            update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'HISTORY-RESTORED' } },
            sessionId: '${params.sessionId}',
          },
        ],
        result: {},
      },
    },
    prompts: [
      {
        match: 'slow',
        steps: [
          { stream: 'PART-A before the reload. ', chunk: 8, delayMs: 10 },
          {
            update: {
              sessionUpdate: 'tool_call',
              toolCallId: 'w1',
              title: 'Long job',
              kind: 'execute',
              status: 'in_progress',
            },
          },
          { sleep: 4000 },
          { update: { sessionUpdate: 'tool_call_update', toolCallId: 'w1', status: 'completed' } },
          { stream: 'PART-B after the reload.', chunk: 8, delayMs: 10 },
        ],
      },
      { match: 'hang', steps: [{ stream: 'WORKING-FOREVER' }, { hang: true }] },
    ],
  }),
);

/** Pids of live (non-zombie) scripted agents playing our script. */
function agentPids() {
  const out = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((l) => l.includes(SCRIPT) && l.includes('scripted-agent'))
    .map((l) => l.trim().split(/\s+/))
    .filter(([, stat]) => !stat.startsWith('Z'))
    .map(([pid]) => Number(pid));
}

async function waitFor(pred, ms, what) {
  const t0 = Date.now();
  while (Date.now() - t0 < ms) {
    if (await pred()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out: ${what}`);
}

export default {
  userSettings: scriptedAgentSettings(SCRIPT, { name: 'Faults' }),
  tests: [
    {
      name: 'webview reloaded mid-turn: rebuilt from the snapshot, the turn goes on, nothing lost or doubled',
      timeoutMs: 60_000,
      async run({ page, view, screenshot, log }) {
        await openTandemView(page);
        await sendPrompt(view, 'slow');
        await view
          .locator('[data-testid="message-agent"]', { hasText: 'PART-A before the reload.' })
          .waitFor({ timeout: 20_000 });
        await view.locator('[data-testid="tool-call"][data-id="w1"]').waitFor({ timeout: 10_000 });
        await runCommand(page, 'Developer: Reload Webviews');
        // The new document asks for a snapshot: the text so far and the running call are back.
        await view.locator('[data-testid="tool-call"][data-id="w1"]').waitFor({ timeout: 20_000 });
        await view
          .locator('[data-testid="message-agent"]', { hasText: 'PART-A before the reload.' })
          .waitFor({ timeout: 20_000 });
        // Then the patches continue the same turn.
        await view
          .locator('[data-testid="message-agent"]', { hasText: 'PART-B after the reload.' })
          .waitFor({ timeout: 20_000 });
        await view.locator('[data-testid="agent-state"]', { hasText: 'idle' }).waitFor({ timeout: 20_000 });
        const text = (await view.locator('[data-testid="message-agent"]').allInnerTexts()).join('\n');
        const count = (s) => text.split(s).length - 1;
        if (count('PART-A') !== 1 || count('PART-B') !== 1)
          throw new Error(`text lost or doubled after the reload: ${JSON.stringify(text)}`);
        const rows = await view.locator('[data-testid="tool-call"][data-id="w1"]').count();
        if (rows !== 1) throw new Error(`tool call rows: ${rows}`);
        log(`screenshot: ${await screenshot('e2e-faults-webview-reload')}`);
      },
    },
    {
      name: 'window reloaded mid-turn: no agent process left; the reopened window offers the last session',
      timeoutMs: 120_000,
      async run({ page, view, log }) {
        await openTandemView(page);
        await sendPrompt(view, 'hang');
        await view
          .locator('[data-testid="message-agent"]', { hasText: 'WORKING-FOREVER' })
          .waitFor({ timeout: 20_000 });
        const before = agentPids();
        if (before.length !== 1) throw new Error(`expected one agent, found ${before.join(', ') || 'none'}`);
        log(`agent pid ${before[0]} mid-turn; reloading the window`);
        await page.reload({ waitUntil: 'domcontentloaded' });
        await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
        // The old extension host's deactivate() kills the agent's process group.
        await waitFor(
          () => !agentPids().includes(before[0]),
          30_000,
          `agent ${before[0]} still running after the reload`,
        );
        log('old agent gone');
        await openTandemView(page);
        // The restored history (its earlier turn, folded above the interrupted one) and the
        // prompt the reload cut short, marked as such.
        await view.getByText('the earlier prompt').first().waitFor({ timeout: 30_000 });
        await view
          .getByText('Interrupted: the window reloaded before the answer finished.')
          .waitFor({ timeout: 30_000 });
        const now = agentPids();
        if (now.length !== 1 || now[0] === before[0]) throw new Error(`agents after the reload: ${now.join(', ')}`);
      },
    },
  ],
};
