import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRegistryIndex } from '../../../src/registry/parse';
import { repoRoot } from '../../support/paths';

const REAL_FORMAT = readFileSync(join(repoRoot, 'test/fixtures/registry/registry.json'), 'utf8');

const entry = (over: Record<string, unknown> = {}) => ({
  id: 'good-agent',
  name: 'Good Agent',
  version: '1.2.3',
  description: 'Does good things',
  distribution: { npx: { package: 'good-agent@1.2.3' } },
  ...over,
});
const index = (...agents: unknown[]) => ({ version: '1.0.0', agents });

test('an index in the registry format parses every agent with its fields', () => {
  const { index: idx, warnings } = parseRegistryIndex(REAL_FORMAT);
  assert.deepEqual(warnings, []);
  assert.equal(idx.version, '1.0.0');
  assert.deepEqual(
    idx.agents.map((a) => a.id),
    ['auggie', 'claude-code-acp', 'codex-acp', 'cursor', 'fast-agent', 'gemini', 'opencode'],
  );
  const auggie = idx.agents[0];
  assert.deepEqual(auggie.distribution.npx, {
    package: '@augmentcode/auggie@0.15.0',
    args: ['--acp'],
    env: { AUGMENT_DISABLE_AUTO_UPDATE: '1' },
  });
  assert.equal(auggie.icon, 'https://cdn.agentclientprotocol.com/registry/v1/latest/auggie.svg');
  assert.deepEqual(auggie.authors, ['Augment Code <support@augmentcode.com>']);
  const codex = idx.agents.find((a) => a.id === 'codex-acp')!;
  assert.deepEqual(Object.keys(codex.distribution.binary!), ['darwin-aarch64', 'linux-x86_64', 'windows-x86_64']);
  assert.equal(
    codex.distribution.binary!['linux-x86_64']!.sha256,
    '3f0a6c1b1a1e4c0e2d7b9a8c6e5f4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e',
    'sha256 kept, lower-cased',
  );
  assert.equal(codex.distribution.npx?.package, '@zed-industries/codex-acp@0.11.1');
  assert.deepEqual(idx.agents.find((a) => a.id === 'fast-agent')!.distribution.uvx, {
    package: 'fast-agent-acp==0.6.12',
    args: ['-x'],
  });
  assert.equal(idx.agents.find((a) => a.id === 'cursor')!.website, 'https://cursor.com/docs/cli/acp');
});

test('the legacy index with an "extensions" list still parses', () => {
  const { index: idx, warnings } = parseRegistryIndex({ ...index(entry()), extensions: [] });
  assert.equal(idx.agents.length, 1);
  assert.deepEqual(warnings, []);
});

test('a malformed entry is skipped with a warning and the others are kept', () => {
  const bad = [
    null,
    'just a string',
    entry({ id: 'Bad_ID' }),
    entry({ id: 'no-name', name: '' }),
    entry({ id: 'bad-version', version: 'latest' }),
    entry({ id: 'no-description', description: undefined }),
    entry({ id: 'no-dist', distribution: undefined }),
    entry({ id: 'empty-dist', distribution: {} }),
    entry({ id: 'args-not-strings', distribution: { npx: { package: 'x@1.0.0', args: [1, 2] } } }),
    entry({ id: 'env-not-strings', distribution: { npx: { package: 'x@1.0.0', env: { A: 1 } } } }),
    entry({ id: 'no-package', distribution: { uvx: { args: [] } } }),
    entry({ id: 'no-archive', distribution: { binary: { 'linux-x86_64': { cmd: './a' } } } }),
    entry({
      id: 'bad-sha',
      distribution: { binary: { 'linux-x86_64': { archive: 'https://x/a.tar.gz', cmd: './a', sha256: 'abc' } } },
    }),
    entry({ id: 'authors-not-list', authors: 'me' }),
  ];
  const { index: idx, warnings } = parseRegistryIndex(index(entry(), ...bad, entry({ id: 'also-good' })));
  assert.deepEqual(
    idx.agents.map((a) => a.id),
    ['good-agent', 'also-good'],
  );
  assert.equal(warnings.length, bad.length, warnings.join('\n'));
  assert.ok(warnings.every((w) => / skipped: /.test(w)));
  assert.match(warnings.join('\n'), /"bad-sha" skipped: .*sha256.* not 64 hex digits/);
  assert.match(warnings.join('\n'), /"no-archive" skipped: .*archive.* is missing/);
});

