// Fault injection in the real VS Code (issue 8): the webview reloaded mid-turn rebuilds from the
// host's snapshot (nothing lost, nothing doubled, the turn goes on), and the window reloaded
// mid-turn leaves no agent process behind and the reopened window offers the last session again
// (session/load replays it). Last: the extension host killed with SIGKILL while the agent runs a
// long command through Tandem's terminal leaves no process of the agent or of its command.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTandemView, runCommand, sendPrompt, scriptedAgentSettings } from '../harness/codeServer.mjs';
// The tests' one polling wait, test/support/until.ts, as the build transpiles it (out/ exists
// whenever e2e runs: the scripted agent runs from there too).
import { until } from '../../out/test/support/until.js';

const dir = mkdtempSync(join(tmpdir(), 'tandem-e2e-faults-'));
const SCRIPT = join(dir, 'faults-agent.json');
const LONG_MARK = `tandem-e2e-long-${process.pid}`;
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
      {
        match: 'long command',
        steps: [
          { stream: 'RUNNING-LONG-COMMAND' },
          // Ignores SIGTERM, has a child, and is marked so `ps` finds it.
          { terminal: { command: `trap '' TERM; sleep 1000 & sleep 1000; wait # ${LONG_MARK}` } },
        ],
      },
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

/** Live (non-zombie) processes with their group and argv (`ps`). */
function processes() {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,pgid=,stat=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((l) => l.trim().match(/^(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/))
    .filter((m) => m && !m[4].startsWith('Z'))
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), pgid: Number(m[3]), args: m[5] }));
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
        await until(
          () => !agentPids().includes(before[0]),
          30_000,
          `agent ${before[0]} to be gone after the reload`,
          200,
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
    {
      // Last in this file: the window has no extension host afterwards.
      name: 'extension host killed while the agent runs a long command: no process of the agent or its command remains 5 s later',
      timeoutMs: 90_000,
      async run({ page, view, log }) {
        await openTandemView(page);
        // The session on screen is the one the reload restored, which the scripted agent only
        // replays (it takes no prompt): a new one runs the command.
        await runCommand(page, 'Tandem: New Session');
        await view.locator('[data-testid="starting"]').waitFor({ state: 'detached', timeout: 20_000 });
        await sendPrompt(view, 'long command');
        await view
          .locator('[data-testid="message-agent"]', { hasText: 'RUNNING-LONG-COMMAND' })
          .waitFor({ timeout: 20_000 });
        let command;
        await until(
          () => (command = processes().find((p) => p.args.includes(LONG_MARK))) !== undefined,
          20_000,
          'the long command to start',
          200,
        );
        const agents = agentPids();
        if (agents.length !== 1) throw new Error(`expected one agent, found ${agents.join(', ') || 'none'}`);
        const agent = processes().find((p) => p.pid === agents[0]);
        const host = processes().find((p) => p.pid === agent.ppid);
        if (!host?.args.includes('extensionHost'))
          throw new Error(`the agent's parent is not an extension host: ${host?.args}`);
        const left = () =>
          processes().filter((p) => p.pgid === agent.pgid || p.pgid === command.pgid || p.pid === agent.pid);
        log(
          `agent ${agent.pid}, command group ${command.pgid} (${left().length} processes), host ${host.pid}: SIGKILL to the host`,
        );
        execFileSync('kill', ['-KILL', String(host.pid)]);
        // Each tree's grace is 2 s (SIGTERM, then SIGKILL for what ignores it): gone well within 5 s.
        try {
          await until(() => left().length === 0, 5000, 'the agent and its command to be gone', 200);
        } catch (err) {
          throw new Error(`${err.message}: still running ${JSON.stringify(left())}`);
        }
        log('agent and command gone');
      },
    },
  ],
};
