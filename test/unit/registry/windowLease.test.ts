// A window leases the version folder its running agent was started from, from 'starting' (before
// the process is spawned) until it stops, moves the lease when another agent starts, and tidies
// up the folder it leaves when nothing else names it. registryCommands with a fake `vscode` and a
// fake controller; the leases are read the way another window would read them.
import { commands } from './fakeVscodeCommands';
import { fakeContext } from '../security/fakeVscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Emitter } from '../../../src/common/event';
import { MemoryLogger } from '../../../src/common/logger';
import { Leases } from '../../../src/registry/leases';
import { RegistryStore } from '../../../src/registry/store';
import { registryCommands } from '../../../src/vscode/registry/registryCommands';
import { repoRoot } from '../../support/paths';
import { until } from '../../support/until';

/** The registry's commands of one window whose storage is `storage`, its agent run by `ctl`. */
function windowRegistry(storage: string, ctl: ReturnType<typeof fakeController>) {
  return registryCommands({
    context: fakeContext(repoRoot, storage) as never,
    logger: new MemoryLogger(),
    runner: ctl,
    signIn: async () => undefined,
    showView: () => undefined,
  });
}

/** A controller whose pool holds at most the one agent the test runs. */
function fakeController() {
  const changed = new Emitter<void>();
  const ctl = {
    agent: { name: undefined as string | undefined, state: 'none' },
    current: undefined as unknown,
    config: undefined as { command: string; args?: string[] } | undefined,
    onDidChangeAgents: changed.event,
    agents: () =>
      ctl.current && ctl.agent.name && ctl.config
        ? [{ name: ctl.agent.name, view: ctl.agent, config: ctl.config }]
        : [],
    start: async () => undefined,
    stopAgent: async (name: string) => {
      // As the controller's stop: the connection is gone before any state change is fired.
      if (ctl.agent.name === name) ctl.current = undefined;
    },
    /** The controller connected to `command` and the agent reports `state`. */
    runs(name: string, state: string, command: string, args?: string[]) {
      ctl.agent = { name, state };
      ctl.current = {};
      ctl.config = { command, args };
      changed.fire();
    },
    is(state: string) {
      ctl.agent = { ...ctl.agent, state };
      changed.fire();
    },
  };
  return ctl;
}

test("a window leases its running agent's version folder from start to stop, and tidies up what it leaves", async () => {
  const storage = mkdtempSync(join(tmpdir(), 'tandem-window-'));
  const store = new RegistryStore(join(storage, 'registry'));
  const binary = store.versionDir('tiny', '1.0.0');
  const npm = store.versionDir('claude', '0.16.2');
  for (const d of [join(binary, 'bin'), join(npm, 'node_modules/x')]) mkdirSync(d, { recursive: true });
  writeFileSync(join(binary, 'bin/agent'), '#!/bin/sh\n');
  await store.record({ id: 'claude', version: '0.16.2', kind: 'npx', agentName: 'Claude', dir: npm, installedAt: 0 });
  const seenByOthers = new Leases(store.leases.folder);
  const held = async () => [...(await seenByOthers.held())];

  const ctl = fakeController();
  const registry = windowRegistry(storage, ctl);
  try {
    ctl.runs('Tiny', 'starting', join(binary, 'bin/agent'));
    assert.deepEqual(await held(), [binary], 'leased before the process is spawned');
    ctl.is('ready');
    assert.deepEqual(await held(), [binary]);
    // An npm agent runs as `node <script>`: its script says which folder it needs.
    ctl.runs('Claude', 'starting', process.execPath, [join(npm, 'node_modules/x/index.js')]);
    assert.deepEqual(await held(), [npm], 'the lease moved with the agent');
    // The tiny folder is named by no record: once no agent runs from it, it is left over.
    await until(() => !existsSync(binary), 5000, 'the folder the agent left removed');
    ctl.is('exited');
    assert.deepEqual(await held(), []);
    assert.ok(existsSync(npm), 'a recorded version stays');
    ctl.runs('Mine', 'ready', '/usr/local/bin/my-agent');
    assert.deepEqual(await held(), [], 'an agent from outside the registry folder needs no lease');
    ctl.runs('Claude', 'ready', process.execPath, [join(npm, 'node_modules/x/index.js')]);
    assert.deepEqual(await held(), [npm]);
  } finally {
    for (const d of registry) d.dispose();
  }
  assert.deepEqual(await held(), [], 'a closing window lets go of its lease');
});

test('uninstalling the agent this window runs stops it, lets go of its lease and removes its files', async () => {
  const storage = mkdtempSync(join(tmpdir(), 'tandem-window-'));
  const store = new RegistryStore(join(storage, 'registry'));
  const dir = store.versionDir('tiny', '1.0.0');
  mkdirSync(join(dir, 'bin'), { recursive: true });
  writeFileSync(join(dir, 'bin/agent'), '#!/bin/sh\n');
  await store.record({ id: 'tiny', version: '1.0.0', kind: 'binary', agentName: 'Tiny', dir, installedAt: 0 });
  const ctl = fakeController();
  const registry = windowRegistry(storage, ctl);
  try {
    ctl.runs('Tiny', 'ready', join(dir, 'bin/agent'));
    assert.deepEqual([...(await store.leases.held())], [dir]);
    assert.equal(await commands.get('tandem.uninstallRegistryAgent')!('tiny'), 'Tiny');
    assert.equal(ctl.current, undefined, 'stopped first');
    assert.deepEqual([...(await store.leases.held())], []);
    assert.ok(!existsSync(store.agentDir('tiny')), 'its files are gone');
  } finally {
    for (const d of registry) d.dispose();
  }
});

test('agents running side by side each lease their own folder; stopping one lets go of its lease only', async () => {
  const storage = mkdtempSync(join(tmpdir(), 'tandem-window-'));
  const store = new RegistryStore(join(storage, 'registry'));
  const dirs = ['one', 'two'].map((id) => {
    const dir = store.versionDir(id, '1.0.0');
    mkdirSync(join(dir, 'bin'), { recursive: true });
    writeFileSync(join(dir, 'bin/agent'), '#!/bin/sh\n');
    return dir;
  });
  for (const [i, id] of ['one', 'two'].entries())
    await store.record({ id, version: '1.0.0', kind: 'binary', agentName: id, dir: dirs[i], installedAt: 0 });
  // A pool of two: what Controller.agents() and onDidChangeAgents give the registry.
  const changed = new Emitter<void>();
  const pool = new Map<string, { name: string; view: { state: string }; config: { command: string } }>();
  const ctl = {
    agent: { state: 'none' },
    agents: () => [...pool.values()],
    onDidChangeAgents: changed.event,
    start: async () => undefined,
    stopAgent: async (name: string) => void pool.delete(name),
  };
  const registry = registryCommands({
    context: fakeContext(repoRoot, storage) as never,
    logger: new MemoryLogger(),
    runner: ctl,
    signIn: async () => undefined,
    showView: () => undefined,
  });
  const held = async () => [...(await store.leases.held())].sort();
  try {
    for (const [i, name] of ['one', 'two'].entries())
      pool.set(name, { name, view: { state: 'ready' }, config: { command: join(dirs[i], 'bin/agent') } });
    changed.fire();
    assert.deepEqual(await held(), [...dirs].sort(), 'both folders leased');
    pool.delete('one');
    changed.fire();
    assert.deepEqual(await held(), [dirs[1]], "only the running agent's folder stays leased");
  } finally {
    for (const d of registry) d.dispose();
  }
  assert.deepEqual(await held(), [], 'a closing window lets go of every lease');
});
