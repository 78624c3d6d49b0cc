// The pure parts of the visible-terminal mode (no vscode): which terminals a command may share,
// and the line typed into the shell for it.
import type { SpawnOptions } from '../../client/ports';

/**
 * Commands of one session share terminals; a command with its own environment variables needs a
 * terminal opened with them (typing `export` would change the user's shell for good).
 */
export function terminalKey(opts: Pick<SpawnOptions, 'sessionId' | 'env'>): string {
  const env = Object.entries(opts.env ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${opts.sessionId ?? ''}\n${JSON.stringify(env)}`;
}

/**
 * The line typed into the (bash) shell: the agent's shell line as is, or the program and its
 * arguments quoted. In a terminal that ran commands before, the line changes to the requested
 * folder first (the process runner starts every command there; an earlier command or the user may
 * have moved the shell, and shell integration reports the new folder only after the command's end).
 */
export function commandLineIn(
  opts: Pick<SpawnOptions, 'command' | 'args' | 'cwd'>,
  reused: boolean,
  platform: NodeJS.Platform = process.platform,
): string {
  const line = opts.args ? [opts.command, ...opts.args].map(shellQuote).join(' ') : opts.command;
  if (platform === 'win32' || !reused) return line;
  return `cd -- ${shellQuote(opts.cwd)} && ${line}`;
}

/** A word for a POSIX shell: as is when it is plain, else in single quotes. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_/.,:=+@%-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
