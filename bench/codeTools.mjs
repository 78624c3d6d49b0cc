#!/usr/bin/env node
// P5 in the real VS Code: MCP round trips of Code · GoToDefinition and of an Extensions (lm) tool
// call, with the same calls made directly in the extension host and a bare HTTP echo on the same
// loopback, same run (bench/lib/codeToolsHost.ts, run as a tests module inside code-server by
// test/harness/run-integration.mjs, with the lm fixture extension installed). Prints one JSON
// line. Uses a real VS Code: run it under the machine's lock,
//   flock /tmp/tandem-vscode.lock node bench/codeTools.mjs [--n 300] [--quick]
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const REPO = resolve(import.meta.dirname, '..');
const { values: opt } = parseArgs({
  strict: false,
  options: { n: { type: 'string' }, quick: { type: 'boolean', default: false } },
});
const n = Number(opt.n ?? (opt.quick ? 50 : 300));
const r = spawnSync(
  process.execPath,
  [
    join(REPO, 'test/harness/run-integration.mjs'),
    '--tests',
    join(REPO, 'out/bench/lib/codeToolsHost.js'),
    '--timeout',
    '900',
  ],
  { cwd: REPO, encoding: 'utf8', env: { ...process.env, TANDEM_BENCH_N: String(n) }, maxBuffer: 64 * 1024 * 1024 },
);
const line = (r.stdout ?? '').split('\n').find((l) => l.startsWith('TANDEM-BENCH '));
if (!line) {
  console.log(JSON.stringify({ bench: 'P5 clientTools in the real VS Code', error: `no result (exit ${r.status})` }));
  process.stderr.write((r.stdout ?? '').slice(-4000) + (r.stderr ?? '').slice(-2000));
  process.exit(1);
}
const res = JSON.parse(line.slice('TANDEM-BENCH '.length));
if (res.error) {
  console.log(JSON.stringify({ bench: 'P5 clientTools in the real VS Code', error: res.error }));
  process.exit(1);
}
const over = (x) => +(x.mcp.p50 - x.direct.p50).toFixed(3);
// What Tandem adds to a call is the MCP round trip: the same 5 ms p50 budget as P5's echo tool,
// on the overhead over the direct call (VS Code's own answer time is not Tandem's to budget).
res.mcpOverheadP50 = { goToDefinition: over(res.goToDefinition), lmTool: over(res.lmTool) };
res.budget = 'MCP overhead over the direct call, p50 < 5 ms';
res.budget_met = res.mcpOverheadP50.goToDefinition < 5 && res.mcpOverheadP50.lmTool < 5;
console.log(JSON.stringify(res));
