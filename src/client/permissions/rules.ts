// The auto-allow rules (`tandem.permissions.rules`) as written in settings, checked and compiled
// into matchers (kind, tool, title, command, paths): pure, no vscode. A malformed entry is skipped
// with a warning, never thrown; an `allow` in workspace settings is dropped, since workspace rules
// may only tighten. How a list of rules decides a call: ruleEvaluation.ts.
import type { ToolKind } from '@agentclientprotocol/sdk';
import picomatch from 'picomatch';

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

/** How the audit shows a rule: its words plus where it came from. */
export function ruleWords(rule: Rule): string {
  if (rule.source === 'default') return rule.label;
  return `${rule.label} (${rule.source} settings #${rule.index + 1})`;
}
