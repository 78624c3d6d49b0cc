// The configuration module against package.json: every key of contributes.configuration is in
// the settings table (and nothing else is), with the same default and scope; the getters, run
// on the fake `vscode`, read every declared key and no other; nothing outside src/vscode/config*
// calls getConfiguration. And the storage keys: unique, and the only ones used.
import { state as vs, vscodeFake } from '../security/fakeVscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { MemoryLogger } from '../../../src/common/logger';
import * as config from '../../../src/vscode/config';
import { read, SETTINGS, type SettingKey } from '../../../src/vscode/config/settings';
import { GLOBAL_STATE, SECRET_PREFIXES, WORKSPACE_STATE } from '../../../src/vscode/storageKeys';

const REPO = join(__dirname, '../../../..');
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
const declared: Record<string, { default?: unknown; scope?: string }> = Object.assign(
  {},
  ...[].concat(pkg.contributes.configuration).map((c: { properties: object }) => c.properties),
);
const keys = Object.keys(declared).map((k) => k.replace(/^tandem\./, ''));
/** The extension's folder, a fake vscode.Uri. */
const extUri = () => vscodeFake.Uri.file('/ext') as unknown as Parameters<typeof config.readSettings>[0];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(n) ? [p] : [];
  });
}

test('the settings table has every key of package.json, and no other', () => {
  assert.ok(keys.length >= 20, `package.json declares ${keys.length} settings`);
  assert.ok(
    Object.keys(declared).every((k) => k.startsWith('tandem.')),
    'every setting is under tandem.',
  );
  assert.deepEqual(Object.keys(SETTINGS).sort(), [...keys].sort());
});

test("each default and scope in the table is package.json's", () => {
  for (const key of keys) {
    const spec = SETTINGS[key as SettingKey];
    assert.deepEqual(spec.default, declared[`tandem.${key}`].default, `default of tandem.${key}`);
    assert.equal(spec.scope, declared[`tandem.${key}`].scope, `scope of tandem.${key}`);
  }
});

test("an unset setting reads as package.json's default (a copy)", () => {
  vs.config = {};
  for (const key of keys)
    assert.deepEqual(read(key as SettingKey), declared[`tandem.${key}`].default, `tandem.${key} unset`);
  const agents = read('agents');
  agents.push({ name: 'x' });
  assert.deepEqual(read('agents'), [], 'mutating a default read leaves the table alone');
});

test('the getters read every declared setting and nothing else', async () => {
  const ws = vscodeFake.workspace as Record<string, unknown>;
  const original = ws.getConfiguration as (section?: string) => Record<string, (...a: unknown[]) => unknown>;
  const seen = new Set<string>();
  const written: string[] = [];
  ws.getConfiguration = (section?: string) => {
    const c = original(section);
    const id = (k: string) => (section ? `${section}.${k}` : k);
    return {
      ...c,
      get: (k: string, d?: unknown) => {
        seen.add(id(k));
        return c.get(k, d);
      },
      inspect: (k: string) => {
        seen.add(id(k));
        return c.inspect(k);
      },
      update: async (k: string) => {
        written.push(id(k));
      },
    };
  };
  try {
    vs.config = {};
    config.readSettings(extUri());
    config.userAgentEntries();
    config.userDefaultAgent();
    config.notifications();
    config.maxAgents();
    config.idleAgentMinutes();
    config.permissionRules();
    config.followAgent();
    config.followOutsideWorkspace();
    config.visibleTerminals();
    config.recordTraffic();
    config.registryUrl();
    config.registryCheckForUpdates();
    config.readToolsConfig();
    config.extensionToolsExclude();
    config.commandTools();
    config.readUserMcpServers(new MemoryLogger());
    config.worktreeSetupCommand();
    config.worktreeAgents();
    assert.deepEqual([...seen].sort(), Object.keys(declared).sort());

    await config.setUserAgentEntries([]);
    await config.setDefaultAgent('Demo');
    await config.setFollowAgent(true);
    await config.setPermissionRules(undefined, 1);
    assert.deepEqual(written, [
      'tandem.agents',
      'tandem.defaultAgent',
      'tandem.followAgent',
      'tandem.permissions.rules',
    ]);
  } finally {
    ws.getConfiguration = original;
  }
});

