// Version folders in use by another window are never removed under it. Window B is a real second
// process holding a lease (test/support/otherWindow.ts); window A is this process, with the real
// RegistryService, updating, uninstalling and tidying up against an index on 127.0.0.1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { platformKey } from '../../../src/registry/plan';
import { RegistryService } from '../../../src/registry/service';
import { RegistryStore } from '../../../src/registry/store';
import { sha256 } from '../../support/archives';
import { otherWindowRunning } from './otherWindow';
import { serveRegistry, tinyAgentArchive, type RegistryServer } from '../../support/registryServer';

const skip = process.platform === 'win32' ? 'the fake npm and the tiny agent are shell scripts' : undefined;
const here = platformKey()!;

let srv: RegistryServer;
before(async () => {
  srv = await serveRegistry();
});
after(() => srv.close());

const tiny = (version: string, archivePath: string, hash: string) => ({
  id: 'tiny',
  name: 'Tiny',
  version,
  description: 'A tiny ACP agent',
  authors: [],
  distribution: { binary: { [here]: { archive: `${srv.url}${archivePath}`, cmd: './bin/agent', sha256: hash } } },
});

/** Window A: a service over its own storage; the check that a new version starts always passes. */
function windowA(tools = {}) {
  const root = mkdtempSync(join(tmpdir(), 'tandem-leases-'));
  const settings: unknown[] = [];
  const store = new RegistryStore(root);
  const service = new RegistryService({
    store,
    indexUrl: () => `${srv.url}/registry.json`,
    policy: () => ({ allowLoopbackHttp: true }),
    tools: () => tools,
    platform: here,
    settings: { read: () => settings.slice(), write: async (e) => void settings.splice(0, settings.length, ...e) },
    isRunning: () => false, // window A runs nothing: only B's lease protects the old folder
    probe: async () => ({ ok: true, agentVersion: '1' }),
  });
  return { root, store, service, settings };
}

test(
  'an update while another window runs the old version keeps the old folder until that window stops it',
  { skip },
  async () => {
    const v1 = tinyAgentArchive('tar.gz', '// 1.0.0');
    const v2 = tinyAgentArchive('tar.gz', '// 1.1.0');
    srv.set('/v1.tar.gz', v1);
    srv.set('/v2.tar.gz', v2);
    srv.set('/registry.json', { version: '1.0.0', agents: [tiny('1.0.0', '/v1.tar.gz', sha256(v1))] });
    const { store, service } = windowA();
    const old = (await service.install('tiny')).dir!;
    const b = await otherWindowRunning(store.leases.folder, old);
    try {
      srv.set('/registry.json', { version: '1.0.0', agents: [tiny('1.1.0', '/v2.tar.gz', sha256(v2))] });
      const { to } = await service.update('tiny');
      assert.notEqual(to.dir, old);
      assert.equal(readFileSync(join(old, 'lib/agent.js'), 'utf8'), '// 1.0.0', 'the running files are untouched');
      assert.deepEqual(await store.removeStale(), [], 'left over, but leased: kept');
      assert.ok(existsSync(join(old, 'bin/agent')));
      await b.release();
      assert.deepEqual(await store.removeStale(), [old], 'gone once window B stopped its agent');
      assert.deepEqual(readdirSync(store.agentDir('tiny')), ['1.1.0']);
    } finally {
      await b.crash();
    }
  },
);

test('uninstall leaves the files another window runs; they go once that window is gone', { skip }, async () => {
  const v1 = tinyAgentArchive('zip', '// 1.0.0');
  srv.set('/v1.zip', v1);
  srv.set('/registry.json', { version: '1.0.0', agents: [tiny('1.0.0', '/v1.zip', sha256(v1))] });
  const { store, service, settings } = windowA();
  const dir = (await service.install('tiny')).dir!;
  const b = await otherWindowRunning(store.leases.folder, dir);
  await service.uninstall('tiny');
  assert.deepEqual(settings, [], 'the entry is gone');
  assert.deepEqual(await store.installed(), [], 'the record is gone');
  assert.ok(existsSync(join(dir, 'bin/agent')), 'the files window B runs are not');
  // Window B crashes: its lease file stays, but a lease of a process that is gone does not count.
  await b.crash();
  assert.equal(readdirSync(store.leases.folder).length, 1);
  assert.deepEqual(await store.removeStale(), [dir]);
  assert.ok(!existsSync(store.agentDir('tiny')));
  assert.deepEqual(readdirSync(store.leases.folder), [], 'the dead lease was cleared');
});

