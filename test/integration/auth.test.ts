/// <reference types="mocha" />
// Sign-in (issue 7) in the real VS Code: an agent that answers "authentication required" shows
// the sign-in state; the QuickPick path (`authenticate`) and the terminal path (the agent's own
// login run in a VS Code terminal, then a reconnect) both lead to a working session.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Controller } from '../../src/vscode/controller';

const ID = 'tandem-dev.tandem';

function until(pred: () => boolean, ms: number, what: string): Promise<void> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const tick = () => (pred() ? resolve() : Date.now() - t0 > ms ? reject(new Error(`timed out waiting for ${what}`)) : setTimeout(tick, 50));
    tick();
  });
}

/** Runs a command showing a QuickPick and picks the item `down` rows below the first. */
async function runPicking(command: string, down: number): Promise<void> {
  let done = false;
  const p = Promise.resolve(vscode.commands.executeCommand(command)).finally(() => { done = true; });
  const t0 = Date.now();
  while (!done && Date.now() - t0 < 20_000) {
    await new Promise((r) => setTimeout(r, 300));
    for (let i = 0; i < down && !done; i++) await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    if (!done) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    // A picked terminal method keeps the command running until the login terminal closes.
    if (vscode.window.terminals.some((t) => t.name.includes('Sign in in a terminal'))) break;
  }
  await p;
}

suite('sign-in (auth methods)', () => {
  let ctl: Controller;
  const marker = join(mkdtempSync(join(tmpdir(), 'tandem-auth-')), 'marker');

  suiteSetup(async function () {
    this.timeout(60_000);
    const ext = vscode.extensions.getExtension<{ controller: Controller }>(ID)!;
    ctl = (await ext.activate()).controller;
    const agentJs = join(ext.extensionPath, 'out', 'test', 'fixtures', 'agents', 'auth-agent.js');
    await vscode.workspace.getConfiguration('tandem').update('agents', [{ name: 'Auth', command: process.execPath, args: [agentJs], env: { AUTH_MARKER: marker, ELECTRON_RUN_AS_NODE: '1' } }], vscode.ConfigurationTarget.Global);
  });

  suiteTeardown(async () => { await ctl?.stop(); rmSync(marker, { force: true }); });

  test('authentication required: the sign-in state lists the agent\'s methods', async () => {
    await ctl.start('Auth');
    assert.equal(ctl.agent.state, 'auth', ctl.agent.message);
    assert.deepEqual(ctl.agent.authMethods?.map((m) => [m.id, m.terminal]), [['browser-login', false], ['terminal-login', true]]);
    assert.equal(ctl.current?.session, undefined);
  });

  test('QuickPick path: choosing the agent method authenticates and opens a working session', async function () {
    this.timeout(40_000);
    await runPicking('tandem.signIn', 0);
    await until(() => ctl.agent.state === 'ready', 15_000, 'ready after authenticate');
    await ctl.current!.prompt('who am I?');
    assert.match(JSON.stringify(ctl.snapshot().session!.turns[0].items), /Signed in \(browser\)/);
  });

  test('terminal path: the login runs in a VS Code terminal, then Tandem reconnects', async function () {
    this.timeout(60_000);
    await ctl.restart();
    assert.equal(ctl.agent.state, 'auth');
    await runPicking('tandem.signIn', 1);
    await until(() => existsSync(marker), 20_000, 'the terminal login to run');
    await until(() => ctl.agent.state === 'ready', 30_000, 'ready after the terminal login');
    await ctl.current!.prompt('who am I?');
    assert.match(JSON.stringify(ctl.snapshot().session!.turns[0].items), /Signed in \(terminal\)/);
  });
});
