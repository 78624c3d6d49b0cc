// What Tandem knows about programs, for prefix matching: which run whatever their arguments
// say (never remembered by name), which have subcommands worth remembering (`git status`,
// `npm test`), and which options make an otherwise harmless command run code or write
// elsewhere (`git log --output=FILE`, `go test -exec CMD`). From the programs' manuals; a line
// with one of these options is matched only by its exact text, by a rule or a remembered answer.

/** Programs that run code or commands given in their arguments. */
const LAUNCHERS = new Set(
  (
    'node nodejs python python2 python3 py pypy pypy3 bash sh zsh dash ksh fish csh tcsh npx pnpx bunx env sudo doas ' +
    'su deno bun ruby perl php lua pwsh powershell osascript Rscript exec eval source . xargs nohup nice timeout ' +
    'time watch command builtin ssh find parallel awk gawk sed busybox script strace ltrace gdb open xdg-open start'
  ).split(' '),
);

/** Programs whose second word is a subcommand worth remembering ("npm test", "git status"). */
const SUBCOMMAND_PROGRAMS = new Set(
  (
    'git npm pnpm yarn cargo go docker kubectl make pip pip3 uv poetry dotnet mvn gradle ./gradlew gh rustup brew ' +
    'apt apt-get'
  ).split(' '),
);

/** Subcommands that launch an arbitrary command or package, or rewrite what later commands run. */
const LAUNCHING_SUBCOMMANDS = new Set(
  (
    'exec x dlx create init config alias api extension explore run-script-shell generate tool bisect filter-branch ' +
    'difftool mergetool clone worktree cp debug attach port-forward proxy sh link global'
  ).split(' '),
);

/** Subcommands that install packages (running their install scripts): only the exact line is remembered. */
const INSTALLING_SUBCOMMANDS = new Set('install i add get update upgrade ci'.split(' '));

/** Subcommands whose next word is itself a subcommand (`git submodule status`, `docker compose ps`). */
const NESTED_SUBCOMMANDS: Record<string, ReadonlySet<string>> = {
  git: new Set(['submodule', 'stash', 'remote', 'notes', 'lfs', 'sparse-checkout', 'reflog']),
  docker: new Set(['compose', 'container', 'image', 'network', 'volume', 'buildx', 'system', 'context']),
  kubectl: new Set(['config', 'rollout', 'auth']),
  gh: new Set(['pr', 'issue', 'repo', 'run', 'workflow', 'release', 'gist', 'cache', 'secret', 'variable']),
  uv: new Set(['pip', 'tool', 'python']),
  dotnet: new Set(['tool', 'nuget', 'new']),
  cargo: new Set(['metadata']),
};

/** Subcommands that run a named script or target: the name is part of the prefix (`npm run lint`). */
const NAMED_SUBCOMMANDS = new Set(['run', 'run-script']);

/** Programs whose `run` starts any command or image, not a project script. */
const RUN_LAUNCHES = new Set(['docker', 'kubectl', 'uv', 'poetry', 'go', 'cargo', 'dotnet', 'rustup', 'gh']);

/**
 * Options that run a command or write a file elsewhere. `long`: GNU/git style, also matched
 * abbreviated (`--out=` is `--output=` to git); `short`: letters that may be bundled (`-iO`);
 * `single`: Go-style one-dash long options (`-exec`, also `--exec`); `assignments`: a `NAME=value`
 * argument (make variables such as `SHELL=…`).
 */
interface Dangerous {
  long?: readonly string[];
  short?: string;
  single?: readonly string[];
  assignments?: boolean;
}

const GIT_OUTPUT: Dangerous = { long: ['output', 'output-directory', 'ext-diff', 'textconv', 'exec'], short: 'o' };
const GIT_REMOTE: Dangerous = { long: ['upload-pack', 'receive-pack', 'exec', 'config'], short: 'u' };
const GO_BUILD: Dangerous = {
  single: (
    'exec toolexec o ldflags gcflags asmflags gccgoflags overlay modfile pkgdir coverprofile cpuprofile memprofile ' +
    'blockprofile mutexprofile trace outputdir json-output w u C'
  ).split(' '),
};

