#!/usr/bin/env node
// `npm run bench`: every benchmark, each in its own process, one JSON object per line.
//  - builds the plain transpile (node esbuild.mjs --tests-only) and runs every out/bench/*.js
//    (P1 protocol, P3 terminal, P5 clientTools, memory, checkpoints) with --expose-gc;
//  - runs every bench/*.mjs but this file (P4 activation, P2 webview: real VS Code / Chromium);
//  - with FULL=1, also the property-based fuzz suite at its full count
//    (FULL=1 node --test out/test/unit/fuzz/), reported as one JSON line;
//  - ends with a summary line: {"summary": [{bench, budget_met}], "failed": n}.
// Exit code 1 when a bench crashed, printed nothing, or failed itself (memory: leak check).
// `node bench/run.mjs [name-filter] [-- args for the benches]`  (e.g. `npm run bench -- memory`)
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const filter = (dash < 0 ? argv : argv.slice(0, dash))[0];
const benchArgs = dash < 0 ? [] : argv.slice(dash + 1);
const FULL = process.env.FULL === '1';
// BENCH_QUICK=1 (used by `npm test`): every bench at a reduced count, so a bench that breaks shows
// in CI. Figures are printed; budgets are judged by `npm run bench`, never by the test run.
const QUICK = process.env.BENCH_QUICK === '1';
const QUICK_ARGS = {
  protocol: ['20000'],
  terminal: ['--mb', '20', '--runs', '1'],
  clientTools: ['300'],
  codeTools: ['--quick'],
  memory: ['--quick'],
  activation: ['--quick'],
  webview: ['--quick'],
  checkpoints: ['--quick'],
  worktrees: ['--quick'],
};
// The floods run in `npm test` already (test/e2e/flood.e2e.mjs and flood-four.e2e.mjs, timings
// not enforced).
const QUICK_SKIP = new Set(['flood', 'floodFour']);
const argsOf = (name) => (QUICK ? (QUICK_ARGS[name] ?? []) : benchArgs);

const build = spawnSync(process.execPath, ['esbuild.mjs', '--tests-only'], { stdio: ['ignore', 'ignore', 'inherit'] });
if (build.status !== 0) process.exit(build.status ?? 1);

let failed = 0;
const summary = [];
const budgetOf = (o) => o.budget_met ?? o.ok ?? o.pass ?? o.withinBudget;

function runOne(name, args, env) {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  const lines = (r.stdout ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('{'));
  for (const l of lines) {
    console.log(l);
    try {
      const o = JSON.parse(l);
      summary.push({
        bench: o.bench ?? name,
        budget_met: budgetOf(o) ?? null,
        seconds: Math.round((Date.now() - t0) / 1000),
      });
    } catch {
      /* passed through as is */
    }
  }
  if (r.status !== 0 || lines.length === 0) {
    failed++;
    console.log(JSON.stringify({ bench: name, error: `exit ${r.status ?? r.signal}` }));
    summary.push({ bench: name, error: `exit ${r.status ?? r.signal}` });
  }
}

const pick = (f) => !filter || f.includes(filter);
for (const f of readdirSync('out/bench')
  .filter((f) => f.endsWith('.js') && pick(f))
  .sort()) {
  const name = f.replace(/\.js$/, '');
  if (QUICK && QUICK_SKIP.has(name)) continue;
  runOne(name, ['--expose-gc', join('out/bench', f), ...argsOf(name)]);
}
for (const f of readdirSync('bench')
  .filter((f) => f.endsWith('.mjs') && f !== 'run.mjs' && pick(f))
  .sort()) {
  const name = f.replace(/\.mjs$/, '');
  if (QUICK && QUICK_SKIP.has(name)) continue;
  runOne(name, [join('bench', f), ...argsOf(name)]);
}

if (FULL && pick('fuzz')) {
  // The fuzz suite's full count (test/unit/fuzz/runs.ts: FULL=1 → 10× the `npm test` count).
  const t0 = Date.now();
  const files = readdirSync('out/test/unit/fuzz')
    .filter((f) => f.endsWith('.test.js'))
    .map((f) => join('out/test/unit/fuzz', f));
  const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', ...files], {
    encoding: 'utf8',
    env: { ...process.env, FULL: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  const num = (k) => Number(((r.stdout ?? '').match(new RegExp(`^# ${k} (\\d+)`, 'm')) ?? [])[1] ?? 0);
  const o = {
    bench: 'fuzz (FULL=1)',
    files: files.length,
    pass: num('pass'),
    fail: num('fail'),
    seconds: Math.round((Date.now() - t0) / 1000),
  };
  o.budget_met = r.status === 0 && o.fail === 0 && o.pass > 0;
  console.log(JSON.stringify(o));
  summary.push({ bench: o.bench, budget_met: o.budget_met, seconds: o.seconds });
  if (!o.budget_met) failed++;
}

console.log(JSON.stringify({ summary, failed }));
process.exit(failed ? 1 : 0);