test(
  'an npm update that installs the version already running gets a folder of its own and is not offered again',
  { skip },
  async () => {
    // The index moves to 1.1.0 but still pins fake-agent@1.0.0: npm installs what already runs.
    const bin = mkdtempSync(join(tmpdir(), 'tandem-fake-npm-'));
    const npm = join(bin, 'npm');
    writeFileSync(
      npm,
      `#!/bin/sh\nmkdir -p node_modules/fake-agent\nprintf '{"name":"fake-agent","version":"1.0.0","bin":"agent.js"}' > node_modules/fake-agent/package.json\necho "// npm run $$" > node_modules/fake-agent/agent.js\n`,
    );
    chmodSync(npm, 0o755);
    const entry = (version: string) => ({
      id: 'fake',
      name: 'Fake',
      version,
      description: 'An npm agent',
      authors: [],
      distribution: { npx: { package: 'fake-agent@1.0.0' } },
    });
    srv.set('/registry.json', { version: '1.0.0', agents: [entry('1.0.0')] });
    const { store, service } = windowA({ npm, node: process.execPath });
    const first = await service.install('fake');
    const script = join(first.dir!, 'node_modules/fake-agent/agent.js');
    const running = readFileSync(script, 'utf8');
    const b = await otherWindowRunning(store.leases.folder, first.dir!);
    try {
      srv.set('/registry.json', { version: '1.0.0', agents: [entry('1.1.0')] });
      assert.deepEqual(await service.updates(0), [{ id: 'fake', name: 'Fake', from: '1.0.0', to: '1.1.0' }]);
      const { to } = await service.update('fake');
      assert.notEqual(to.dir, first.dir, 'not promoted over the running folder');
      assert.equal(readFileSync(script, 'utf8'), running, 'the running files were never replaced');
      assert.equal(to.version, '1.0.0');
      assert.deepEqual(await service.updates(0), [], 'the update is done, not offered again');
      assert.equal((await service.catalog()).rows[0].state, 'installed');
      await store.removeStale();
      assert.ok(existsSync(script), 'kept while window B runs it');
    } finally {
      await b.crash();
    }
    assert.deepEqual(await store.removeStale(), [first.dir]);
  },
);

test('a folder is removed only when no lease holds it, even one taken after the first look', async () => {
  const store = new RegistryStore(mkdtempSync(join(tmpdir(), 'tandem-leases-')));
  const dir = store.versionDir('a', '1.0.0');
  mkdirSync(join(dir, 'bin'), { recursive: true });
  writeFileSync(join(dir, 'bin/agent'), 'x');
  // A window starts the agent between removeDir's first look at the leases and the removal.
  store.leases.held = async () => new Set();
  store.leases.holds = async () => true;
  assert.equal(await store.removeDir('a', dir), false);
  assert.equal(readFileSync(join(dir, 'bin/agent'), 'utf8'), 'x', 'renamed back whole');
  assert.deepEqual(readdirSync(store.agentDir('a')), ['1.0.0']);
});

test('promote never replaces a version folder: the same version installs beside it', async () => {
  const store = new RegistryStore(mkdtempSync(join(tmpdir(), 'tandem-leases-')));
  const made: string[] = [];
  for (const content of ['first', 'second']) {
    const staging = await store.staging('a');
    writeFileSync(join(staging, 'agent'), content);
    const { dir, release } = await store.promote(staging, 'a', '1.0.0');
    assert.ok(await store.leases.holds(dir), 'leased until recorded');
    release();
    assert.ok(!(await store.leases.holds(dir)));
    made.push(dir);
  }
  assert.equal(made[0], store.versionDir('a', '1.0.0'));
  assert.match(made[1], /1\.0\.0-[0-9a-f]{8}$/);
  assert.deepEqual(
    made.map((d) => readFileSync(join(d, 'agent'), 'utf8')),
    ['first', 'second'],
  );
});
