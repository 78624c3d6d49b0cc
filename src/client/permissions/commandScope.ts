// What an "always" answer to a shell command remembers. Never wider than what the prompt showed:
// either the exact command line, or a "program subcommand" prefix for tools whose subcommand
// says what runs (`git status`, `npm test`). A program that runs whatever its arguments say
// (an interpreter, a shell, a launcher such as npx, env or sudo) is never a prefix: for those,
// and for any line that chains, substitutes or redirects, the key is the whole line.
import { commandSegments, hasShellTricks, startsWithWords } from './callFacts';

export interface CommandScope {
  /** exact: only this command line; prefix: a single command starting with these words. */
  match: 'exact' | 'prefix';
  command: string;
}

/** Programs that run code or commands given in their arguments: remembering one of them by name would allow anything. */
const LAUNCHERS = new Set([
  'node',
  'nodejs',
  'python',
  'python2',
  'python3',
  'py',
  'pypy',
  'pypy3',
  'bash',
  'sh',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'csh',
  'tcsh',
  'npx',
  'pnpx',
  'bunx',
  'env',
  'sudo',
  'doas',
  'su',
  'deno',
  'bun',
  'ruby',
  'perl',
  'php',
  'lua',
  'pwsh',
  'powershell',
  'osascript',
  'Rscript',
  'exec',
  'eval',
  'source',
  '.',
  'xargs',
  'nohup',
  'nice',
  'timeout',
  'time',
  'watch',
  'command',
  'builtin',
  'ssh',
]);

/** Programs whose second word is a subcommand worth remembering ("npm test", "git status"). */
const SUBCOMMAND_PROGRAMS = new Set([
  'git',
  'npm',
  'pnpm',
  'yarn',
  'cargo',
  'go',
  'docker',
  'kubectl',
  'make',
  'pip',
  'pip3',
  'uv',
  'poetry',
  'dotnet',
  'mvn',
  'gradle',
  './gradlew',
  'gh',
  'rustup',
  'brew',
  'apt',
  'apt-get',
]);

/** Subcommands that launch an arbitrary command or package, or rewrite what later commands run. */
const LAUNCHING_SUBCOMMANDS = new Set(['exec', 'x', 'dlx', 'create', 'init', 'config', 'alias', 'api', 'extension']);

/** Subcommands that run a named script or target: the name is part of the prefix (`npm run lint`, never `npm run`). */
const NAMED_SUBCOMMANDS = new Set(['run', 'run-script']);

/** Programs whose `run` starts any command or image, not a project script. */
const RUN_LAUNCHES = new Set(['docker', 'kubectl', 'uv', 'poetry', 'go']);

const WORD = /^[A-Za-z0-9][\w:.-]*$/;

/** True for a program that runs whatever its arguments say (`node`, `/usr/bin/python3.12`, `sudo`). */
export function isLauncher(program: string): boolean {
  const base = program.split('/').pop() ?? program;
  return LAUNCHERS.has(base) || /^(python|pypy|ruby|perl|php|node|lua)[\d.]+$/.test(base);
}

/** The scope an "always" answer to this command line remembers; undefined for an empty line. */
export function commandScope(line: string): CommandScope | undefined {
  const command = line.trim();
  if (!command) return undefined;
  const exact: CommandScope = { match: 'exact', command };
  const segments = commandSegments(command);
  if (segments.length !== 1 || hasShellTricks(command)) return exact;
  const words = segments[0].split(/\s+/);
  const [prog, sub, name] = words;
  // `FOO=1 cmd`, `node …`, `git -c x=y …`: only the exact line.
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(prog) || isLauncher(prog)) return exact;
  if (!SUBCOMMAND_PROGRAMS.has(prog) || !sub || !WORD.test(sub) || LAUNCHING_SUBCOMMANDS.has(sub)) return exact;
  if (NAMED_SUBCOMMANDS.has(sub)) {
    if (RUN_LAUNCHES.has(prog) || !name || !WORD.test(name)) return exact;
    return { match: 'prefix', command: `${prog} ${sub} ${name}` };
  }
  return { match: 'prefix', command: `${prog} ${sub}` };
}

/**
 * Does a remembered command scope cover this command line? Allowing: the exact line, or one
 * command (no chaining, substitution or redirection) starting with the prefix. Rejecting
 * tightens, so any segment starting with the prefix is enough.
 */
export function scopeMatches(scope: CommandScope, line: string, allowing: boolean): boolean {
  const command = line.trim();
  if (scope.match === 'exact') return command === scope.command;
  const segments = commandSegments(command);
  if (!allowing) return segments.some((s) => startsWithWords(s, scope.command));
  return segments.length === 1 && !hasShellTricks(command) && startsWithWords(segments[0], scope.command);
}

/** The scope in words, as the prompt and Manage Permissions show it. */
export function describeCommandScope(scope: CommandScope): string {
  return scope.match === 'exact'
    ? `exactly \`${scope.command}\``
    : `\`${scope.command} …\` (one command, any arguments)`;
}
