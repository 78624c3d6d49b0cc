// Calls the agent ran without asking where Tandem would have asked: no session/request_permission
// came, so the agent's own settings let the call through (claude-code-acp writes "always allow"
// answers as allow rules into the workspace's .claude/settings.local.json, and then never asks
// again, in any session). Tandem cannot stop those calls, but it says so: on the call, and once
// per session in a message naming the file when it is known.
import type { ToolKind } from '@agentclientprotocol/sdk';
import type { IDisposable } from '../../common/disposable';
import type { ToolCallView } from '../../shared/sessionModel';
import { DEMO_AGENT_NAME } from '../agents/agentConfig';
import type { FeatureContext } from '../connection/feature';
import { callFacts, type CallFacts } from './callFacts';
import type { RememberedDecisions } from './remembered';
import { evaluate, type RuleSet } from './ruleEvaluation';
import { loadBashParser } from './shell/bashParser';

/** The kinds Tandem asks about by default (reads and searches in the workspace are allowed). */
const ASKED_KINDS = new Set<ToolKind>(['execute', 'edit', 'delete', 'move']);

/**
 * True when `call` completed in a live turn with no permission decision, is of a kind Tandem
 * asks about, and Tandem's own rules and remembered decisions would not have allowed it.
 */
export function ranWithoutAsking(
  call: ToolCallView,
  session: { live: boolean; pendingRequest: boolean },
  cwd: string,
  tandemWouldAllow: (facts: CallFacts) => boolean,
): boolean {
  if (!session.live || session.pendingRequest) return false;
  if (call.status !== 'completed' || call.permission || call.interrupted) return false;
  if (!ASKED_KINDS.has(call.kind)) return false;
  return !tandemWouldAllow(callFacts(call, undefined, cwd));
}

/** Where an agent keeps the allow rules that let calls through, and telling the user about it. */
export interface AgentAllowListPort {
  /** The settings file holding the agent's own allow rules, as the user would open it; undefined when none is known. */
  allowListFile(cwd: string): Promise<string | undefined>;
  /** The first such call of a session (once per session). */
  notify(agentName: string, sessionId: string, call: ToolCallView, file: string | undefined): void;
}

/** Would Tandem's rules (built-in ones included) or a remembered decision have allowed this call without asking? */
export function tandemWouldAllow(
  facts: CallFacts,
  agentName: string,
  deps: { rules: RuleSet; remembered: RememberedDecisions; roots: readonly string[] },
): boolean {
  let verdict;
  try {
    verdict = evaluate(deps.rules, facts, { roots: deps.roots });
  } catch {
    return false;
  }
  if (verdict.rule) return verdict.action === 'allow';
  return deps.remembered.find(facts, agentName, deps.roots)?.decision === 'allow';
}

/** How long one look at the agent's settings files answers for. */
export const ALLOW_LIST_LOOKUP_TTL_MS = 1000;

/**
 * Watches the connection's sessions: a call that ran without asking is marked (by: 'agent', with
 * the settings file when known) and the port is told once per session.
 */
export function watchAgentAllowed(
  ctx: FeatureContext,
  wouldAllow: (facts: CallFacts, agentName: string, roots?: readonly string[]) => boolean,
  port: AgentAllowListPort,
): IDisposable {
  // The built-in Demo runs its harmless sample command unasked, by design: nothing to report.
  if (ctx.agentName === DEMO_AGENT_NAME) return { dispose() {} };
  const told = new Set<string>();
  const seen = new Set<string>();
  // One lookup serves a burst of calls: a flood of 2,000 unasked calls read the settings files
  // 4,000 times, most of the extension host's time in it. A change to the file shows within a second.
  // Per folder: a session in a worktree reads the allow list of its own copy of the project.
  const lookups = new Map<string, { at: number; file: Promise<string | undefined> }>();
  const allowListFile = (cwd: string) => {
    const now = Date.now();
    let lookup = lookups.get(cwd);
    if (!lookup || now - lookup.at > ALLOW_LIST_LOOKUP_TTL_MS)
      lookups.set(cwd, (lookup = { at: now, file: port.allowListFile(cwd) }));
    return lookup.file;
  };
  return (
    ctx.onDidChangeSession?.(({ sessionId, patches }) => {
      const store = ctx.session(sessionId);
      if (!store) return;
      for (const p of patches) {
        if (p.op !== 'tool' || seen.has(`${sessionId}\u0000${p.call.toolCallId}`)) continue;
        const st = store.state;
        const session = {
          live: st.meta.status === 'working',
          pendingRequest: st.permissions.some((r) => r.toolCallId === p.call.toolCallId),
        };
        const call = p.call;
        const key = `${sessionId}\u0000${call.toolCallId}`;
        // A command line is judged by the bash grammar, loaded on the first command (never at activation).
        const ready = call.kind === 'execute' ? loadBashParser() : Promise.resolve(true);
        void ready
          .then(() => {
            const place = ctx.placeOf?.(sessionId);
            const cwd = place?.cwd ?? ctx.cwd;
            const roots = place ? [place.cwd] : undefined;
            if (seen.has(key) || !ranWithoutAsking(call, session, cwd, (f) => wouldAllow(f, ctx.agentName, roots)))
              return;
            seen.add(key);
            return allowListFile(cwd).then((file) => ({ file }));
          })
          .then(
            (found) => {
              if (!found) return;
              const { file } = found;
              store.dispatch({
                type: 'agentAllowed',
                at: store.timestamp(),
                toolCallId: call.toolCallId,
                source: file,
              });
              if (told.has(sessionId)) return;
              told.add(sessionId);
              port.notify(ctx.agentName, sessionId, call, file);
            },
            (err) => ctx.logger.warn(`Could not look for ${ctx.agentName}'s own permission settings: ${err}`),
          );
      }
    }) ?? { dispose() {} }
  );
}

/** Where Claude Code (claude-code-acp) keeps a workspace's allow rules, relative to the session's folder, in the order it reads them. */
export const CLAUDE_SETTINGS_FILES = ['.claude/settings.local.json', '.claude/settings.json'];

/** True when `text` is Claude Code settings JSON with at least one `permissions.allow` rule. */
export function hasAllowRules(text: string): boolean {
  try {
    const allow = (JSON.parse(text) as { permissions?: { allow?: unknown } } | null)?.permissions?.allow;
    return Array.isArray(allow) && allow.length > 0;
  } catch {
    return false;
  }
}
