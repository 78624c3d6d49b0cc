// The auto-allow rule engine (`tandem.permissions.rules`): pure, no vscode.
//
// A rule matches when every matcher it has matches (kind, tool, title, command, paths); the
// first matching rule of a list wins. Two lists are evaluated separately:
// - user rules (user settings) followed by the built-in defaults;
// - workspace rules (workspace / folder settings), which may only tighten: an `allow` there is
//   dropped with a warning, and the stricter of the two answers wins (reject > ask > allow).
// So a cloned repository can never auto-allow anything, but it can ask for more care.
//
// Safety: an `allow` only applies when every path the call touches is inside a workspace folder
// (unless the rule says `outsideWorkspace: true`), and a command prefix only allows a command
// line whose every segment starts with it and that has no substitution or redirection.
import type { PermissionOption, ToolKind } from '@agentclientprotocol/sdk';
import picomatch from 'picomatch';
import * as nodePath from 'node:path';
import { commandMatchesPrefix, isInside, type CallFacts } from './callFacts';

export type RuleAction = 'allow' | 'reject' | 'ask';
export type RuleSource = 'user' | 'workspace' | 'default';

/** A rule as written in settings. */
export interface RuleSpec {
  name?: string;
  kind?: ToolKind | ToolKind[];
  /** Tool name: glob ("Bash", "mcp__*") or /regex/flags. */
  tool?: string;
  /** Title: glob or /regex/flags. */
  title?: string;
  /** Execute calls: command-line prefix ("npm test") or /regex/flags. */
  command?: string;
  /** Globs; relative ones are matched against the path relative to each workspace folder. */
  paths?: string | string[];
  /** Let an `allow` rule apply to paths outside the workspace folders (default false). */
  outsideWorkspace?: boolean;
  action: RuleAction;
  /** Pick the agent's *_always option (default: *_once). */
  always?: boolean;
}

export const TOOL_KINDS: readonly ToolKind[] = [
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'think',
  'fetch',
  'switch_mode',
  'other',
];
const KEYS = new Set(['name', 'kind', 'tool', 'title', 'command', 'paths', 'outsideWorkspace', 'action', 'always']);

type TextMatcher = (s: string) => boolean;

export interface Rule {
  readonly source: RuleSource;
  /** Position in its settings list (0-based); -1 for defaults. */
  readonly index: number;
  readonly spec: RuleSpec;
  /** The rule in words, for the audit: its name, or a description. */
  readonly label: string;
  readonly kinds?: ReadonlySet<ToolKind>;
  readonly tool?: TextMatcher;
  readonly title?: TextMatcher;
  readonly command?: { regex?: RegExp; prefix?: string };
  readonly paths?: readonly string[];
}

export interface ParsedRules {
  rules: Rule[];
  warnings: string[];
}

export const DEFAULT_RULES: readonly Rule[] = [
  compileOrThrow(
    { name: 'reads and searches in the workspace', kind: ['read', 'search'], action: 'allow' },
    'default',
    -1,
  ),
];

/** Parses one settings list. Malformed entries are skipped with a warning; nothing throws. */
export function parseRules(value: unknown, source: Exclude<RuleSource, 'default'>): ParsedRules {
  const where = source === 'user' ? 'user settings' : 'workspace settings';
  const rules: Rule[] = [];
  const warnings: string[] = [];
  if (value === undefined || value === null) return { rules, warnings };
  if (!Array.isArray(value)) {
    warnings.push(`tandem.permissions.rules in ${where} is not a list; ignored.`);
    return { rules, warnings };
  }
  value.forEach((raw, i) => {
    const r = compile(raw, source, i);
    if (typeof r === 'string') {
      warnings.push(`tandem.permissions.rules[${i}] in ${where}: ${r}; rule skipped.`);
      return;
    }
    if (source === 'workspace' && r.spec.action === 'allow') {
      warnings.push(
        `tandem.permissions.rules[${i}] in ${where}: workspace settings can only tighten permissions (reject or ask), never allow; rule ignored. Put allow rules in your user settings.`,
      );
      return;
    }
    rules.push(r);
  });
  return { rules, warnings };
}

