// Install, update, uninstall and the offline list, end to end in plain Node: an index and real
// archives served on 127.0.0.1, a tiny ACP agent (the auth test agent behind a shell script)
// unpacked and started, and `tandem.agents` as an in-memory list.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChecksumError } from '../../../src/registry/installer';
import { platformKey } from '../../../src/registry/plan';
import { probeInitialize } from '../../../src/registry/probe';
import { RegistryService } from '../../../src/registry/service';
import { RegistryStore } from '../../../src/registry/store';
import { PLATFORM_KEYS, type PlatformKey } from '../../../src/registry/types';
import type { AgentConfig } from '../../../src/client/agents/agentConfig';
import { sha256 } from '../../support/archives';
import { outRoot } from '../../support/paths';
import { serveRegistry, tinyAgentArchive, type RegistryServer } from '../../support/registryServer';

const here = platformKey()!;
const elsewhere = PLATFORM_KEYS.find((p) => p !== here)!;
const AGENT_JS = readFileSync(join(outRoot, 'test/fixtures/agents/auth-agent.js'));
const BROKEN_JS = 'process.stderr.write("this build is broken\\n"); process.exit(3);';
const skip = process.platform === 'win32' ? 'the tiny agent is a shell script' : undefined;

let srv: RegistryServer;
before(async () => {
  srv = await serveRegistry();
});
after(() => srv.close());

function binaryEntry(id: string, version: string, archivePath: string, hash: string, platform: PlatformKey = here) {
  return {
    id,
    name: `Tiny ${id}`,
    version,
    description: 'A tiny ACP agent',
    authors: ['Tandem tests'],
    license: 'MIT',
    distribution: {
      binary: {
        [platform]: { archive: `${srv.url}${archivePath}`, cmd: './bin/agent', sha256: hash, env: { TINY: id } },
      },
    },
  };
}

/** Publishes an index of the given entries and returns a fresh service with its own storage. */
function setup(agents: unknown[], opts: { running?: string[] } = {}) {
  srv.set('/registry.json', { version: '1.0.0', agents });
  const root = mkdtempSync(join(tmpdir(), 'tandem-registry-'));
  const settings: unknown[] = [];
  const store = new RegistryStore(root);
  const service = new RegistryService({
    store,
    indexUrl: () => `${srv.url}/registry.json`,
    policy: () => ({ allowLoopbackHttp: true }),
    tools: () => ({}),
    platform: here,
    settings: {
      read: () => settings.slice(),
      write: async (e) => {
        settings.splice(0, settings.length, ...e);
      },
    },
    isRunning: (name) => opts.running?.includes(name) ?? false,
    probe: (a) => probeInitialize(a, { cwd: root, timeoutMs: 15_000 }),
  });
  return { root, store, service, settings };
}

const tarGz = tinyAgentArchive('tar.gz', AGENT_JS);
const zip = tinyAgentArchive('zip', AGENT_JS);

test('the list shows what installs here, what is installed, and what is for another platform', { skip }, async () => {
  srv.set('/tiny.tar.gz', tarGz);
  const { service } = setup([
    binaryEntry('tiny', '1.0.0', '/tiny.tar.gz', sha256(tarGz)),
    binaryEntry('other-os', '1.0.0', '/tiny.tar.gz', sha256(tarGz), elsewhere),
    {
      ...binaryEntry('needs-npm', '1.0.0', '/x', sha256(tarGz)),
      distribution: { npx: { package: 'needs-npm@1.0.0' } },
    },
  ]);
  const c = await service.catalog();
  const state = Object.fromEntries(c.rows.map((r) => [r.id, [r.state, r.unavailable?.why]]));
  assert.deepEqual(state, {
    tiny: ['available', undefined],
    'other-os': ['unavailable', 'platform'],
    'needs-npm': ['unavailable', 'tool'],
  });
  assert.equal(c.offline, false);
});

