#!/usr/bin/env node
// The workbench under load, in the real VS Code (code-server), with the budgets enforced:
// - flood: 2,000 tool calls + 20,000 chunks from a scripted agent as fast as the pipe takes them
//   (test/e2e/flood.e2e.mjs): shown ≤ 2 s after the agent's last write, no long task > 100 ms;
// - long output: a command printing 20 MB through Tandem's terminal (test/e2e/long-output.e2e.mjs).
// In both, a 50 ms timer probe in the workbench page and in the webview must never wait more than
// 100 ms (test/e2e/gapProbe.mjs). Prints one JSON line: {bench:"flood", flood, longOutput, budget_met}.
import { spawnSync } from 'node:child_process';

function runE2e(file, marker) {
  const r = spawnSync(
    process.execPath,
    ['test/harness/run-e2e.mjs', ...(process.argv.includes('--no-build') ? ['--no-build'] : []), file],
    { encoding: 'utf8', env: { ...process.env, TANDEM_ENFORCE_BUDGETS: '1' }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = (r.stdout ?? '').split('\n').find((l) => l.includes(`${marker} {`));
  const figures = line ? JSON.parse(line.slice(line.indexOf(`${marker} `) + marker.length + 1)) : null;
  // A failed budget fails the e2e run: its message is in the output.
  const failure = (r.stdout ?? '').split('\n').find((l) => /budget \d+\)/.test(l));
  return { figures: figures ?? { error: `no ${marker} figures printed` }, ok: r.status === 0 && !!figures, failure };
}

const flood = runE2e('test/e2e/flood.e2e.mjs', 'FLOOD');
const longOutput = runE2e('test/e2e/long-output.e2e.mjs', 'LONG_OUTPUT');
console.log(
  JSON.stringify({
    bench: 'flood',
    flood: { ...flood.figures, ...(flood.failure ? { budget_missed: flood.failure.trim() } : {}) },
    longOutput: { ...longOutput.figures, ...(longOutput.failure ? { budget_missed: longOutput.failure.trim() } : {}) },
    budget: { shownAfterLastWriteMs: 2000, longestTaskMs: 100, maxTimerGapMs: 100 },
    budget_met: flood.ok && longOutput.ok,
  }),
);
process.exit(flood.figures.error || longOutput.figures.error ? 1 : 0);
