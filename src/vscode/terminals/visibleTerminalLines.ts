// The pure parts of the visible-terminal mode (no vscode): which terminals a command may share,
// and the line typed into the terminal's interactive bash for it.
import type { SpawnOptions } from '../../client/ports';
import { quoteArgv } from '../../shared/commandLine';

/**
 * Commands of one session share terminals; a command with its own environment variables needs a
 * terminal opened with them (typing `export` would change the user's shell for good).
 */
export function terminalKey(opts: Pick<SpawnOptions, 'sessionId' | 'env'>): string {
  const env = Object.entries(opts.env ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${opts.sessionId ?? ''}\n${JSON.stringify(env)}`;
}

/**
 * The line typed into the terminal's interactive bash: the command runs in a child `bash -c`, as
 * the process runner runs it. Typed as is, the interactive shell would expand `!` history
 * references (`echo "hi!"` fails with "event not found" and never runs), and an `exit` would end
 * the session's shell and close its terminal instead of ending the command with its code. In a
 * terminal that ran commands before, the line changes to the requested folder first (the user may
 * have moved the shell). Windows: the user's default shell gets the line as is (see README).
 */
export function commandLineIn(
  opts: Pick<SpawnOptions, 'command' | 'args' | 'cwd'>,
  reused: boolean,
  platform: NodeJS.Platform = process.platform,
  bash = '/bin/bash',
): string {
  const line = opts.args ? quoteArgv([opts.command, ...opts.args]) : opts.command;
  if (platform === 'win32') return line;
  const run = `${typedWord(bash)} -c ${typedWord(line)}`;
  return reused ? `cd -- ${typedWord(opts.cwd)} && ${run}` : run;
}

/**
 * One word for a line typed into an interactive bash: printable runs in single quotes (inside
 * them no bash version, 3.2 included, expands `!`; a quote is `'\''`), control characters as
 * `$'\xNN'` pieces (`$'\n'` and so on), so the typed line never holds a newline (which would end
 * it early or open a continuation prompt) and no escape sequence reaches the terminal.
 */
export function typedWord(word: string): string {
  if (/^[A-Za-z0-9_/.,:=+@%-]+$/.test(word)) return word;
  if (word === '') return "''";
  return word
    .split(/([\x00-\x1f\x7f]+)/)
    .filter((piece) => piece !== '')
    .map((piece) =>
      /^[\x00-\x1f\x7f]/.test(piece)
        ? `$'${[...piece].map(controlEscape).join('')}'`
        : `'${piece.replace(/'/g, `'\\''`)}'`,
    )
    .join('');
}

const NAMED: Record<string, string> = { '\n': '\\n', '\t': '\\t', '\r': '\\r' };

function controlEscape(c: string): string {
  return NAMED[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
}