function compileOrThrow(spec: RuleSpec, source: RuleSource, index: number): Rule {
  const r = compile(spec, source, index);
  if (typeof r === 'string') throw new Error(r);
  return r;
}

function compile(raw: unknown, source: RuleSource, index: number): Rule | string {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return 'a rule must be an object';
  const o = raw as Record<string, unknown>;
  const unknown = Object.keys(o).find((k) => !KEYS.has(k));
  if (unknown) return `unknown field "${unknown}"`;
  if (o.action !== 'allow' && o.action !== 'reject' && o.action !== 'ask')
    return `"action" must be "allow", "reject" or "ask" (got ${JSON.stringify(o.action)})`;
  if (o.name !== undefined && typeof o.name !== 'string') return '"name" must be a string';
  if (o.always !== undefined && typeof o.always !== 'boolean') return '"always" must be true or false';
  if (o.outsideWorkspace !== undefined && typeof o.outsideWorkspace !== 'boolean')
    return '"outsideWorkspace" must be true or false';
  const spec = o as unknown as RuleSpec;
  let kinds: Set<ToolKind> | undefined;
  if (o.kind !== undefined) {
    const list = Array.isArray(o.kind) ? o.kind : [o.kind];
    if (!list.length) return '"kind" is an empty list';
    const bad = list.find((k) => !TOOL_KINDS.includes(k as ToolKind));
    if (bad !== undefined) return `unknown tool kind ${JSON.stringify(bad)} (one of ${TOOL_KINDS.join(', ')})`;
    kinds = new Set(list as ToolKind[]);
  }
  let tool: TextMatcher | undefined, title: TextMatcher | undefined;
  if (o.tool !== undefined) {
    const m = textMatcher(o.tool, 'tool');
    if (typeof m === 'string') return m;
    tool = m;
  }
  if (o.title !== undefined) {
    const m = textMatcher(o.title, 'title');
    if (typeof m === 'string') return m;
    title = m;
  }
  let command: Rule['command'];
  if (o.command !== undefined) {
    if (typeof o.command !== 'string' || !o.command.trim())
      return '"command" must be a non-empty string (a prefix or /regex/)';
    const re = asRegex(o.command);
    if (re instanceof Error) return `"command": ${re.message}`;
    command = re ? { regex: re } : { prefix: o.command.trim() };
  }
  let paths: string[] | undefined;
  if (o.paths !== undefined) {
    const list = Array.isArray(o.paths) ? o.paths : [o.paths];
    if (!list.length || list.some((p) => typeof p !== 'string' || !p))
      return '"paths" must be a glob or a list of globs';
    paths = list as string[];
    try {
      for (const p of paths) picomatch(p);
    } catch (e) {
      return `"paths": ${(e as Error).message}`;
    }
  }
  if (!kinds && !tool && !title && !command && !paths)
    return 'a rule needs at least one of kind, tool, title, command, paths';
  const label = spec.name?.trim() || describe(spec);
  return { source, index, spec, label, kinds, tool, title, command, paths };
}

function describe(s: RuleSpec): string {
  const parts: string[] = [];
  if (s.kind) parts.push(`kind ${Array.isArray(s.kind) ? s.kind.join('|') : s.kind}`);
  if (s.tool) parts.push(`tool ${s.tool}`);
  if (s.title) parts.push(`title ${s.title}`);
  if (s.command) parts.push(`command ${s.command}`);
  if (s.paths) parts.push(`paths ${Array.isArray(s.paths) ? s.paths.join(', ') : s.paths}`);
  return `${s.action} ${parts.join(', ')}`;
}

/** "/…/flags" is a regex; anything else is a glob (picomatch, case-sensitive). */
function textMatcher(v: unknown, field: string): TextMatcher | string {
  if (typeof v !== 'string' || !v) return `"${field}" must be a non-empty string (a glob or /regex/)`;
  const re = asRegex(v);
  if (re instanceof Error) return `"${field}": ${re.message}`;
  if (re) return (s) => re.test(s);
  try {
    const m = picomatch(v, { dot: true, bash: true });
    return (s) => m(s);
  } catch (e) {
    return `"${field}": ${(e as Error).message}`;
  }
}

