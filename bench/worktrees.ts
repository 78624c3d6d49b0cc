// Worktrees: what a session's own worktree costs over the bare git command, on a generated
// repository (10,000 small text files in a few folders, one commit), in the same run:
//   - baseline: `git worktree add -b <branch> <folder> HEAD` alone;
//   - createWorktree without carried changes (the checks, the slug, the same git worktree add);
//   - createWorktree carrying 5 modified files and 1 untracked file (stash create on an index
//     copy, stash apply, the copy).
// Each 5 times, the three in rotating order, each worktree removed (untimed) before the next.
// Budget: createWorktree's median ≤ 1.2× the bare `git worktree add`'s.
// `node out/bench/worktrees.js [--files 10000] [--reps 5] [--quick]`; BENCH_QUICK=1 (npm test)
// means --quick: 2,000 files. Prints one JSON line.
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { createWorktree } from '../src/worktrees/worktrees';

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '10000' },
    reps: { type: 'string', default: '5' },
    quick: { type: 'boolean', default: false },
  },
});
const QUICK = values.quick || process.env.BENCH_QUICK === '1';
const FILES = QUICK ? 2000 : Number(values.files);
const REPS = Number(values.reps);
const BUDGET = 1.2;

const run = promisify(execFile);
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@localhost', ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round = (x: number) => Math.round(x * 10) / 10;

/** Small source-like files in 20 × 5 folders, committed once. */
function generate(repo: string): void {
  mkdirSync(repo, { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'config', 'gc.auto', '0'); // no detached gc during the timings
  for (let i = 0; i < FILES; i++) {
    const dir = join(repo, `pkg${i % 20}`, `mod${i % 5}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `file${i}.ts`),
      `// file ${i}\nexport const value${i} = ${i};\nexport function f${i}() {\n  return value${i} * 2;\n}\n`,
    );
  }
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'generated');
}

async function main(): Promise<void> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-bench-wt-')));
  const repo = join(root, 'repo');
  const parent = join(root, 'storage');
  mkdirSync(parent);
  const t0 = performance.now();
  generate(repo);
  const generateMs = performance.now() - t0;
  // The user's uncommitted work the carrying variant takes along (the others ignore it).
  for (let i = 0; i < 5; i++) writeFileSync(join(repo, `pkg${i}`, `mod${i}`, `file${i * 101}.ts`), `// edited ${i}\n`);
  writeFileSync(join(repo, 'notes.md'), '# untracked\n');

  const times: Record<'add' | 'create' | 'carry', number[]> = { add: [], create: [], carry: [] };
  const variants = {
    add: async (i: number) => {
      const folder = join(parent, `bare-${i}`);
      const t = performance.now();
      await run('git', ['worktree', 'add', '--quiet', '-b', `bench/bare-${i}`, folder, 'HEAD'], { cwd: repo });
      return { ms: performance.now() - t, folder, branch: `bench/bare-${i}` };
    },
    create: async (i: number) => {
      const t = performance.now();
      const s = await createWorktree({ repoRoot: repo, parentDir: parent, name: `clean ${i}`, carryChanges: false });
      return { ms: performance.now() - t, folder: s.path, branch: s.branch };
    },
    carry: async (i: number) => {
      const t = performance.now();
      const s = await createWorktree({ repoRoot: repo, parentDir: parent, name: `carry ${i}`, carryChanges: true });
      return { ms: performance.now() - t, folder: s.path, branch: s.branch };
    },
  };
  const names = Object.keys(variants) as (keyof typeof variants)[];
  for (let i = 0; i < REPS; i++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length]; // rotate, so no variant always runs first
      const r = await variants[name](i);
      times[name].push(r.ms);
      git(repo, 'worktree', 'remove', '--force', r.folder);
      git(repo, 'branch', '-D', r.branch);
    }
  }
  const row = (name: keyof typeof times) => ({
    median_ms: round(median(times[name])),
    runs_ms: times[name].map(round),
    vs_baseline: Math.round((median(times[name]) / median(times.add)) * 100) / 100,
  });
  const create = row('create');
  console.log(
    JSON.stringify({
      bench: 'worktrees',
      files: FILES,
      reps: REPS,
      generate_ms: Math.round(generateMs),
      baseline: { name: 'git worktree add', median_ms: round(median(times.add)), runs_ms: times.add.map(round) },
      results: {
        createWorktree: create,
        createWorktree_carry: { ...row('carry'), modified_files: 5, untracked_files: 1 },
      },
      budget: `createWorktree (no carried changes) median ≤ ${BUDGET}× git worktree add's`,
      budget_met: median(times.create) <= BUDGET * median(times.add),
    }),
  );
  rmSync(root, { recursive: true, force: true });
}

void main();