test('the getters check what settings.json holds', () => {
  vs.config = {
    'tandem.notifications': 'sometimes',
    'tandem.maxMessageSizeMB': 'big',
    'tandem.defaultAgent': '',
    'tandem.registry.url': '',
    'tandem.clientTools.timeoutSeconds': -1,
    'tandem.clientTools.disconnection.maxRetries': 99,
    'tandem.clientTools.disconnection.strategy': 'pray',
    'tandem.clientTools.expandedGroups': 'Files',
    'tandem.clientTools.extensionTools.exclude': 'x',
    'tandem.clientTools.commandTools': [{ name: 'a' }, { name: 'b', command: 'c' }],
  };
  try {
    assert.equal(config.notifications(), 'whenHidden');
    const s = config.readSettings(extUri());
    assert.equal(s.maxMessageBytes, 64 * 1024 * 1024);
    assert.equal(s.defaultAgent, 'Demo');
    assert.ok(s.agents.some((a) => a.name === 'Demo'));
    assert.equal(config.registryUrl(), declared['tandem.registry.url'].default);
    const t = config.readToolsConfig();
    assert.equal(t.timeoutMs, 30_000);
    assert.equal(t.maxRetries, 10);
    assert.equal(t.disconnection, 'fallbackMessage');
    assert.deepEqual(t.expandedGroups, []);
    assert.deepEqual(config.extensionToolsExclude(), ['vscode_*']);
    assert.deepEqual(
      config.commandTools().map((c) => c.name),
      ['b'],
    );
  } finally {
    vs.config = {};
  }
});

test('onDidChange calls back for a watched setting or group, with which one changed', () => {
  const ws = vscodeFake.workspace as Record<string, unknown>;
  const before = ws.onDidChangeConfiguration;
  let fire: ((e: { affectsConfiguration(id: string): boolean }) => void) | undefined;
  ws.onDidChangeConfiguration = (l: typeof fire) => {
    fire = l;
    return { dispose: () => undefined };
  };
  try {
    const calls: boolean[] = [];
    config.onDidChange(['clientTools'], (affects) => calls.push(affects('clientTools.commandTools')));
    const changed = (...ids: string[]) => ({ affectsConfiguration: (id: string) => ids.some((x) => x.startsWith(id)) });
    fire!(changed('tandem.followAgent'));
    fire!(changed('tandem.clientTools.collapse'));
    fire!(changed('tandem.clientTools.commandTools'));
    assert.deepEqual(calls, [false, true]);
  } finally {
    ws.onDidChangeConfiguration = before;
  }
});

test('no file of src/ but the config module calls getConfiguration', () => {
  const outside = sources(join(REPO, 'src'))
    .map((f) => relative(REPO, f).split('\\').join('/'))
    .filter((f) => f !== 'src/vscode/config.ts' && !f.startsWith('src/vscode/config/'))
    .filter((f) => /\bgetConfiguration\s*\(/.test(readFileSync(join(REPO, f), 'utf8')));
  assert.deepEqual(outside, []);
});

test('storage keys are unique, under tandem., and the only ones src/ uses', () => {
  const state = [...Object.values(WORKSPACE_STATE), ...Object.values(GLOBAL_STATE)];
  const prefixes = Object.values(SECRET_PREFIXES);
  const all = [...state, ...prefixes];
  assert.equal(new Set(all).size, all.length, `duplicates in ${all.join(', ')}`);
  for (const k of all) assert.match(k, /^tandem\./);
  for (const p of prefixes)
    for (const k of all) if (k !== p) assert.ok(!k.startsWith(p), `${k} falls under the secret prefix ${p}`);
  // A key written out at a call site instead of imported from storageKeys.ts.
  const literal = /\b(workspaceState|globalState|secrets)\.(get|update|store|delete)\s*(<[^>]*>)?\(\s*['"`]/;
  const offenders = sources(join(REPO, 'src')).filter((f) => literal.test(readFileSync(f, 'utf8')));
  assert.deepEqual(offenders, []);
});
