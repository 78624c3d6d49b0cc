import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRegistryIndex } from '../../../src/registry/parse';
import { archiveFormat, planInstall, platformKey, splitNpmSpec, UV_HELP } from '../../../src/registry/plan';
import type { RegistryAgent } from '../../../src/registry/types';
import { repoRoot } from '../../support/paths';

const agents = parseRegistryIndex(readFileSync(join(repoRoot, 'test/fixtures/registry/registry.json'), 'utf8')).index
  .agents;
const byId = (id: string): RegistryAgent => agents.find((a) => a.id === id)!;
const ALL_TOOLS = { node: '/usr/bin/node', npm: '/usr/bin/npm', uvx: '/usr/bin/uvx' };

test("Node's platform and arch map to the registry's platform keys", () => {
  assert.equal(platformKey('linux', 'x64'), 'linux-x86_64');
  assert.equal(platformKey('linux', 'arm64'), 'linux-aarch64');
  assert.equal(platformKey('darwin', 'arm64'), 'darwin-aarch64');
  assert.equal(platformKey('darwin', 'x64'), 'darwin-x86_64');
  assert.equal(platformKey('win32', 'x64'), 'windows-x86_64');
  assert.equal(platformKey('win32', 'arm64'), 'windows-aarch64');
  assert.equal(platformKey('linux', 'ia32'), undefined);
  assert.equal(platformKey('freebsd', 'x64'), undefined);
});

test('a verified binary for this platform is preferred over npx', () => {
  const r = planInstall(byId('codex-acp'), 'linux-x86_64', ALL_TOOLS);
  assert.ok('plan' in r && r.plan.kind === 'binary');
  assert.equal(
    r.plan.url,
    'https://github.com/zed-industries/codex-acp/releases/download/v0.11.1/codex-acp-0.11.1-x86_64-unknown-linux-gnu.tar.gz',
  );
  assert.equal(r.plan.format, 'tar.gz');
  assert.equal(r.plan.cmd, './codex-acp');
});

test('a binary without a sha256 is never used: npx instead, or unavailable saying why', () => {
  const viaNpx = planInstall(byId('codex-acp'), 'darwin-aarch64', ALL_TOOLS);
  assert.ok('plan' in viaNpx && viaNpx.plan.kind === 'npx');
  assert.deepEqual(viaNpx.plan, {
    kind: 'npx',
    packageName: '@zed-industries/codex-acp',
    version: '0.11.1',
    args: [],
    env: {},
  });
  const cursor = planInstall(byId('cursor'), 'darwin-aarch64', ALL_TOOLS);
  assert.ok('unavailable' in cursor);
  assert.equal(cursor.unavailable.why, 'unverified');
  assert.match(cursor.unavailable.message, /no sha256/);
});

test('an agent built only for other platforms is unavailable, naming the builds', () => {
  const r = planInstall(byId('cursor'), 'linux-x86_64', ALL_TOOLS);
  assert.ok('unavailable' in r);
  assert.equal(r.unavailable.why, 'platform');
  assert.equal(r.unavailable.message, 'no build for linux-x86_64 (builds: darwin-aarch64, windows-x86_64)');
});

test('npx needs node and npm; uvx needs uv, and the message says how to get it', () => {
  const npx = planInstall(byId('gemini'), 'linux-x86_64', { uvx: '/u' });
  assert.ok('unavailable' in npx);
  assert.equal(npx.unavailable.why, 'tool');
  assert.match(npx.unavailable.message, /npm/);
  const uvx = planInstall(byId('fast-agent'), 'linux-x86_64', { node: '/n', npm: '/m' });
  assert.ok('unavailable' in uvx);
  assert.ok(uvx.unavailable.message.endsWith(UV_HELP));
  assert.match(UV_HELP, /docs\.astral\.sh\/uv/);
  const withUv = planInstall(byId('fast-agent'), 'linux-x86_64', ALL_TOOLS);
  assert.ok('plan' in withUv);
  assert.deepEqual(withUv.plan, { kind: 'uvx', package: 'fast-agent-acp==0.6.12', args: ['-x'], env: {} });
});

test('npx keeps the package args and env, and pins the version of the spec', () => {
  const r = planInstall(byId('auggie'), 'linux-x86_64', ALL_TOOLS);
  assert.ok('plan' in r);
  assert.deepEqual(r.plan, {
    kind: 'npx',
    packageName: '@augmentcode/auggie',
    version: '0.15.0',
    args: ['--acp'],
    env: { AUGMENT_DISABLE_AUTO_UPDATE: '1' },
  });
});

test('a missing tool is reported before a missing platform build', () => {
  const a: RegistryAgent = {
    ...byId('cursor'),
    distribution: { ...byId('cursor').distribution, npx: { package: 'cursor-agent@1.0.0' } },
  };
  const r = planInstall(a, 'linux-x86_64', {});
  assert.ok('unavailable' in r);
  assert.equal(r.unavailable.why, 'tool');
});

test('npm package specs split into name and version', () => {
  assert.deepEqual(splitNpmSpec('@zed-industries/claude-code-acp@0.16.2'), {
    name: '@zed-industries/claude-code-acp',
    version: '0.16.2',
  });
  assert.deepEqual(splitNpmSpec('@scope/pkg'), { name: '@scope/pkg' });
  assert.deepEqual(splitNpmSpec('pkg@1.0.0'), { name: 'pkg', version: '1.0.0' });
  assert.deepEqual(splitNpmSpec('pkg'), { name: 'pkg' });
});

test('archive formats come from the URL path; installers and bzip2 are not unpacked', () => {
  assert.equal(archiveFormat('https://x/a/agent-1.0.tar.gz'), 'tar.gz');
  assert.equal(archiveFormat('https://x/a/agent.TGZ?sig=1'), 'tar.gz');
  assert.equal(archiveFormat('https://x/a/agent.zip#frag'), 'zip');
  assert.equal(archiveFormat('https://x/a/agent-linux-x64'), 'raw');
  assert.equal(archiveFormat('https://x/a/agent.exe'), 'raw');
  assert.deepEqual(archiveFormat('https://x/goose.tar.bz2'), { unsupported: '.tar.bz2' });
  assert.deepEqual(archiveFormat('https://x/setup.dmg'), { unsupported: '.dmg' });
});
