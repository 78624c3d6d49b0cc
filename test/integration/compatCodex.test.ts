/// <reference types="mocha" />
// codex-acp through the real extension: a command's output streams into its row while the command
// runs (codex-acp 2.6.0 sends `_meta.terminal_output_delta` chunks, one per line here), not all at
// once when it ends. What is counted is what the view is sent (the patches viewFeed posts).
//
// Compat layer only (TANDEM_COMPAT=1, `node test/compat/run.mjs`): it needs the installed agent.
import * as assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import * as vscode from 'vscode';
import type { Patch } from '../../src/shared/sessionModel';
import { fakeResponses, type FakeServer } from '../compat/fakeModels';
import { CACHE, CODEX_ACP, codexArgs, codexEnv, codexHome, codexSandboxProblem } from '../compat/agentPaths';
import { activateTandem, type TestedTandem } from './helpers';

/** Four lines, 0.3 s apart: each its own chunk. It starts quiet: Codex's app server never sends what
 *  a command wrote before it reported the command started. */
const LOOP = 'sleep 0.5; for i in 1 2 3 4; do echo line-$i; sleep 0.3; done';

if (process.env.TANDEM_COMPAT === '1') {
  suite('compat: codex-acp through the real extension', function () {
    this.timeout(180_000);
    let api: TestedTandem;
    const models: FakeServer[] = [];
    const homes: string[] = [];

    suiteSetup(async function () {
      this.timeout(60_000);
      api = (await activateTandem()).api;
    });

    teardown(async () => {
      await api?.controller.stop();
      while (models.length) await models.pop()!.close();
    });

    suiteTeardown(async () => {
      for (const h of homes) rmSync(h, { recursive: true, force: true });
      await vscode.workspace.getConfiguration('tandem').update('agents', undefined, vscode.ConfigurationTarget.Global);
    });

    test("codex-acp 2.6.0: a command's output reaches its row line by line while the command runs", async function () {
      if (!existsSync(CODEX_ACP)) {
        console.log(`[compat] skipped: codex-acp 2.6.0 is not installed in ${CACHE}: run node test/compat/run.mjs`);
        this.skip();
      }
      const sandbox = codexSandboxProblem();
      assert.equal(sandbox, undefined, sandbox);
      const model = await fakeResponses([
        { tool: 'exec_command', input: { cmd: LOOP, yield_time_ms: 10000 } },
        { text: 'Printed four lines.' },
      ]);
      models.push(model);
      const home = codexHome();
      homes.push(home);
      const ctl = api.controller;
      await vscode.workspace
        .getConfiguration('tandem')
        .update(
          'agents',
          [{ name: 'Codex', command: process.execPath, args: codexArgs(), env: codexEnv(home, model) }],
          vscode.ConfigurationTarget.Global,
        );
      await ctl.start('Codex');
      assert.equal(ctl.agent.state, 'ready', `Codex did not start: ${ctl.agent.message}`);

      // Each batch of patches the view is sent: the call's output chunks, and when the call ended.
      const t0 = Date.now();
      const chunks: { data: string; ms: number }[] = [];
      let callId: string | undefined;
      let terminalId: string | undefined;
      let endedAt: number | undefined;
      let chunksBeforeEnd = 0;
      const sub = ctl.onDidChangeSession(({ patches }: { patches: Patch[] }) => {
        for (const p of patches) {
          if (p.op === 'tool' && p.call.kind === 'execute') {
            callId ??= p.call.toolCallId;
            terminalId ??= p.call.agentTerminalId;
            if (p.call.toolCallId === callId && (p.call.status === 'completed' || p.call.status === 'failed'))
              endedAt ??= Date.now() - t0;
          }
          if (p.op === 'terminalOutput' && p.terminalId === terminalId) {
            chunks.push({ data: p.data, ms: Date.now() - t0 });
            if (endedAt === undefined) chunksBeforeEnd++;
          }
        }
      });
      try {
        await ctl.current!.prompt('Print four lines, slowly');
      } finally {
        sub.dispose();
      }
      const snap = ctl.snapshot().session!;
      const turn = snap.turns[snap.turns.length - 1];
      assert.equal(turn.error, undefined, `turn failed: ${turn.error}`);
      assert.deepEqual(model.unknown, []);
      console.log(`[compat] codex output chunks: ${JSON.stringify(chunks)}; the call ended at ${endedAt} ms`);
      assert.ok(callId && terminalId, 'the command has a row with its terminal');
      assert.equal(snap.terminals[terminalId].output, 'line-1\nline-2\nline-3\nline-4\n');
      assert.equal(snap.toolCalls[callId].status, 'completed');
      assert.ok(
        chunksBeforeEnd >= 3,
        `at least three output updates reached the row before the call ended: ${JSON.stringify(chunks)}, ended at ${endedAt} ms`,
      );
    });
  });
}