test('an unknown field where the schema allows none skips the entry with a warning', () => {
  const { index: idx, warnings } = parseRegistryIndex(
    index(
      entry({
        id: 'signed',
        distribution: {
          binary: { 'linux-x86_64': { archive: 'https://x/a.tar.gz', cmd: './a', signature: 'sig…' } },
        },
      }),
      entry({ id: 'pinned', distribution: { npx: { package: 'p@1.0.0', integrity: 'sha512-…' } } }),
      entry(),
    ),
  );
  assert.deepEqual(
    idx.agents.map((a) => a.id),
    ['good-agent'],
  );
  assert.match(warnings[0], /"signed" skipped: "distribution\.binary\.linux-x86_64" has unknown field signature/);
  assert.match(warnings[1], /"pinned" skipped: "distribution\.npx" has unknown field integrity/);
});

test('unknown top-level fields are allowed, as the schema allows them', () => {
  const { index: idx, warnings } = parseRegistryIndex(
    index(entry({ license_url: 'https://x/LICENSE', homepage: 'https://x', tags: ['a'] })),
  );
  assert.equal(idx.agents.length, 1);
  assert.deepEqual(warnings, []);
});

test('an unknown distribution kind or platform is dropped with a warning; the entry stays when something is left', () => {
  const { index: idx, warnings } = parseRegistryIndex(
    index(
      entry({ id: 'with-docker', distribution: { docker: { image: 'x' }, npx: { package: 'x@1.0.0' } } }),
      entry({ id: 'only-docker', distribution: { docker: { image: 'x' } } }),
      entry({
        id: 'riscv',
        distribution: {
          binary: {
            'linux-riscv64': { archive: 'https://x/r.tar.gz', cmd: './r' },
            'linux-x86_64': { archive: 'https://x/a.tar.gz', cmd: './a' },
          },
        },
      }),
    ),
  );
  assert.deepEqual(
    idx.agents.map((a) => a.id),
    ['with-docker', 'riscv'],
  );
  assert.deepEqual(Object.keys(idx.agents[1].distribution.binary!), ['linux-x86_64']);
  assert.match(warnings.join('\n'), /"with-docker": distribution kind "docker" is not one Tandem knows/);
  assert.match(warnings.join('\n'), /"only-docker" skipped: no distribution Tandem knows/);
  assert.match(warnings.join('\n'), /"riscv": binary platform "linux-riscv64" is not one Tandem knows/);
});

test('a second entry with the same id is skipped', () => {
  const { index: idx, warnings } = parseRegistryIndex(index(entry(), entry({ name: 'Impostor' })));
  assert.equal(idx.agents.length, 1);
  assert.equal(idx.agents[0].name, 'Good Agent');
  assert.match(warnings[0], /listed twice/);
});

test('a text that is no index is an error that says why', () => {
  assert.throws(() => parseRegistryIndex('<html>503</html>'), /not JSON/);
  assert.throws(() => parseRegistryIndex('[]'), /not a JSON object/);
  assert.throws(() => parseRegistryIndex({ agents: [] }), /no "version"/);
  assert.throws(() => parseRegistryIndex({ version: '1.0.0', agents: {} }), /no "agents" list/);
});

test('a newer index format is read as far as it goes, with a warning', () => {
  const { index: idx, warnings } = parseRegistryIndex({ version: '2.0.0', agents: [entry()] });
  assert.equal(idx.agents.length, 1);
  assert.match(warnings[0], /format 2\.0\.0/);
});

test('no entry, however odd, makes parsing throw', () => {
  const odd: unknown[] = [
    undefined,
    0,
    [],
    [[]],
    { id: 1 },
    { id: 'x', name: 'x', version: '1.0.0', description: 'x', distribution: null },
    { id: 'x', name: 'x', version: '1.0.0', description: 'x', distribution: { binary: [] } },
    { id: 'x', name: 'x', version: '1.0.0', description: 'x', distribution: { binary: { 'linux-x86_64': 'a' } } },
    { id: 'x', name: 'x', version: '1.0.0', description: 'x', distribution: { npx: 'pkg' } },
    Object.create(null),
    { ['__proto__']: { id: 'p' } },
  ];
  const { index: idx, warnings } = parseRegistryIndex(index(...odd));
  assert.equal(idx.agents.length, 0);
  assert.equal(warnings.length, odd.length);
});
