/// <reference types="mocha" />
// Sign-in (issue 7) in the real VS Code: an agent that answers "authentication required" shows
// the sign-in state; the QuickPick path (`authenticate`) and the terminal path (the agent's own
// login run in a VS Code terminal, then a reconnect) both lead to a working session.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activateTandem, runAccepting, until } from './helpers';
import type { Controller } from '../../src/vscode/agent/controller';

suite('sign-in (auth methods)', () => {
  let ctl: Controller;
  const marker = join(mkdtempSync(join(tmpdir(), 'tandem-auth-')), 'marker');

  suiteSetup(async function () {
    this.timeout(60_000);
    const { api, extensionPath } = await activateTandem();
    ctl = api.controller;
    const agentJs = join(extensionPath, 'out', 'test', 'fixtures', 'agents', 'auth-agent.js');
    await vscode.workspace.getConfiguration('tandem').update(
      'agents',
      [
        {
          name: 'Auth',
          command: process.execPath,
          args: [agentJs],
          env: { AUTH_MARKER: marker, ELECTRON_RUN_AS_NODE: '1' },
        },
      ],
      vscode.ConfigurationTarget.Global,
    );
  });

  suiteTeardown(async () => {
    await ctl?.stop();
    rmSync(marker, { force: true });
  });

  test("authentication required: the sign-in state lists the agent's methods", async () => {
    await ctl.start('Auth');
    assert.equal(ctl.agent.state, 'auth', ctl.agent.message);
    assert.deepEqual(
      ctl.agent.authMethods?.map((m) => [m.id, m.terminal]),
      [
        ['browser-login', false],
        ['terminal-login', true],
        ['api-key', false],
      ],
    );
    assert.equal(ctl.current?.session, undefined);
  });

  test('QuickPick path: choosing the agent method authenticates and opens a working session', async function () {
    this.timeout(40_000);
    await runAccepting('tandem.signIn');
    await until(() => ctl.agent.state === 'ready', 15_000, 'ready after authenticate');
    await ctl.current!.prompt('who am I?');
    assert.match(JSON.stringify(ctl.snapshot().session!.turns[0].items), /Signed in \(browser\)/);
  });

  test('terminal path: the login runs in a VS Code terminal, then Tandem reconnects', async function () {
    this.timeout(60_000);
    await ctl.restart();
    assert.equal(ctl.agent.state, 'auth');
    // The method by id (the QuickPick itself is covered above): the login runs in a terminal.
    await vscode.commands.executeCommand('tandem.signIn', 'terminal-login');
    await until(() => existsSync(marker), 20_000, 'the terminal login to run');
    await until(() => ctl.agent.state === 'ready', 30_000, 'ready after the terminal login');
    await ctl.current!.prompt('who am I?');
    assert.match(JSON.stringify(ctl.snapshot().session!.turns[0].items), /Signed in \(terminal\)/);
  });
});