for (const [format, archive] of [
  ['tar.gz', tarGz],
  ['zip', zip],
] as const) {
  test(
    `a ${format} binary agent installs, is configured in tandem.agents and answers initialize`,
    { skip },
    async () => {
      srv.set(`/tiny.${format}`, archive);
      const { service, settings, root } = setup([binaryEntry('tiny', '1.0.0', `/tiny.${format}`, sha256(archive))]);
      const steps: string[] = [];
      const rec = await service.install('tiny', { progress: (m) => steps.push(m) });
      assert.equal(rec.version, '1.0.0');
      assert.equal(rec.kind, 'binary');
      assert.equal(rec.dir, join(root, 'agents', 'tiny', '1.0.0'));
      const entry = settings[0] as AgentConfig;
      assert.deepEqual(entry, { name: 'Tiny tiny', command: join(rec.dir!, 'bin', 'agent'), env: { TINY: 'tiny' } });
      assert.deepEqual(readdirSync(join(root, 'agents', 'tiny')), ['1.0.0'], 'no staging folder or download left');
      assert.ok(steps.some((s) => /Downloading from 127\.0\.0\.1/.test(s)));
      const probe = await probeInitialize(entry, { cwd: root });
      assert.deepEqual(probe, { ok: true, agentVersion: '1' });
      assert.equal((await service.catalog()).rows[0].state, 'installed');
    },
  );
}

