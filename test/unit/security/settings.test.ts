// Settings that execute something (agents, their default, command tools, MCP servers) can never
// come from a workspace's settings: machine scope (VS Code ignores them in workspace and folder
// settings) and listed in restrictedConfigurations (ignored in restricted mode). Checked on
// package.json, with a generic rule: any setting whose schema has a command/args/url/env field
// must be machine-scoped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const pkg = JSON.parse(readFileSync(join(__dirname, '../../../../package.json'), 'utf8'));
const props: Record<string, { scope?: string; [k: string]: unknown }> = Object.assign(
  {},
  ...[].concat(pkg.contributes.configuration).map((c: { properties: object }) => c.properties),
);
// tandem.registry.url decides what "Add Agent from Registry…" installs and runs.
const EXECUTES = [
  'tandem.agents',
  'tandem.defaultAgent',
  'tandem.clientTools.commandTools',
  'tandem.mcpServers',
  'tandem.registry.url',
];

test('every setting that executes a command is machine-scoped and restricted in untrusted workspaces', () => {
  const restricted: string[] = pkg.capabilities.untrustedWorkspaces.restrictedConfigurations;
  for (const key of EXECUTES) {
    assert.ok(props[key], `${key} exists`);
    assert.equal(props[key].scope, 'machine', `${key} is machine-scoped`);
    assert.ok(restricted.includes(key), `${key} is in restrictedConfigurations`);
  }
  assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
});

test('any setting whose schema can name a command, args, env or a server URL is machine-scoped', () => {
  const risky = (schema: unknown, depth = 0): boolean => {
    if (!schema || typeof schema !== 'object' || depth > 8) return false;
    const s = schema as Record<string, unknown>;
    const names = Object.keys((s.properties as object | undefined) ?? {});
    if (names.some((n) => ['command', 'args', 'env', 'url', 'headers'].includes(n))) return true;
    return [
      s.items,
      s.additionalProperties,
      ...Object.values((s.properties as object | undefined) ?? {}),
      ...((s.anyOf ?? s.oneOf ?? []) as unknown[]),
    ].some((x) => risky(x, depth + 1));
  };
  // tandem.permissions.rules has a `command` *matcher* (a prefix it compares), nothing it runs.
  const found = Object.entries(props)
    .filter(([k, s]) => k !== 'tandem.permissions.rules' && risky(s))
    .map(([k]) => k);
  assert.ok(found.length >= 3, `found ${found.join(', ')}`);
  for (const key of found) assert.equal(props[key].scope, 'machine', `${key} can execute something: machine scope`);
});

test('recording traffic (writes files) is machine-scoped; permission rules in workspace settings can only tighten (see rules.test.ts)', () => {
  assert.equal(props['tandem.recordTraffic'].scope, 'machine');
  assert.match(String(props['tandem.permissions.rules'].markdownDescription), /workspace settings can only tighten/);
});
