// The npx and uvx halves of installing, without the network: which file of an npm package runs
// (as npx would pick it), what a uvx agent's entry looks like, and what `removeStale` keeps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { carryOut } from '../../../src/registry/installer';
import { npmBin } from '../../../src/registry/npm';
import { RegistryStore } from '../../../src/registry/store';

function fakePackage(name: string, pkg: object): string {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-npm-'));
  const pkgDir = join(dir, 'node_modules', ...name.split('/'));
  mkdirSync(pkgDir, { recursive: true });
  writeFileSync(join(pkgDir, 'package.json'), JSON.stringify({ name, ...pkg }));
  return dir;
}

test("an npm package's executable is its only bin, or the one named after the package", async () => {
  const one = fakePackage('@zed-industries/claude-code-acp', { bin: { 'claude-code-acp': 'dist/index.js' } });
  assert.equal(
    await npmBin(one, '@zed-industries/claude-code-acp'),
    join(one, 'node_modules/@zed-industries/claude-code-acp/dist/index.js'),
  );
  const str = fakePackage('plain', { bin: './cli.js' });
  assert.equal(await npmBin(str, 'plain'), join(str, 'node_modules/plain/cli.js'));
  const many = fakePackage('@google/gemini-cli', { bin: { gemini: 'bundle/gemini.js', other: 'x.js' } });
  await assert.rejects(npmBin(many, '@google/gemini-cli'), /no single executable/);
  const named = fakePackage('@s/tool', { bin: { helper: 'h.js', tool: 't.js' } });
  assert.equal(await npmBin(named, '@s/tool'), join(named, 'node_modules/@s/tool/t.js'));
  const escaping = fakePackage('evil', { bin: '../../../../bin/sh' });
  await assert.rejects(npmBin(escaping, 'evil'), /outside/);
  await assert.rejects(npmBin(mkdtempSync(join(tmpdir(), 'tandem-npm-')), 'missing'), /did not install missing/);
});

test('a uvx agent runs through uvx with its package and args; nothing goes to disk', async () => {
  const store = new RegistryStore(mkdtempSync(join(tmpdir(), 'tandem-uvx-')));
  const out = await carryOut(
    { id: 'fast-agent', name: 'fast-agent', version: '0.6.12' },
    { kind: 'uvx', package: 'fast-agent-acp==0.6.12', args: ['-x'], env: { FAST: '1' } },
    { store, tools: { uvx: '/opt/uv/bin/uvx' }, policy: { allowLoopbackHttp: false } },
  );
  const { release, ...rest } = out;
  release(); // nothing on disk, nothing leased
  assert.deepEqual(rest, {
    version: '0.6.12',
    run: { command: '/opt/uv/bin/uvx', args: ['fast-agent-acp==0.6.12', '-x'], env: { FAST: '1' } },
  });
  assert.ok(!existsSync(join(store.root, 'agents')));
});

test('removeStale removes versions no record names, and leaves a fresh staging folder alone', async () => {
  const store = new RegistryStore(mkdtempSync(join(tmpdir(), 'tandem-stale-')));
  const keep = store.versionDir('a', '2.0.0');
  const old = store.versionDir('a', '1.0.0');
  const running = store.versionDir('b', '1.0.0');
  const fresh = join(store.agentDir('a'), '.staging-fresh');
  const abandoned = join(store.agentDir('a'), '.staging-old');
  for (const d of [keep, old, running, fresh, abandoned]) mkdirSync(d, { recursive: true });
  const dayAgo = Date.now() / 1000 - 86_400;
  utimesSync(abandoned, dayAgo, dayAgo);
  await store.record({ id: 'a', version: '2.0.0', kind: 'binary', agentName: 'A', dir: keep, installedAt: 0 });
  const removed = await store.removeStale([running]);
  assert.deepEqual(removed.sort(), [abandoned, old].sort());
  assert.ok(existsSync(keep) && existsSync(fresh) && existsSync(running));
});
