/// <reference types="mocha" />
// Starting the agent in the real VS Code: starts that overlap (the view opening while a command
// or a restart starts one) leave exactly one agent process, and stop leaves none.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import type { Controller } from '../../src/vscode/agent/controller';
import { activateTandem, configureScriptedAgent, until } from './helpers';

/** Processes whose command line contains `marker` (Linux /proc). */
function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(marker)) pids.push(Number(d));
    } catch {
      /* gone */
    }
  }
  return pids;
}

suite('agent start', () => {
  let ctl: Controller;
  let script: string;

  suiteSetup(async function () {
    this.timeout(30_000);
    const t = await activateTandem();
    ctl = t.api.controller;
    // The script's path is unique to this suite: it marks this suite's agent processes.
    script = await configureScriptedAgent(t.extensionPath, 'Starter', {
      name: 'start',
      defaultPrompt: { steps: [{ stream: 'ok' }] },
    });
  });

  suiteTeardown(async () => {
    await ctl?.stop();
  });

  test('overlapping starts leave one agent process; stop leaves none', async function () {
    this.timeout(30_000);
    await Promise.all([ctl.start('Starter'), ctl.start('Starter'), ctl.ensureStarted(), ctl.start('Starter')]);
    assert.equal(ctl.agent.state, 'ready', ctl.agent.message);
    assert.equal(ctl.agent.name, 'Starter');
    // A process the overlapping starts spawned and lost would still be running now.
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(processesWith(script).length, 1, `agent processes: ${processesWith(script).join(', ')}`);
    await ctl.stop();
    await until(() => processesWith(script).length === 0, 5000, 'the agent to exit');
  });
});
