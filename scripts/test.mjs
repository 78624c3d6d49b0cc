#!/usr/bin/env node
// The one test command (README: `npm ci && npm test`). Runs every layer in order and prints
// a closing "N passed, N failed" line. `node scripts/test.mjs unit|integration|e2e|compat`
// runs one layer.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const only = process.argv[2];
const totals = { passed: 0, failed: 0, skipped: 0 };
const t0 = Date.now();

function run(title, cmd, args, opts = {}) {
  console.log(`\n=== ${title} ===`);
  const r = spawnSync(cmd, args, {
    stdio: opts.capture ? ['ignore', 'pipe', 'inherit'] : 'inherit',
    encoding: 'utf8',
    ...opts,
  });
  if (opts.capture) process.stdout.write(r.stdout ?? '');
  if (r.status !== 0) {
    console.error(`\n✗ ${title} failed (exit ${r.status ?? r.signal})`);
  }
  return r;
}

function listTests(dir) {
  const out = [];
  let names = [];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...listTests(p));
    else if (name.endsWith('.test.js')) out.push(p);
  }
  return out.sort();
}

/** Reads node --test's closing summary ("# pass N", "# fail N"). */
function countNodeTest(stdout) {
  const num = (k) => Number((stdout.match(new RegExp(`^# ${k} (\\d+)`, 'm')) ?? [])[1] ?? 0);
  return { passed: num('pass'), failed: num('fail'), skipped: num('skipped') };
}

function add(c) {
  totals.passed += c.passed;
  totals.failed += c.failed;
  totals.skipped += c.skipped ?? 0;
}

let ok = true;
const step = (r) => {
  if (r.status !== 0) ok = false;
  return r;
};

if (!only || only === 'unit') {
  // The VSIX first (npm run package: production bundles + vsce): the unit layer checks its
  // contents, the e2e layer installs it. The development build below then rewrites dist/.
  step(run('package the VSIX (npm run package)', process.execPath, ['test/harness/vsix.mjs']));
  step(run('build (bundles and the test transpile)', process.execPath, ['esbuild.mjs', '--with-tests']));
  if (!only) {
    step(
      run('lint (eslint: undefined names, floating promises, boundaries)', process.execPath, [
        'node_modules/eslint/bin/eslint.js',
        '.',
      ]),
    );
    step(
      run('format (prettier --check; npm run format fixes)', process.execPath, [
        'node_modules/prettier/bin/prettier.cjs',
        '--check',
        '--log-level=warn',
        '.',
      ]),
    );
    // Host + tests, the webview, and the webview's tests (each has its own lib settings).
    for (const project of ['.', 'src/webview', 'test/unit/webview']) {
      step(
        run(`typecheck ${project}`, process.execPath, ['node_modules/typescript/bin/tsc', '-p', project, '--noEmit']),
      );
    }
  }
  const files = listTests('out/test/unit');
  const r = step(
    run(
      `unit tests (${files.length} files)`,
      process.execPath,
      [
        '--test',
        '--test-reporter=spec',
        '--test-reporter-destination=stderr',
        '--test-reporter=tap',
        '--test-reporter-destination=stdout',
        ...files,
      ],
      { capture: true },
    ),
  );
  const c = countNodeTest(r.stdout ?? '');
  if (r.status !== 0 && c.failed === 0) c.failed = 1;
  add(c);
}

/** The layers that need a real VS Code or real agents, each with its runner (test/README.md). */
const RUNNERS = {
  integration: 'test/harness/run-integration.mjs',
  e2e: 'test/harness/run-e2e.mjs',
  compat: 'test/compat/run.mjs',
};
for (const [layer, runner] of Object.entries(RUNNERS)) {
  if (only && only !== layer) continue;
  if (!ok && !only) {
    console.log(`\n(skipping ${layer}: an earlier step failed)`);
    continue;
  }
  const r = step(run(`${layer} tests`, process.execPath, [runner], { capture: true }));
  const m = (r.stdout ?? '').match(/^RESULT (\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/m);
  const c = m ? { passed: +m[1], failed: +m[2], skipped: +(m[3] ?? 0) } : { passed: 0, failed: 1 };
  if (r.status !== 0 && c.failed === 0) c.failed = 1;
  add(c);
}

// Benchmarks at reduced counts (they run in `npm test`; the full count and the budget
// verdicts are `npm run bench`). A bench that crashes fails the run; a missed budget does not:
// timings belong to benchmarks, not to tests.
if ((!only && ok) || only === 'bench') {
  const r = step(
    run('benchmarks (reduced counts; budgets reported by npm run bench)', process.execPath, ['bench/run.mjs'], {
      env: { ...process.env, BENCH_QUICK: '1' },
    }),
  );
  add(r.status === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 });
}

const secs = ((Date.now() - t0) / 1000).toFixed(0);
console.log(`\nTandem tests finished in ${secs}s`);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(ok && totals.failed === 0 ? 0 : 1);
