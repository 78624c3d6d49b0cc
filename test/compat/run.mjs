#!/usr/bin/env node
// Compatibility tests: real agents from npm against fake model servers on 127.0.0.1.
// Installs the pinned agents (installAgents.mjs) into the test cache OUTSIDE the repo, builds
// the plain transpile, runs out/test/compat/**/*.test.js with node --test (AgentClient + node-backed
// ports), then the same agents through the REAL extension inside a real VS Code
// (test/integration/compat.test.ts via run-integration.mjs --grep "compat:", TANDEM_COMPAT=1), and
// prints exactly one closing line `RESULT <n> passed, <m> failed[, <k> skipped]` for both parts
// (read by scripts/test.mjs).
// Env: TANDEM_COMPAT_CACHE (default <TANDEM_TEST_CACHE>/compat, so an empty test cache means a cold
// install of the agents too).
// node test/compat/run.mjs [--no-build] [--no-install] [--no-vscode] [--only-vscode]
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPAT_CACHE, installAgents } from './installAgents.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CACHE = COMPAT_CACHE;
const args = new Set(process.argv.slice(2));

function listTests(dir) {
  const out = [];
  let names = [];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const n of names) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...listTests(p));
    else if (n.endsWith('.test.js')) out.push(p);
  }
  return out.sort();
}

let passed = 0,
  failed = 0,
  skipped = 0;
try {
  if (!args.has('--no-install')) await installAgents();
  // Node 24 from the VS Code harness's install: claude-agent-acp needs Node ≥ 22.
  const { ensureInstalled, installPaths } = await import('../harness/install.mjs');
  if (!args.has('--no-install')) await ensureInstalled({ quiet: true });
  const agentNode = existsSync(installPaths().node24) ? installPaths().node24 : '';
  if (!args.has('--no-build')) {
    const b = spawnSync(process.execPath, ['esbuild.mjs', '--tests-only'], { cwd: REPO, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('build failed');
  }
  const files = args.has('--only-vscode') ? [] : listTests(join(REPO, 'out', 'test', 'compat'));
  if (files.length) {
    const r = spawnSync(
      process.execPath,
      [
        '--test',
        '--test-concurrency=1',
        '--test-reporter=spec',
        '--test-reporter-destination=stderr',
        '--test-reporter=tap',
        '--test-reporter-destination=stdout',
        ...files,
      ],
      {
        cwd: REPO,
        stdio: ['ignore', 'pipe', 'inherit'],
        encoding: 'utf8',
        env: { ...process.env, TANDEM_COMPAT_CACHE: CACHE, TANDEM_AGENT_NODE: agentNode },
      },
    );
    const num = (k) => Number(((r.stdout ?? '').match(new RegExp(`^# ${k} (\\d+)`, 'm')) ?? [])[1] ?? 0);
    passed = num('pass');
    failed = num('fail');
    skipped = num('skipped');
    if (r.status !== 0 && failed === 0) failed = 1;
  }
  if (!args.has('--no-vscode')) {
    // The same agents through the real extension (Controller, VS Code ports, permission broker,
    // client-tools MCP server, IDE handlers) in code-server. Its build includes the bundles.
    console.log('[compat] real agents through the real extension in VS Code (run-integration.mjs --grep "compat:")');
    const t0 = Date.now();
    const v = spawnSync(
      process.execPath,
      [
        join(REPO, 'test', 'harness', 'run-integration.mjs'),
        '--grep',
        'compat:',
        '--timeout',
        '600',
        ...(args.has('--no-build') ? ['--no-build'] : []),
      ],
      {
        cwd: REPO,
        stdio: ['ignore', 'pipe', 'inherit'],
        encoding: 'utf8',
        env: { ...process.env, TANDEM_COMPAT: '1', TANDEM_COMPAT_CACHE: CACHE, TANDEM_AGENT_NODE: agentNode },
      },
    );
    const out = v.stdout ?? '';
    process.stderr.write(out.replace(/^RESULT .*$/m, '')); // its report, minus its own RESULT line
    const m = out.match(/^RESULT (\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/m);
    const c = m ? { p: +m[1], f: +m[2], s: +(m[3] ?? 0) } : { p: 0, f: 1, s: 0 };
    if (v.status !== 0 && c.f === 0) c.f = 1;
    console.log(
      `[compat] in VS Code: ${c.p} passed, ${c.f} failed${c.s ? `, ${c.s} skipped` : ''} (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
    );
    passed += c.p;
    failed += c.f;
    skipped += c.s;
  }
} catch (err) {
  console.log(`✗ ${err instanceof Error ? err.message : err}`);
  failed = Math.max(failed, 1);
}
console.log(`RESULT ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exitCode = failed ? 1 : 0;
