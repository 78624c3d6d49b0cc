// What an answer remembers, and for how long. An option's own words set its widest reach: one
// that says "this session" (claude-agent-acp's "Yes, allow all edits during this session",
// gemini-cli's "Allow for this session") is remembered for that session only, in memory; any
// other *_always answer for the workspace (remembered.ts); a mode switch (modeSwitch.ts) never.
import type { PermissionOption } from '@agentclientprotocol/sdk';
import type { CallFacts } from './callFacts';
import { isModePrompt } from './modeSwitch';
import {
  alwaysScopeText,
  describeRemembered,
  matchesRemembered,
  patternFor,
  type RememberedDecision,
} from './remembered';

/** How far an answer reaches: this call, this call only because it switches modes, the session, the workspace. */
export type Reach = 'once' | 'mode' | 'session' | 'workspace';

export interface AnswerMemory {
  reach: Reach;
  /** What is remembered (session, workspace); undefined when the call gives too little to go on. */
  decision?: RememberedDecision;
}

const SESSION_WORDS = /\b(?:this|the) session\b/i;

/** The option says its "always" lasts for the session ("during this session", "for the session"). */
export function speaksOfSession(option: Pick<PermissionOption, 'name'>): boolean {
  return SESSION_WORDS.test(option.name);
}

/** What choosing `option` (of the agent's `options`) remembers. */
export function memoryFor(
  facts: CallFacts,
  agent: string,
  option: PermissionOption,
  options: readonly PermissionOption[],
  roots: readonly string[],
  at: number,
): AnswerMemory {
  if (option.kind !== 'allow_always' && option.kind !== 'reject_always') return { reach: 'once' };
  if (isModePrompt(facts, options)) return { reach: 'mode' };
  if (!speaksOfSession(option)) return { reach: 'workspace', decision: patternFor(facts, agent, option, roots, at) };
  return { reach: 'session', decision: sessionPattern(facts, agent, option, roots, at) };
}

/**
 * A session answer covers what it says: "allow all edits during this session" is every call of
 * that tool in the session, not the one file (allows still only inside the workspace, see
 * matchesRemembered). Command lines stay as narrow as the workspace pattern.
 */
function sessionPattern(
  facts: CallFacts,
  agent: string,
  option: PermissionOption,
  roots: readonly string[],
  at: number,
): RememberedDecision | undefined {
  const decision = option.kind === 'allow_always' ? 'allow' : 'reject';
  const d: RememberedDecision | undefined =
    facts.command !== undefined
      ? patternFor(facts, agent, option, roots, at)
      : facts.tool || facts.kind
        ? { id: '', agent, decision, tool: facts.tool, kind: facts.kind, at }
        : undefined;
  if (!d) return undefined;
  const { id: _id, path: _path, ...rest } = d;
  return { ...rest, id: `${describeRemembered(rest)} (this session)` };
}

/** The footnote of a prompt: what its "always" option remembers, in words. */
export function reachText(m: AnswerMemory): string | undefined {
  if (m.reach === 'workspace') return alwaysScopeText(m.decision);
  if (m.reach === 'session')
    return m.decision ? `for this session: ${alwaysScopeText(m.decision)}` : alwaysScopeText(undefined);
  return undefined;
}

/**
 * The option the agent is told. Where Tandem keeps the memory (workspace or session), "always
 * allow" is told as "allow once": the agent keeps no rule of its own, so every later call still
 * comes to Tandem, whose rules (a workspace reject on `locked/**`, the outside-the-workspace
 * check) and whose "ran without asking" watch keep seeing it. That holds for a session answer
 * too, though the agent's own scope would be the session: its "allow all edits" would let later
 * edits through unasked, past those rules. A mode switch is told exactly as chosen.
 */
export function replyFor(
  m: AnswerMemory,
  option: PermissionOption,
  options: readonly PermissionOption[],
): PermissionOption {
  if (option.kind !== 'allow_always' || m.reach === 'mode' || m.reach === 'once') return option;
  return options.find((o) => o.kind === 'allow_once') ?? option;
}

/** Session answers of one agent connection, in memory only: gone with the connection, never in workspace state. */
export class SessionDecisions {
  private readonly bySession = new Map<string, RememberedDecision[]>();

  remember(sessionId: string, d: RememberedDecision): void {
    const list = (this.bySession.get(sessionId) ?? []).filter((x) => !(x.id === d.id && x.agent === d.agent));
    this.bySession.set(sessionId, [...list, d]);
  }

  find(sessionId: string, call: CallFacts, agent: string, roots: readonly string[]): RememberedDecision | undefined {
    const all = this.bySession.get(sessionId) ?? [];
    // Rejections first, as in the workspace's list (matchesRemembered keeps edits of unknown files out).
    return (
      all.find((d) => d.decision === 'reject' && matchesRemembered(d, call, agent, roots)) ??
      all.find((d) => d.decision === 'allow' && matchesRemembered(d, call, agent, roots))
    );
  }
}

/** Of a session's and the workspace's remembered decisions, the one that answers: a "no" beats a "yes". */
export function stricter(
  a: RememberedDecision | undefined,
  b: RememberedDecision | undefined,
): RememberedDecision | undefined {
  if (a?.decision === 'reject') return a;
  if (b?.decision === 'reject') return b;
  return a ?? b;
}