test('a download whose sha256 differs is refused and leaves nothing behind', { skip }, async () => {
  srv.set('/tiny.tar.gz', tarGz);
  const { service, settings, root, store } = setup([binaryEntry('tiny', '1.0.0', '/tiny.tar.gz', 'ab'.repeat(32))]);
  const err = await service.install('tiny').then(
    () => assert.fail('installed despite a wrong checksum'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ChecksumError, String(err));
  assert.equal(err.actual, sha256(tarGz));
  assert.match(err.message, /refused and deleted/);
  assert.ok(!existsSync(join(root, 'agents', 'tiny')), 'no folder for the agent');
  assert.deepEqual(settings, []);
  assert.deepEqual(await store.installed(), []);
});

test('a cancelled install leaves nothing behind', { skip }, async () => {
  const big = Buffer.concat([tarGz, Buffer.alloc(4 * 1024 * 1024)]);
  srv.set('/big.tar.gz', big);
  const { service, settings, root } = setup([binaryEntry('tiny', '1.0.0', '/big.tar.gz', sha256(big))]);
  const ac = new AbortController();
  await assert.rejects(
    service.install('tiny', { signal: ac.signal, progress: (m) => /MB/.test(m) && ac.abort() }),
    /abort/i,
  );
  assert.ok(!existsSync(join(root, 'agents', 'tiny')));
  assert.deepEqual(settings, []);
});

test(
  'an update installs beside the old version, switches after initialize, then removes the old',
  { skip },
  async () => {
    srv.set('/v1.tar.gz', tarGz);
    const { service, settings, root, store } = setup([binaryEntry('tiny', '1.0.0', '/v1.tar.gz', sha256(tarGz))]);
    await service.install('tiny');
    // The user adds a secret to the entry; an update keeps it.
    (settings[0] as AgentConfig).secretEnv = ['TINY_KEY'];
    const v2 = tinyAgentArchive('tar.gz', Buffer.concat([AGENT_JS, Buffer.from('\n// v2\n')]));
    srv.set('/v2.tar.gz', v2);
    srv.set('/registry.json', { version: '1.0.0', agents: [binaryEntry('tiny', '1.1.0', '/v2.tar.gz', sha256(v2))] });
    const c = await service.catalog();
    assert.equal(c.rows[0].state, 'update');
    assert.deepEqual(await service.updates(0), [{ id: 'tiny', name: 'Tiny tiny', from: '1.0.0', to: '1.1.0' }]);
    const { from, to } = await service.update('tiny');
    assert.equal(from.version, '1.0.0');
    assert.equal(to.version, '1.1.0');
    assert.deepEqual(readdirSync(join(root, 'agents', 'tiny')), ['1.1.0'], 'the old version is gone');
    const entry = settings[0] as AgentConfig;
    assert.equal(entry.command, join(root, 'agents', 'tiny', '1.1.0', 'bin', 'agent'));
    assert.deepEqual(entry.secretEnv, ['TINY_KEY']);
    assert.equal((await store.installed())[0].version, '1.1.0');
  },
);

test('an update whose new version does not start keeps the old one', { skip }, async () => {
  srv.set('/v1.tar.gz', tarGz);
  const { service, settings, root, store } = setup([binaryEntry('tiny', '1.0.0', '/v1.tar.gz', sha256(tarGz))]);
  await service.install('tiny');
  const before = structuredClone(settings);
  const broken = tinyAgentArchive('tar.gz', BROKEN_JS);
  srv.set('/broken.tar.gz', broken);
  srv.set('/registry.json', {
    version: '1.0.0',
    agents: [binaryEntry('tiny', '2.0.0', '/broken.tar.gz', sha256(broken))],
  });
  await assert.rejects(service.update('tiny'), {
    message: /^Tiny tiny 2\.0\.0 did not start: .*this build is broken/s,
  });
  assert.deepEqual(settings, before);
  assert.deepEqual(readdirSync(join(root, 'agents', 'tiny')), ['1.0.0']);
  assert.equal((await store.installed())[0].version, '1.0.0');
});

test('an update of a running agent keeps the old files until they are no longer used', { skip }, async () => {
  srv.set('/v1.tar.gz', tarGz);
  const { service, root, store } = setup([binaryEntry('tiny', '1.0.0', '/v1.tar.gz', sha256(tarGz))], {
    running: ['Tiny tiny'],
  });
  await service.install('tiny');
  srv.set('/registry.json', { version: '1.0.0', agents: [binaryEntry('tiny', '1.0.1', '/v1.tar.gz', sha256(tarGz))] });
  await service.update('tiny');
  assert.deepEqual(readdirSync(join(root, 'agents', 'tiny')).sort(), ['1.0.0', '1.0.1']);
  await store.removeStale();
  assert.deepEqual(readdirSync(join(root, 'agents', 'tiny')), ['1.0.1']);
});

test('uninstall removes the files, the record and the tandem.agents entry', { skip }, async () => {
  srv.set('/v1.tar.gz', tarGz);
  const { service, settings, root, store } = setup([binaryEntry('tiny', '1.0.0', '/v1.tar.gz', sha256(tarGz))]);
  settings.push({ name: 'Mine', command: 'my-agent' });
  await service.install('tiny');
  await service.uninstall('tiny');
  assert.deepEqual(settings, [{ name: 'Mine', command: 'my-agent' }]);
  assert.deepEqual(await store.installed(), []);
  assert.ok(!existsSync(join(root, 'agents', 'tiny')));
});

test("an install never takes the name of the user's own agent entry", { skip }, async () => {
  srv.set('/v1.tar.gz', tarGz);
  const { service, settings } = setup([binaryEntry('tiny', '1.0.0', '/v1.tar.gz', sha256(tarGz))]);
  settings.push({ name: 'Tiny tiny', command: 'my-own-build' });
  const rec = await service.install('tiny');
  assert.equal(rec.agentName, 'Tiny tiny (tiny)');
  assert.deepEqual(settings[0], { name: 'Tiny tiny', command: 'my-own-build' });
  assert.equal((settings[1] as AgentConfig).name, 'Tiny tiny (tiny)');
});

test('offline, the cached list is shown with its date; with no cache it is an error', async () => {
  const { service } = setup([binaryEntry('tiny', '1.0.0', '/v1.tar.gz', sha256(tarGz))]);
  const online = await service.catalog();
  assert.equal(online.offline, false);
  srv.set('/registry.json', '<html>gateway timeout</html>');
  const offline = await service.catalog();
  assert.equal(offline.offline, true);
  assert.deepEqual(
    offline.rows.map((r) => r.id),
    ['tiny'],
  );
  assert.match(offline.banner!, /^offline, list from \d{4}-\d\d-\d\d \d\d:\d\d$/);
  assert.match(offline.fetchError!, /not JSON/);
  const fresh = setup([]);
  srv.set('/registry.json', 'nope');
  await assert.rejects(fresh.service.catalog(), {
    name: 'RegistryLoadError',
    message:
      /^could not load the ACP Registry from http:.*: the registry index is not JSON: .*; no copy is cached yet$/,
  });
});