/** Per program, per subcommand (`*`: any word of the command; `^`: options before the subcommand). */
const DANGEROUS: Record<string, Record<string, Dangerous>> = {
  git: {
    '^': { long: ['exec-path', 'git-dir', 'work-tree', 'config-env', 'namespace'], short: 'cC' },
    grep: { long: ['open-files-in-pager', 'ext-grep'], short: 'O' },
    log: GIT_OUTPUT,
    show: GIT_OUTPUT,
    diff: GIT_OUTPUT,
    'diff-tree': GIT_OUTPUT,
    'format-patch': GIT_OUTPUT,
    whatchanged: GIT_OUTPUT,
    archive: { long: ['output', 'remote', 'exec'], short: 'o' },
    fetch: GIT_REMOTE,
    pull: GIT_REMOTE,
    push: { long: ['receive-pack', 'exec', 'repo'] },
    'ls-remote': GIT_REMOTE,
    rebase: { long: ['exec'], short: 'x' },
    commit: { long: ['template', 'file'], short: 'F' },
    blame: { long: ['contents'] },
    status: { long: [] },
  },
  go: { '*': GO_BUILD },
  make: { '*': { long: ['eval', 'file', 'makefile', 'directory', 'include-dir'], short: 'fCIE', assignments: true } },
  npm: {
    '*': {
      long: ['script-shell', 'node-options', 'userconfig', 'globalconfig', 'prefix', 'global', 'call'],
      short: 'gc',
    },
  },
  pnpm: { '*': { long: ['config', 'dir', 'global', 'prefix'], short: 'gC' } },
  yarn: { '*': { long: ['cwd', 'use-yarnrc', 'global-folder'] } },
  cargo: { '*': { long: ['config', 'manifest-path', 'target-dir', 'out-dir', 'artifact-dir'], short: 'Z' } },
  docker: { '*': { long: ['host', 'config', 'context', 'volume', 'mount', 'privileged', 'output'], short: 'Hvo' } },
  kubectl: { '*': { long: ['kubeconfig', 'exec-command', 'filename'], short: 'f' } },
  'apt-get': { '*': { long: ['option', 'config-file'], short: 'oc' } },
  apt: { '*': { long: ['option', 'config-file'], short: 'oc' } },
  mvn: { '*': { long: ['file', 'settings', 'global-settings', 'define'], short: 'fsD' } },
  gradle: {
    '*': { long: ['init-script', 'build-file', 'settings-file', 'project-dir', 'system-prop'], short: 'IbcpD' },
  },
  './gradlew': {
    '*': { long: ['init-script', 'build-file', 'settings-file', 'project-dir', 'system-prop'], short: 'IbcpD' },
  },
  pip: { '*': { long: ['target', 'prefix', 'root', 'src', 'config-settings', 'editable'], short: 'te' } },
  pip3: { '*': { long: ['target', 'prefix', 'root', 'src', 'config-settings', 'editable'], short: 'te' } },
  dotnet: { '*': { long: ['output', 'property'], short: 'op' } },
};

const WORD = /^[A-Za-z0-9][\w:.-]*$/;

/** True for a program that runs whatever its arguments say (`node`, `/usr/bin/python3.12`, `sudo`). */
export function isLauncher(program: string): boolean {
  const base = program.split('/').pop() ?? program;
  return LAUNCHERS.has(base) || /^(python|pypy|ruby|perl|php|node|lua)[\d.]+$/.test(base);
}

/**
 * How many leading words of this argv an "always" may remember as a prefix, or 0 when only the
 * exact line may be remembered (a launcher, an installer, an unknown program, an option first).
 */
export function prefixLength(words: readonly string[]): number {
  const [prog, sub, third] = words;
  if (!SUBCOMMAND_PROGRAMS.has(prog) || !sub || !WORD.test(sub)) return 0;
  if (LAUNCHING_SUBCOMMANDS.has(sub) || INSTALLING_SUBCOMMANDS.has(sub)) return 0;
  const named = NAMED_SUBCOMMANDS.has(sub) || NESTED_SUBCOMMANDS[prog]?.has(sub);
  if (NAMED_SUBCOMMANDS.has(sub) && RUN_LAUNCHES.has(prog)) return 0;
  if (!named) return 2;
  if (!third || !WORD.test(third) || LAUNCHING_SUBCOMMANDS.has(third) || INSTALLING_SUBCOMMANDS.has(third)) return 0;
  if (['foreach', 'run'].includes(third)) return 0;
  return 3;
}

/** True when `word` is an option starting with `--` that abbreviates or equals `name` (`--out=x` for `output`). */
function longMatches(word: string, name: string): boolean {
  const m = /^--([A-Za-z0-9][\w-]*)(=|$)/.exec(word);
  return !!m && name.startsWith(m[1]);
}

function isDangerous(d: Dangerous, word: string): boolean {
  if (d.long?.some((n) => longMatches(word, n))) return true;
  if (d.short && /^-[A-Za-z0-9]/.test(word) && [...word.slice(1).split('=')[0]].some((c) => d.short!.includes(c)))
    return true;
  if (d.single?.some((n) => new RegExp(`^--?${n.replace(/-/g, '\\-')}(=|$)`).test(word))) return true;
  if (d.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) return true;
  return false;
}

/** The first option of `words` (a simple command's argv) that runs code or writes elsewhere, if any. */
export function dangerousOption(words: readonly string[]): string | undefined {
  const program = (words[0] ?? '').split('/').pop() ?? '';
  const table = DANGEROUS[words[0]] ?? DANGEROUS[program];
  if (!table) return undefined;
  const subAt = words.findIndex((w, i) => i > 0 && !w.startsWith('-'));
  const sub = subAt > 0 ? words[subAt] : undefined;
  const checks = [table['*'], sub ? table[sub] : undefined].filter((d): d is Dangerous => !!d);
  return words.slice(1).find((w, i) => {
    const before = subAt < 0 || i + 1 < subAt;
    return checks.some((d) => isDangerous(d, w)) || (before && !!table['^'] && isDangerous(table['^'], w));
  });
}
