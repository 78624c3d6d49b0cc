// What an "always" answer to a shell command remembers, and what a command rule covers, judged
// on the shell grammar's model of the line (shell/commandLine.ts). Never wider than what the
// prompt showed: either the exact line, or a `program subcommand` prefix for one command of a
// program whose subcommand says what runs (`git status`), with only the options the approved
// line had. A line the model does not fully understand (substitutions, redirections, globs,
// expansions, anything unknown) is matched only by its exact text.
import { quoteArgv, trimBlanks } from '../../shared/commandLine';
import { analyzeCommandLine, type CommandLine, type SimpleCommand } from './shell/commandLine';
import { UNPARSED } from './shell/words';
import { dangerousOption, isLauncher, prefixLength } from './shell/programs';

export { isLauncher };

export interface CommandScope {
  /** exact: only this command line; prefix: one command starting with these words. */
  match: 'exact' | 'prefix';
  /** The exact line, or the prefix words quoted as bash would. */
  command: string;
  /** Prefix scopes: the options the approved line had; any other option asks again. */
  flags?: readonly string[];
}

/** Options of a command after its prefix (`-s`, `--porcelain=v2`). */
function optionsAfter(words: readonly string[], n: number): string[] {
  return words.slice(n).filter((w) => w.startsWith('-'));
}

/** The scope an "always" answer to this command line remembers; undefined for an empty line. */
export function commandScope(line: string): CommandScope | undefined {
  const command = trimBlanks(line);
  if (!command) return undefined;
  const exact: CommandScope = { match: 'exact', command };
  const model = analyzeCommandLine(command);
  if (!model || model.unsafe.length || model.commands.length !== 1) return exact;
  const { words } = model.commands[0];
  if (isLauncher(words[0]) || dangerousOption(words)) return exact;
  const n = prefixLength(words);
  if (!n) return exact;
  return { match: 'prefix', command: quoteArgv(words.slice(0, n)), flags: [...new Set(optionsAfter(words, n))] };
}

/** The words of a prefix as written in a rule or a remembered decision (quoted as bash would read them). */
function prefixWords(prefix: string): readonly string[] | undefined {
  const m = analyzeCommandLine(prefix);
  if (m && !m.unsafe.length && m.commands.length === 1) return m.commands[0].words;
  return undefined;
}

function startsWith(words: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length > 0 && prefix.length <= words.length && prefix.every((w, i) => words[i] === w);
}

/** A command run through `command`, `sudo`, `env X=1`, `nohup` … is also that command, for rules that tighten. */
const WRAPPERS = new Set([
  'command',
  'builtin',
  'exec',
  'sudo',
  'doas',
  'env',
  'nohup',
  'nice',
  'time',
  'timeout',
  'xargs',
]);

function unwrapped(words: readonly string[]): readonly (readonly string[])[] {
  const base = (w: string) => w.split('/').pop() ?? w;
  const named = (ws: readonly string[]) => [base(ws[0]), ...ws.slice(1)];
  // After a wrapper, any later word may be the command (`sudo -u root rm`, `timeout 5 rm`, `nice -n 5 rm`):
  // a rule that tightens may match too much, never too little.
  if (!WRAPPERS.has(base(words[0] ?? ''))) return [named(words)];
  return words.map((_, i) => named(words.slice(i))).filter((w) => w[0] !== undefined);
}

/** Any simple command of the line (nested ones too, through wrappers) starts with the prefix: for reject and ask. */
function anyCommandStartsWith(model: CommandLine | undefined, line: string, prefix: readonly string[]): boolean {
  if (model?.nested.some((c: SimpleCommand) => unwrapped(c.words).some((w) => startsWith(w, prefix)))) return true;
  if (model && !model.unsafe.includes(UNPARSED)) return false;
  // Where the grammar could not read the line (an error, too long, too deep) or read it its own
  // way (`((git push))`), the line cut at every operator and bracket: a tightening rule still sees it.
  return line.split(/[;&|\n(){}`$<>]+/).some((s) =>
    unwrapped(
      s
        .trim()
        .split(/\s+/)
        .map((w) => w.replace(/["'\\]/g, '')),
    ).some((w) => startsWith(w, prefix)),
  );
}

/**
 * Does a command rule's prefix cover this line? Allowing: the line is fully understood, and every
 * command in it starts with the prefix and has no option that runs code or writes elsewhere.
 * Tightening (reject, ask): any simple command anywhere in the line is enough.
 */
export function commandMatchesPrefix(line: string, prefix: string, loosening: boolean): boolean {
  const words = prefixWords(prefix) ?? prefix.trim().split(/\s+/);
  const model = analyzeCommandLine(trimBlanks(line));
  if (!loosening) return anyCommandStartsWith(model, line, words);
  if (!model || model.unsafe.length || !model.commands.length || !prefixWords(prefix)) return false;
  return model.commands.every((c) => startsWith(c.words, words) && !dangerousOption(c.words));
}

/**
 * Does a remembered command scope cover this command line? Allowing: the exact line, or one
 * command fully understood, starting with the prefix, with no option the approved line did not
 * have. Rejecting tightens: any simple command anywhere in the line starting with the prefix.
 */
export function scopeMatches(scope: CommandScope, line: string, allowing: boolean): boolean {
  const command = trimBlanks(line);
  if (allowing && scope.match === 'exact') return command === scope.command;
  if (scope.match === 'exact') return command === scope.command || commandMatchesPrefix(command, scope.command, false);
  if (!allowing) return commandMatchesPrefix(command, scope.command, false);
  const words = prefixWords(scope.command);
  const model = analyzeCommandLine(command);
  if (!words || !model || model.unsafe.length || model.commands.length !== 1) return false;
  const argv = model.commands[0].words;
  if (!startsWith(argv, words) || dangerousOption(argv) || isLauncher(argv[0])) return false;
  const approved = new Set(scope.flags ?? []);
  return optionsAfter(argv, words.length).every((o) => approved.has(o));
}

/** The scope in words, as the prompt and Manage Permissions show it. */
export function describeCommandScope(scope: CommandScope): string {
  if (scope.match === 'exact') return `exactly \`${scope.command}\``;
  const flags = scope.flags?.length ? `only the options ${scope.flags.map((f) => `\`${f}\``).join(' ')}` : 'no options';
  return `\`${scope.command} …\` (one command; any other arguments, ${flags}; never chained, substituted or redirected)`;
}