function asRegex(v: string): RegExp | Error | undefined {
  const m = /^\/(.+)\/([a-z]*)$/s.exec(v);
  if (!m) return undefined;
  try {
    const flags = m[2].replace(/g|y/g, '');
    return new RegExp(m[1], flags);
  } catch (e) {
    return new Error(`invalid regular expression ${v}: ${(e as Error).message}`);
  }
}

// ---- evaluation -------------------------------------------------------------------------

export interface MatchContext {
  /** Absolute workspace folder paths. */
  roots: readonly string[];
}

export function ruleMatches(rule: Rule, call: CallFacts, ctx: MatchContext): boolean {
  const loosening = rule.spec.action === 'allow';
  if (rule.kinds && (!call.kind || !rule.kinds.has(call.kind))) return false;
  if (rule.tool && (!call.tool || !rule.tool(call.tool))) return false;
  if (rule.title && !rule.title(call.title)) return false;
  if (rule.command) {
    if (call.command === undefined) return false;
    if (rule.command.regex) {
      if (!rule.command.regex.test(call.command)) return false;
    } else if (!commandMatchesPrefix(call.command, rule.command.prefix!, loosening)) return false;
  }
  if (rule.paths) {
    if (!call.paths.length) return false;
    const m = (p: string) => pathMatches(rule.paths!, p, ctx.roots);
    // Allowing needs every path to match; tightening needs one.
    if (loosening ? !call.paths.every(m) : !call.paths.some(m)) return false;
  }
  if (loosening && !rule.spec.outsideWorkspace) {
    // A call with no paths runs in the session's cwd, which is the workspace.
    if (!call.paths.every((p) => ctx.roots.some((r) => isInside(p, r)))) return false;
  }
  return true;
}

function pathMatches(globs: readonly string[], p: string, roots: readonly string[]): boolean {
  const posix = (s: string) => s.split(nodePath.sep).join('/');
  for (const g of globs) {
    const m = picomatch(g, { dot: true });
    if (nodePath.isAbsolute(g) || g.startsWith('~')) {
      if (m(posix(p))) return true;
      continue;
    }
    for (const r of roots) {
      if (!isInside(p, r)) continue;
      if (m(posix(nodePath.relative(r, p)))) return true;
    }
  }
  return false;
}

export interface RuleSet {
  user: readonly Rule[];
  workspace: readonly Rule[];
  defaults?: readonly Rule[];
}

export interface Verdict {
  action: RuleAction;
  /** The rule that decided; undefined when nothing matched (the fallback is ask). */
  rule?: Rule;
  always?: boolean;
}

const STRICTNESS: Record<RuleAction, number> = { allow: 0, ask: 1, reject: 2 };

export function evaluate(set: RuleSet, call: CallFacts, ctx: MatchContext): Verdict {
  const first = (list: readonly Rule[]) => list.find((r) => ruleMatches(r, call, ctx));
  const u = first(set.user) ?? first(set.defaults ?? DEFAULT_RULES);
  const w = first(set.workspace.filter((r) => r.spec.action !== 'allow'));
  const userVerdict: Verdict = u ? { action: u.spec.action, rule: u, always: u.spec.always } : { action: 'ask' };
  if (w && STRICTNESS[w.spec.action] > STRICTNESS[userVerdict.action])
    return { action: w.spec.action, rule: w, always: w.spec.always };
  return userVerdict;
}

/**
 * The offered option a verdict picks: the *_once kind, or *_always when the rule says so
 * (falling back to the other of the same family). None → the caller asks.
 */
export function pickOption(
  options: readonly PermissionOption[],
  action: 'allow' | 'reject',
  always?: boolean,
): PermissionOption | undefined {
  const order = always ? [`${action}_always`, `${action}_once`] : [`${action}_once`, `${action}_always`];
  // A rule without `always` must not silently make a lasting decision on the agent's side.
  const allowed = always ? order : order.slice(0, 1);
  for (const k of allowed) {
    const o = options.find((x) => x.kind === k);
    if (o) return o;
  }
  return undefined;
}

/** How the audit shows a rule: its words plus where it came from. */
export function ruleWords(rule: Rule): string {
  if (rule.source === 'default') return rule.label;
  return `${rule.label} (${rule.source} settings #${rule.index + 1})`;
}
