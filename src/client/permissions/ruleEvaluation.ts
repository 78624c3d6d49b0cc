// How the auto-allow rules decide a permission request: pure, no vscode. The first matching rule
// of a list wins; user rules (then the built-in defaults) and workspace rules are evaluated apart,
// and the stricter answer wins (reject > ask > allow), so workspace rules can only tighten.
// An `allow` applies only when every path the call touches is inside a workspace folder (unless
// the rule says `outsideWorkspace: true`); see rules.ts for the matchers themselves. Paths are where
// the call really lands (callFacts resolves symlinks), matched against the folders' real paths.
import type { PermissionOption } from '@agentclientprotocol/sdk';
import picomatch from 'picomatch';
import * as nodePath from 'node:path';
import { homedir } from 'node:os';
import { isWithin, withRealRoots } from '../files/realPath';
import { pathUnknown, type CallFacts } from './callFacts';
import { commandMatchesPrefix } from './commandScope';
import { DEFAULT_RULES, type Rule, type RuleAction } from './rules';

export interface MatchContext {
  /** Absolute workspace folder paths. */
  roots: readonly string[];
  /** `roots` with their real paths (withRealRoots); evaluate resolves them once for all rules. */
  realRoots?: readonly string[];
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
    const roots = ctx.realRoots ?? withRealRoots(ctx.roots);
    const m = (p: string) => pathMatches(rule.paths!, p, roots);
    // Allowing needs every real path to match; tightening needs one, real or as the call names it.
    if (loosening ? !call.paths.every(m) : ![...call.paths, ...(call.named ?? [])].some(m)) return false;
  }
  if (loosening && !rule.spec.outsideWorkspace) {
    // A read, edit, delete or move with no path found may touch anything: it asks. A search with
    // no path runs in the session's cwd, which callFacts gives it as its path.
    if (pathUnknown(call)) return false;
    const roots = ctx.realRoots ?? withRealRoots(ctx.roots);
    if (!call.paths.every((p) => roots.some((r) => isWithin(r, p)))) return false;
  }
  return true;
}

function pathMatches(globs: readonly string[], p: string, roots: readonly string[]): boolean {
  const posix = (s: string) => s.split(nodePath.sep).join('/');
  for (const g of globs) {
    if (nodePath.isAbsolute(g) || g.startsWith('~')) {
      // "~/notes/**" is in the home folder, as the agent's tools read it.
      if (picomatch(g.replace(/^~(?=\/|$)/, posix(homedir())), { dot: true })(posix(p))) return true;
      continue;
    }
    const m = picomatch(g, { dot: true });
    for (const r of roots) {
      if (!isWithin(r, p)) continue;
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
  const resolved: MatchContext = { ...ctx, realRoots: ctx.realRoots ?? withRealRoots(ctx.roots) };
  const first = (list: readonly Rule[]) => list.find((r) => ruleMatches(r, call, resolved));
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
