import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCatalog, plainText } from '../../../src/registry/browse';
import type { LoadedIndex } from '../../../src/registry/catalog';
import type { InstalledAgent, RegistryAgent } from '../../../src/registry/types';
import { compareVersions } from '../../../src/registry/versions';

test('versions compare by their numbers, a release above its pre-releases', () => {
  const ordered = [
    '0.9.9',
    '0.10.0',
    '1.0.0-alpha',
    '1.0.0-alpha.1',
    '1.0.0-alpha.beta',
    '1.0.0-beta.2',
    '1.0.0-beta.11',
    '1.0.0-rc.1',
    '1.0.0',
    '1.0.1',
    '2026.7.23',
    '2026.07.24',
  ];
  for (let i = 0; i < ordered.length; i++)
    for (let j = 0; j < ordered.length; j++)
      assert.equal(
        Math.sign(compareVersions(ordered[i], ordered[j])),
        Math.sign(i - j),
        `${ordered[i]} vs ${ordered[j]}`,
      );
  assert.equal(compareVersions('1.2.3+build.5', '1.2.3'), 0, 'build metadata is ignored');
  assert.equal(compareVersions('v1.2.3', '1.2.3'), 0);
});

const agent = (id: string, version: string): RegistryAgent => ({
  id,
  name: id.toUpperCase(),
  version,
  description: `${id} agent`,
  authors: [],
  distribution: { npx: { package: `${id}@${version}` } },
});
const installed = (id: string, version: string): InstalledAgent => ({
  id,
  version,
  kind: 'npx',
  agentName: id.toUpperCase(),
  dir: `/store/${id}/${version}`,
  installedAt: 0,
});
const loaded = (agents: RegistryAgent[], offline = false): LoadedIndex => ({
  index: { version: '1.0.0', agents },
  warnings: [],
  url: 'https://registry.test/registry.json',
  fetchedAt: new Date(2026, 10, 23, 14, 5).getTime(),
  offline,
});
const tools = { node: '/n', npm: '/m' };

test('an installed agent with a newer index version is an update; same or older is installed', () => {
  const c = buildCatalog(
    loaded([agent('newer', '1.1.0'), agent('same', '2.0.0'), agent('older', '0.9.0'), agent('fresh', '1.0.0')]),
    [installed('newer', '1.0.0'), installed('same', '2.0.0'), installed('older', '1.0.0')],
    'linux-x86_64',
    tools,
  );
  const state = Object.fromEntries(c.rows.map((r) => [r.id, r.state]));
  assert.deepEqual(state, { newer: 'update', same: 'installed', older: 'installed', fresh: 'available' });
  assert.equal(c.rows[0].id, 'newer', 'updates are listed first');
  assert.equal(c.rows.find((r) => r.id === 'newer')!.installed!.version, '1.0.0');
});

test('an update that cannot be installed here is not offered', () => {
  const c = buildCatalog(loaded([agent('x', '2.0.0')]), [installed('x', '1.0.0')], 'linux-x86_64', {});
  assert.equal(c.rows[0].state, 'installed');
});

test('an installed agent the index no longer lists stays in the list, to be uninstalled', () => {
  const c = buildCatalog(loaded([agent('a', '1.0.0')]), [installed('gone', '3.0.0')], 'linux-x86_64', tools);
  const gone = c.rows.find((r) => r.id === 'gone')!;
  assert.equal(gone.state, 'installed');
  assert.equal(gone.listed, false);
  assert.equal(gone.version, '3.0.0');
});

test('an offline list carries "offline, list from <date>"', () => {
  assert.equal(buildCatalog(loaded([], false), [], 'linux-x86_64', tools).banner, undefined);
  assert.equal(buildCatalog(loaded([], true), [], 'linux-x86_64', tools).banner, 'offline, list from 2026-11-23 14:05');
});

test('registry text becomes one plain line: no icon syntax, links, control or bidi characters', () => {
  assert.equal(plainText('Fast $(zap) agent'), 'Fast $\u200b(zap) agent');
  assert.equal(plainText('[Run](command:evil.run)'), '[Run]\u200b(command:evil.run)');
  assert.equal(plainText('line one\nline\ttwo\u0007'), 'line one line two');
  assert.equal(plainText('safe\u202eevil'), 'safe evil');
  assert.equal(plainText('x'.repeat(300), 10), `${'x'.repeat(9)}…`);
});
