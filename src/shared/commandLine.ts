// The command line a tool call runs, as one string that bash would run the same way. Agents send
// it three ways: a shell line (`{command: "git status -s"}`), an argv array
// (`{command: ["git", "push", "--force", "origin", "main"]}`), or a program with its arguments
// (`{command: "rm", args: ["-rf", "/home/u"]}`). The permission card, rules and remembered
// decisions all see this one string, so what the card shows is what is approved.

/** Characters bash never treats specially in an unquoted word. */
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** A line without its leading and trailing blanks as bash sees them (String.trim also drops \v, \f and Unicode spaces, which bash keeps). */
export function trimBlanks(line: string): string {
  return line.replace(/^[ \t\n]+|[ \t\n]+$/g, '');
}

/** One word quoted as bash needs it: plain words as they are, others in single quotes (or `$'…'` for control characters). */
export function shellQuote(word: string): string {
  if (word === '') return "''";
  if (PLAIN.test(word)) return word;
  if (/[\x00-\x1f\x7f]/.test(word)) {
    const body = [...word]
      .map((c) => {
        const code = c.charCodeAt(0);
        if (c === '\\' || c === "'") return `\\${c}`;
        if (c === '\n') return '\\n';
        if (c === '\t') return '\\t';
        if (c === '\r') return '\\r';
        if (code < 0x20 || code === 0x7f) return `\\x${code.toString(16).padStart(2, '0')}`;
        return c;
      })
      .join('');
    return `$'${body}'`;
  }
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** An argv array as one bash command line. */
export function quoteArgv(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}

/**
 * The command line of a call's raw input, or undefined when the input names none. A string
 * `command` with no `args` is already a shell line; with `args` it is the program.
 */
export function commandLineOfInput(rawInput: unknown): string | undefined {
  if (!rawInput || typeof rawInput !== 'object' || Array.isArray(rawInput)) return undefined;
  const input = rawInput as Record<string, unknown>;
  // Every element is shown: a number or an object among the arguments is not dropped from view.
  const words = (v: unknown): string[] | undefined =>
    Array.isArray(v) ? v.map((a) => (typeof a === 'string' ? a : (JSON.stringify(a) ?? String(a)))) : undefined;
  if (typeof input.command === 'string') {
    const args = words(input.args);
    if (!args || !args.length) return trimBlanks(input.command);
    return quoteArgv([input.command, ...args]);
  }
  const argv = words(input.command);
  if (argv && argv.length) return quoteArgv(argv);
  return undefined;
}

/** The command line of an execute call: its raw input's, else its title without backticks. */
export function commandLineOf(call: {
  kind?: string | null;
  title?: string | null;
  rawInput?: unknown;
}): string | undefined {
  const fromInput = commandLineOfInput(call.rawInput);
  if (fromInput !== undefined) return fromInput;
  if (call.kind !== 'execute') return undefined;
  const title = trimBlanks(call.title ?? '');
  const m = /^`([^`]*)`$/s.exec(title);
  return m ? m[1] : title;
}
