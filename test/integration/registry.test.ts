/// <reference types="mocha" />
// The ACP Registry in the real VS Code, against a registry this test serves on 127.0.0.1 in the
// registry's own format: claude-code-acp 0.16.2 installed from the npm registry for real and
// answering through a fake Anthropic server; a tiny binary agent (the auth test agent behind a
// shell script, packed here as tar.gz) installed, signed in right after install, and run; the
// same archive with a wrong sha256 refused without a trace; an agent built only for another
// platform listed as unavailable; an update that switches only after the new version starts;
// the list offline from its cache; uninstall.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Controller } from '../../src/vscode/agent/controller';
import type { RegistryApi } from '../../src/vscode/registry/registryCommands';
import { platformKey } from '../../src/registry/plan';
import { PLATFORM_KEYS } from '../../src/registry/types';
import { claudeCodeEnv } from '../compat/agentPaths';
import { fakeAnthropic, type FakeServer } from '../compat/fakeModels';
import { sha256 } from '../support/archives';
import { serveRegistry, tinyAgentArchive, type RegistryServer } from '../support/registryServer';
import { activateTandem, until } from './helpers';

const here = platformKey()!;
const elsewhere = PLATFORM_KEYS.find((p) => p !== here)!;
const CLAUDE_VERSION = '0.16.2';

