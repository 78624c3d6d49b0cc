#!/usr/bin/env node
// Builds the plain transpile (node esbuild.mjs --tests-only) and runs every out/bench/*.js bench,
// each in its own process; every bench prints one JSON object per line, passed through as is.
// `node bench/run.mjs [name-filter] [-- args for the benches]`
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const filter = (dash < 0 ? argv : argv.slice(0, dash))[0];
const benchArgs = dash < 0 ? [] : argv.slice(dash + 1);

const build = spawnSync(process.execPath, ['esbuild.mjs', '--tests-only'], { stdio: ['ignore', 'ignore', 'inherit'] });
if (build.status !== 0) process.exit(build.status ?? 1);

let failed = 0;
const files = readdirSync('out/bench').filter((f) => f.endsWith('.js') && (!filter || f.includes(filter))).sort();
for (const f of files) {
  const r = spawnSync(process.execPath, ['--expose-gc', join('out/bench', f), ...benchArgs], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  const lines = (r.stdout ?? '').split('\n').filter((l) => l.trim().startsWith('{'));
  for (const l of lines) console.log(l.trim());
  if (r.status !== 0 || lines.length === 0) {
    failed++;
    console.log(JSON.stringify({ bench: f.replace(/\.js$/, ''), error: `exit ${r.status ?? r.signal}` }));
  }
}
process.exit(failed ? 1 : 0);
