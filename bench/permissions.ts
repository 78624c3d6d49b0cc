// Permission decisions on command lines: the cost of judging a line with the bash grammar
// (src/client/permissions/shell/) per decision — every user rule and remembered prefix checked,
// as the broker does — beside the regex matcher it replaced (bench/lib/regexMatcher.ts), on the
// same lines in the same run. Lines: the flood's 2,000 execute calls (their titles are their
// command lines) and 2,000 everyday command lines. Also the grammar's load time (once, on the
// first command; never at activation). Budget: p50 ≤ 0.2 ms per decision (5,000 decisions a
// second, nothing beside a prompt the user reads); p99 is reported. Prints one JSON line.
import { commandMatchesPrefix, scopeMatches, type CommandScope } from '../src/client/permissions/commandScope';
import { loadBashParser } from '../src/client/permissions/shell/bashParser';
import { pct } from './lib/latency';
import { regexMatchesPrefix, regexScopeMatches } from './lib/regexMatcher';

const N = Number(process.argv[2]) || 2000;
const RULES = ['npm test', 'git status', 'go test', 'rm'];
const REMEMBERED: CommandScope[] = [
  { match: 'prefix', command: 'git status', flags: ['-s'] },
  { match: 'prefix', command: 'npm run lint', flags: [] },
  { match: 'exact', command: 'ls -la' },
];
const EVERYDAY = [
  'git status -s',
  'npm test -- --grep "permission rules"',
  'git log --oneline -n 20 -- src/client',
  `git commit -m 'Parse shell commands with tree-sitter'`,
  'rg -n "TODO|FIXME" src | head -50',
  'npm run lint && npm run typecheck',
  'go test ./... -run TestParse -count=1',
  `git status "'" $(touch /tmp/PWNED) "'"`,
  'cd packages/app && npm ci 2>&1 | tail -20',
  'find . -name "*.ts" -not -path "./node_modules/*" | xargs wc -l',
];

function decide(
  line: string,
  ruleMatches: (line: string, prefix: string, loosening: boolean) => boolean,
  scope: (s: CommandScope, line: string) => boolean,
): boolean {
  const byRule = RULES.some((p, i) => ruleMatches(line, p, i < 3));
  return byRule || REMEMBERED.some((s) => scope(s, line));
}

function time(lines: readonly string[], one: (line: string) => boolean): number[] {
  for (const l of lines.slice(0, 200)) one(l); // warm up
  return lines.map((l) => {
    const t0 = performance.now();
    one(l);
    return performance.now() - t0;
  });
}

async function main() {
  const t0 = performance.now();
  if (!(await loadBashParser())) throw new Error('the bash grammar did not load');
  const loadMs = +(performance.now() - t0).toFixed(1);
  const flood = Array.from({ length: N }, (_, i) => `Flood tool call ${i}`);
  const everyday = Array.from({ length: N }, (_, i) => `${EVERYDAY[i % EVERYDAY.length]}${i % 3 ? ` x${i}` : ''}`);
  const parser = (l: string) => decide(l, commandMatchesPrefix, (s, line) => scopeMatches(s, line, true));
  const regex = (l: string) =>
    decide(l, regexMatchesPrefix, (s, line) =>
      s.match === 'exact' ? s.command === line.trim() : regexScopeMatches(s.command, line, true),
    );
  const stats = (xs: number[]) => ({ p50: pct(xs, 50), p99: pct(xs, 99) });
  const result = {
    flood: { parser: stats(time(flood, parser)), regex: stats(time(flood, regex)) },
    everyday: { parser: stats(time(everyday, parser)), regex: stats(time(everyday, regex)) },
  };
  const worstP50 = Math.max(result.flood.parser.p50, result.everyday.parser.p50);
  console.log(
    JSON.stringify({
      bench: 'permissions: command line judged per decision (bash grammar vs the old regex matcher)',
      n: N,
      unit: 'ms',
      grammarLoadMs: loadMs,
      ...result,
      budgetP50: 0.2,
      budget_met: worstP50 <= 0.2,
    }),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
