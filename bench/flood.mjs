#!/usr/bin/env node
// Flood (issue 3): 2,000 tool calls + 20,000 chunks from a scripted agent as fast as the pipe
// takes them, shown in the real Tandem webview in code-server. Runs test/e2e/flood.e2e.mjs with
// the budgets enforced and prints one JSON line: {bench:"flood", …figures, budget_met}.
import { spawnSync } from 'node:child_process';

const r = spawnSync(
  process.execPath,
  [
    'test/harness/run-e2e.mjs',
    ...(process.argv.includes('--no-build') ? ['--no-build'] : []),
    'test/e2e/flood.e2e.mjs',
  ],
  {
    encoding: 'utf8',
    env: { ...process.env, TANDEM_ENFORCE_BUDGETS: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const line = (r.stdout ?? '').split('\n').find((l) => l.includes('FLOOD {'));
const figures = line ? JSON.parse(line.slice(line.indexOf('FLOOD ') + 6)) : null;
console.log(
  JSON.stringify({
    bench: 'flood',
    ...(figures ?? { error: 'no FLOOD figures printed' }),
    budget: { shownAfterLastWriteMs: 2000, longestTaskMs: 100 },
    budget_met: r.status === 0 && !!figures,
  }),
);
process.exit(figures ? 0 : 1);
