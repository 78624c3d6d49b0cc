// Masks what looks like a secret in text bound for the log: a command line an agent runs or
// starts with, a line of its stderr. Agents put tokens on command lines (`curl -H "Authorization:
// Bearer …"`, `git clone https://user:token@host/…`, `--api-key=…`), and the log is something
// users paste into bug reports. Pure and cheap: known token formats and secret-named options,
// nothing clever. It cannot know every secret: a bare value under an innocent name passes.

const MASK = '***';

/** Option and variable names that hold a secret (`--api-key`, `GITHUB_TOKEN`, `password`). */
const SECRET_NAME =
  '[A-Za-z0-9_.-]*(?:token|secret|passw(?:or)?d|passphrase|api[-_]?key|apikey|access[-_]?key|private[-_]?key|client[-_]?secret|credentials?|auth)(?![A-Za-z])[A-Za-z0-9_.-]*';

/** A value: quoted, or up to the next blank, quote, `&` or `;`. */
const VALUE = `(?:'[^']*'|"[^"]*"|[^\\s'"&;]+)`;

const RULES: [RegExp, string][] = [
  // URL credentials: scheme://user:password@host → scheme://user:***@host
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/]*:)[^\s@/]+@/gi, `$1${MASK}@`],
  // Authorization headers, with or without a scheme word.
  [/\b(authorization\s*[:=]\s*(?:(?:bearer|basic|token|bot|digest)\s+)?)[^\s'"]+/gi, `$1${MASK}`],
  [/\b(bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, `$1${MASK}`],
  // Known token formats: GitHub, OpenAI/Anthropic, Slack, AWS, Google, npm, JWT.
  [/\b(gh[pousr]_)[A-Za-z0-9]{16,}/g, `$1${MASK}`],
  [/\b(github_pat_)[A-Za-z0-9_]{16,}/g, `$1${MASK}`],
  [/\b(sk-)[A-Za-z0-9_-]{16,}/g, `$1${MASK}`],
  [/\b(xox[abposre]-)[A-Za-z0-9-]{8,}/g, `$1${MASK}`],
  [/\b((?:AKIA|ASIA)[0-9A-Z]{4})[0-9A-Z]{12}\b/g, `$1${MASK}`],
  [/\b(AIza)[0-9A-Za-z_-]{30,}/g, `$1${MASK}`],
  [/\b(npm_)[A-Za-z0-9]{30,}/g, `$1${MASK}`],
  [/\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, MASK],
  // name=value, name: value, --name=value (GITHUB_TOKEN=…, password=…, --token=…).
  [new RegExp(`((?:^|[\\s'"?&;,{(])-{0,2}${SECRET_NAME}["']?\\s*[=:]\\s*)${VALUE}`, 'gi'), `$1${MASK}`],
  // --name value (the value is the next word unless it is an option itself).
  [new RegExp(`((?:^|\\s)--?${SECRET_NAME}\\s+)(?!-)${VALUE}`, 'gi'), `$1${MASK}`],
];

/** Cheap test first: most lines hold none of these and skip the rules. */
const MAYBE = /[:=@]|\b(?:bearer|gh[pousr]_|github_pat_|sk-|xox|AKIA|ASIA|AIza|npm_|eyJ)|--?[A-Za-z]/i;

/** `text` with every secret-looking part replaced by `***`. */
export function redact(text: string): string {
  if (!MAYBE.test(text)) return text;
  let out = text;
  for (const [re, to] of RULES) out = out.replace(re, to);
  return out;
}