suite('registry: add agents from the ACP Registry', function () {
  let ctl: Controller;
  let registry: RegistryApi;
  /** Tandem's global storage, learned from where the first install went. */
  let storage = '';
  let srv: RegistryServer;
  let model: FakeServer;
  let agentJs: Buffer;
  const cfg = () => vscode.workspace.getConfiguration('tandem');
  const userAgents = () =>
    cfg().inspect<{ name: string; command: string; args?: string[] }[]>('agents')?.globalValue ?? [];

  function tinyEntry(id: string, version: string, path: string, hash: string, platform = here) {
    return {
      id,
      name: id === 'tiny-agent' ? 'Tiny Agent' : `Tiny ${id}`,
      version,
      description: 'A tiny ACP agent that asks you to sign in',
      authors: ['Tandem tests'],
      license: 'MIT',
      icon: `${srv.url}/icons/tiny.svg`,
      distribution: { binary: { [platform]: { archive: `${srv.url}${path}`, cmd: './bin/agent', sha256: hash } } },
    };
  }

  function publish(tinyVersion = '1.0.0', tinyPath = '/tiny-1.0.0.tar.gz', tinyHash?: string): void {
    const archive = tinyAgentArchive('tar.gz', agentJs);
    srv.set('/tiny-1.0.0.tar.gz', archive);
    srv.set(
      '/icons/tiny.svg',
      '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><circle cx="8" cy="8" r="6" fill="currentColor"/></svg>',
    );
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-registry-home-')));
    srv.set('/registry.json', {
      version: '1.0.0',
      agents: [
        {
          id: 'claude-code-acp',
          name: 'Claude Code',
          version: CLAUDE_VERSION,
          description: "ACP wrapper for Anthropic's Claude",
          repository: 'https://github.com/zed-industries/claude-code-acp',
          authors: ['Anthropic'],
          license: 'proprietary',
          distribution: {
            npx: {
              package: `@zed-industries/claude-code-acp@${CLAUDE_VERSION}`,
              // What the test's Claude needs offline: the fake model, a throwaway HOME, root's sandbox flag.
              env: claudeCodeEnv(model, home),
            },
          },
        },
        tinyEntry('tiny-agent', tinyVersion, tinyPath, tinyHash ?? sha256(archive)),
        tinyEntry('tiny-bad-sha', '1.0.0', '/tiny-1.0.0.tar.gz', 'ab'.repeat(32)),
        tinyEntry('elsewhere-agent', '1.0.0', '/tiny-1.0.0.tar.gz', sha256(archive), elsewhere),
        {
          id: 'fast-agent',
          name: 'fast-agent',
          version: '0.6.12',
          description: 'Code and build agents with comprehensive multi-provider support',
          authors: ['enquiries@fast-agent.ai'],
          license: 'Apache 2.0',
          distribution: { uvx: { package: 'fast-agent-acp==0.6.12', args: ['-x'] } },
        },
      ],
    });
  }

  /** Runs a command that may show the sign-in QuickPick, accepting its first item (the agent's own sign-in). */
  async function runAccepting(command: string, ...args: unknown[]): Promise<unknown> {
    let done = false;
    const p = Promise.resolve(vscode.commands.executeCommand(command, ...args)).finally(() => {
      done = true;
    });
    while (!done) {
      await new Promise((r) => setTimeout(r, 300));
      if (!done) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    }
    return p;
  }

  suiteSetup(async function () {
    this.timeout(60_000);
    const { api, extensionPath } = await activateTandem();
    ctl = api.controller;
    registry = api.registry;
    agentJs = readFileSync(join(extensionPath, 'out', 'test', 'fixtures', 'agents', 'auth-agent.js'));
    // The tests' registry is plain http on 127.0.0.1: allowed only with this variable (same process).
    process.env.TANDEM_REGISTRY_ALLOW_LOOPBACK_HTTP = '1';
    srv = await serveRegistry();
    model = await fakeAnthropic([{ text: 'Hello from Claude, installed from the registry.' }]);
    publish();
    await cfg().update('registry.url', `${srv.url}/registry.json`, vscode.ConfigurationTarget.Global);
    const ids = (await registry.catalog()).rows.map((r) => r.id);
    assert.ok(ids.includes('tiny-agent'), `the test registry is listed: ${ids.join(', ')}`);
  });

  suiteTeardown(async () => {
    await ctl?.stop();
    // Whatever a failed test left installed.
    for (const [id, name] of [
      ['tiny-agent', 'Tiny Agent'],
      ['claude-code-acp', 'Claude Code'],
    ])
      if (userAgents().some((a) => a.name === name))
        await vscode.commands.executeCommand('tandem.uninstallRegistryAgent', id);
    await srv?.close().catch(() => undefined);
    await model?.close();
    for (const key of ['agents', 'defaultAgent', 'registry.url'])
      await cfg().update(key, undefined, vscode.ConfigurationTarget.Global);
    delete process.env.TANDEM_REGISTRY_ALLOW_LOOPBACK_HTTP;
  });

  test('the list shows each agent with its state here; one built for another platform is unavailable', async () => {
    const c = await registry.catalog();
    assert.equal(c.offline, false);
    const row = (id: string) => c.rows.find((r) => r.id === id)!;
    assert.equal(row('claude-code-acp').state, 'available');
    assert.equal(row('claude-code-acp').plan?.kind, 'npx');
    assert.equal(row('tiny-agent').state, 'available');
    assert.equal(row('tiny-agent').plan?.kind, 'binary');
    assert.equal(row('elsewhere-agent').state, 'unavailable');
    assert.equal(row('elsewhere-agent').unavailable?.message, `no build for ${here} (builds: ${elsewhere})`);
    // uv is not part of this machine's setup: the row says how to get it (or installs through it).
    const fast = row('fast-agent');
    if (fast.state === 'unavailable') assert.match(fast.unavailable!.message, /uv is not on PATH\. Install uv/);
    else assert.equal(fast.plan?.kind, 'uvx');
  });

  test('a binary agent installs into global storage, starts, asks to sign in, and runs a turn', async function () {
    this.timeout(90_000);
    const name = await runAccepting('tandem.addAgentFromRegistry', 'tiny-agent');
    assert.equal(name, 'Tiny Agent');
    const entry = userAgents().find((a) => a.name === 'Tiny Agent')!;
    assert.ok(entry, 'written to tandem.agents in the user settings');
    assert.equal(cfg().inspect('agents')?.workspaceValue, undefined, 'never to the workspace settings');
    assert.match(entry.command, /[\\/]registry[\\/]agents[\\/]tiny-agent[\\/]1\.0\.0[\\/]bin[\\/]agent$/);
    storage = entry.command.split(/[\\/]registry[\\/]agents[\\/]/)[0];
    assert.equal(cfg().get('defaultAgent'), 'Tiny Agent');
    // The sign-in flow ran right after the install: the agent method authenticated.
    await until(() => ctl.agent.state === 'ready', 20_000, 'ready after signing in');
    await ctl.current!.prompt('who am I?');
    assert.match(JSON.stringify(ctl.snapshot().session!.turns[0].items), /Signed in \(browser\)/);
    assert.equal((await registry.catalog()).rows.find((r) => r.id === 'tiny-agent')!.state, 'installed');
  });

  test('the same archive with a wrong sha256 is refused and leaves nothing behind', async () => {
    const name = await vscode.commands.executeCommand('tandem.addAgentFromRegistry', 'tiny-bad-sha');
    assert.equal(name, undefined);
    assert.ok(!existsSync(join(storage, 'registry', 'agents', 'tiny-bad-sha')), 'no folder, no download');
    assert.ok(!userAgents().some((a) => /bad-sha/.test(a.name)), 'no settings entry');
    assert.equal((await registry.catalog()).rows.find((r) => r.id === 'tiny-bad-sha')!.state, 'available');
    assert.ok(srv.hits.includes('/tiny-1.0.0.tar.gz'), 'it was downloaded, then refused');
  });

  test('claude-code-acp installs from the npm registry and answers through the fake model', async function () {
    this.timeout(600_000);
    await ctl.stop();
    const t0 = Date.now();
    const name = await runAccepting('tandem.addAgentFromRegistry', 'claude-code-acp');
    console.log(
      `[registry] npm install of claude-code-acp ${CLAUDE_VERSION} + start: ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    assert.equal(name, 'Claude Code');
    const entry = userAgents().find((a) => a.name === 'Claude Code')!;
    const dir = join(storage, 'registry', 'agents', 'claude-code-acp', CLAUDE_VERSION);
    assert.equal(entry.args?.[0], join(dir, 'node_modules', '@zed-industries', 'claude-code-acp', 'dist', 'index.js'));
    assert.match(entry.command, /node(\.exe)?$/, "run with the machine's node, not npx");
    await until(() => ctl.agent.state === 'ready', 60_000, `Claude Code ready (${ctl.agent.message})`);
    await ctl.current!.prompt('Say hello');
    const turn = ctl.snapshot().session!.turns[0];
    assert.equal(turn.error, undefined, `turn failed: ${turn.error}; unknown model paths: ${model.unknown.join(', ')}`);
    assert.match(JSON.stringify(turn.items), /Hello from Claude, installed from the registry\./);
    assert.ok(model.requests.length >= 1, 'the model was asked');
  });

  test('an update is noticed, installs beside the old version and switches once it starts', async function () {
    this.timeout(90_000);
    const v2 = tinyAgentArchive('tar.gz', Buffer.concat([agentJs, Buffer.from('\n// 1.1.0\n')]));
    srv.set('/tiny-1.1.0.tar.gz', v2);
    publish('1.1.0', '/tiny-1.1.0.tar.gz', sha256(v2));
    const updates = await registry.checkForUpdates();
    assert.deepEqual(
      updates.map((u) => [u.id, u.from, u.to]),
      [['tiny-agent', '1.0.0', '1.1.0']],
    );
    assert.equal((await registry.catalog()).rows.find((r) => r.id === 'tiny-agent')!.state, 'update');
    const done = await vscode.commands.executeCommand('tandem.updateRegistryAgents', 'tiny-agent');
    assert.deepEqual(done, ['tiny-agent']);
    const entry = userAgents().find((a) => a.name === 'Tiny Agent')!;
    assert.match(entry.command, /tiny-agent[\\/]1\.1\.0[\\/]bin[\\/]agent$/);
    assert.deepEqual(
      readdirSync(join(storage, 'registry', 'agents', 'tiny-agent')),
      ['1.1.0'],
      'the old version is gone',
    );
  });

  test('offline, the list is the cached copy marked "offline, list from <date>"', async () => {
    await srv.close();
    const c = await registry.catalog();
    assert.equal(c.offline, true);
    assert.match(c.banner!, /^offline, list from \d{4}-\d\d-\d\d \d\d:\d\d$/);
    assert.ok(c.rows.some((r) => r.id === 'elsewhere-agent' && r.state === 'unavailable'));
    assert.ok(c.rows.some((r) => r.id === 'tiny-agent' && r.state === 'installed'));
    // In words: the code (ECONNREFUSED) is for the log.
    assert.equal(c.fetchError, 'the server refused the connection');
  });

  test('uninstall removes the files and the settings entry', async function () {
    this.timeout(30_000);
    await ctl.stop();
    for (const id of ['tiny-agent', 'claude-code-acp']) {
      const removed = await vscode.commands.executeCommand('tandem.uninstallRegistryAgent', id);
      assert.ok(removed, `${id} uninstalled`);
      assert.ok(!existsSync(join(storage, 'registry', 'agents', id)), `${id}'s files are gone`);
    }
    assert.deepEqual(
      userAgents().filter((a) => ['Tiny Agent', 'Claude Code'].includes(a.name)),
      [],
      'their tandem.agents entries are gone',
    );
  });
});
