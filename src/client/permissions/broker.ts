// The permission pipeline, for the agent's session/request_permission and for the client's own
// questions (PermissionPort, e.g. fs access outside the workspace): rules → remembered → prompt.
// Pending prompts live in the session store (the view shows `session.permissions`); each is
// answered exactly once: by the user (view or notification), or as cancelled on session/cancel,
// agent exit or session close. Every decision is logged and recorded on the tool call. What an
// answer remembers, and what the agent is told, is answerMemory.ts.
import type { PermissionOption, RequestPermissionOutcome, ToolCallUpdate } from '@agentclientprotocol/sdk';
import { Emitter } from '../../common/event';
import type { Logger } from '../../common/logger';
import type { PermissionDecider, PermissionDecisionView, PermissionRequestView } from '../../shared/sessionModel';
import type { SessionStore } from '../../session/store';
import type { PermissionPort } from './permissionPort';
import { memoryFor, reachText, replyFor, SessionDecisions, stricter } from './answerMemory';
import { callFacts, type CallFacts } from './callFacts';
import { isModePrompt } from './modeSwitch';
import { promptCall } from './promptCall';
import type { RememberedDecisions } from './remembered';
import { evaluate, pickOption, type RuleSet } from './ruleEvaluation';
import { auditLine } from './auditLine';
import { ruleWords } from './rules';
import { bashParserReady, loadBashParser } from './shell/bashParser';
import { requestFolders, type RequestScope } from './requestScope';

export interface BrokerDeps {
  rules(): RuleSet;
  /** Absolute workspace folder paths. */
  roots(): readonly string[];
  remembered: RememberedDecisions;
  logger: Logger;
  now?: () => number;
}

export type { RequestScope } from './requestScope';

export interface PendingPermission {
  readonly requestId: string;
  readonly sessionId: string;
  readonly view: PermissionRequestView;
  readonly facts: CallFacts;
  readonly agentName: string;
  readonly origin: 'agent' | 'client';
}

export type PendingChange =
  | { type: 'added'; pending: PendingPermission }
  | { type: 'removed'; requestId: string; decision: PermissionDecisionView };

interface Request {
  sessionId: string;
  toolCall: ToolCallUpdate;
  options: PermissionOption[];
  scope?: RequestScope;
  origin: 'agent' | 'client';
  onCancel?: (cb: () => void) => void;
}

interface Entry extends PendingPermission {
  readonly scope?: RequestScope;
  /** The folders the request was judged by (its session's place, else the workspace's). */
  readonly roots: readonly string[];
  resolve(o: RequestPermissionOutcome): void;
}

export class PermissionBroker implements PermissionPort {
  private readonly entries = new Map<string, Entry>();
  /** Each connection's scope, with the answers its sessions remember for themselves only. */
  private readonly scopes = new Map<RequestScope, SessionDecisions>();
  private seq = 0;
  private readonly changed = new Emitter<PendingChange>();
  /** A prompt was queued or resolved (for notifications and the view badge). */
  readonly onDidChange = this.changed.event;

  constructor(private readonly deps: BrokerDeps) {}

  private get now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /** Pending prompts, oldest first. */
  pending(): PendingPermission[] {
    return [...this.entries.values()];
  }

  /** A connection's scope: lets client-side questions (the port) find their session. */
  addScope(scope: RequestScope): { dispose(): void } {
    this.scopes.set(scope, new SessionDecisions());
    return { dispose: () => this.scopes.delete(scope) };
  }

  /** PermissionPort: the client's own questions take the same pipeline (nothing is remembered: their options speak of the session). */
  request(
    sessionId: string,
    toolCall: ToolCallUpdate,
    options: PermissionOption[],
    signal?: AbortSignal,
  ): Promise<RequestPermissionOutcome> {
    const scope = [...this.scopes.keys()].find((s) => s.store(sessionId));
    const onCancel = (cb: () => void) =>
      signal?.aborted ? cb() : signal?.addEventListener('abort', cb, { once: true });
    return this.decide({ sessionId, toolCall, options, scope, origin: 'client', onCancel });
  }

  /** The agent's session/request_permission. */
  requestFromAgent(
    scope: RequestScope,
    params: { sessionId: string; toolCall: ToolCallUpdate; options: PermissionOption[] },
    onCancel?: (cb: () => void) => void,
  ): Promise<RequestPermissionOutcome> {
    return this.decide({ ...params, scope, origin: 'agent', onCancel });
  }

  /** A command line is judged by the bash grammar: loaded on the first command, never at activation. */
  private decide(r: Request): Promise<RequestPermissionOutcome> {
    if (bashParserReady()) return this.decideNow(r);
    const known = r.scope?.store(r.sessionId)?.state.toolCalls.get(r.toolCall.toolCallId);
    if (callFacts(r.toolCall, known, this.where(r).cwd).command === undefined) return this.decideNow(r);
    return loadBashParser().then(() => this.decideNow(r));
  }

  private where(r: Request): { cwd: string; roots: readonly string[] } {
    return requestFolders(r.scope, r.sessionId, this.deps.roots());
  }

  private decideNow(r: Request): Promise<RequestPermissionOutcome> {
    const store = r.scope?.store(r.sessionId);
    const known = store?.state.toolCalls.get(r.toolCall.toolCallId);
    const { cwd, roots } = this.where(r);
    const facts = callFacts(r.toolCall, known, cwd);
    const agentName = r.scope?.agentName ?? 'agent';
    const requestId = `perm-${++this.seq}`;
    const view: PermissionRequestView = {
      requestId,
      toolCallId: r.toolCall.toolCallId,
      toolCall: promptCall(r.toolCall, known),
      options: r.options,
      at: store?.timestamp() ?? this.now,
      origin: r.origin,
    };
    // A mode switch's "always" is "auto-accept edits from now on": no rule or remembered decision picks it.
    const mode = isModePrompt(facts, r.options);
    // What "always" will remember, shown in the prompt (Tandem's own questions say it in their options).
    const always = r.options.find((o) => o.kind === 'allow_always' || o.kind === 'reject_always');
    if (always && r.origin === 'agent')
      view.alwaysScope = reachText(memoryFor(facts, agentName, always, r.options, roots, this.now));
    const auto = (option: PermissionOption, by: PermissionDecider, rule: string) => {
      store?.dispatch({ type: 'permissionRequested', at: view.at, request: view });
      const decision: PermissionDecisionView = {
        outcome: 'selected',
        optionId: option.optionId,
        optionName: option.name,
        optionKind: option.kind,
        by,
        rule,
        at: this.stamp(store),
      };
      store?.dispatch({ type: 'permissionResolved', at: decision.at, requestId, decision });
      this.audit(r.sessionId, facts, decision);
      return Promise.resolve<RequestPermissionOutcome>({ outcome: 'selected', optionId: option.optionId });
    };

    let verdict;
    try {
      verdict = evaluate(this.deps.rules(), facts, { roots });
    } catch (err) {
      this.deps.logger.error(
        `Permission rules failed on ${facts.toolCallId}: ${err instanceof Error ? err.message : err}; asking.`,
      );
      verdict = { action: 'ask' as const };
    }
    if (verdict.action !== 'ask' && verdict.rule) {
      const option = pickOption(r.options, verdict.action, verdict.always && !mode);
      if (option) return auto(option, 'rule', ruleWords(verdict.rule));
      this.deps.logger.info(
        `Permission rule "${ruleWords(verdict.rule)}" matched ${facts.toolCallId} but the agent offered no ${verdict.action}${verdict.always ? '_always' : '_once'} option; asking.`,
      );
    }
    // An explicit `ask` rule always asks; otherwise a remembered decision may answer.
    // Never for a mode switch: what was remembered for it (older versions did) must not approve a plan unseen.
    if (!verdict.rule && !mode) {
      const session = r.scope && this.scopes.get(r.scope)?.find(r.sessionId, facts, agentName, roots);
      const d = stricter(session, this.deps.remembered.find(facts, agentName, roots));
      if (d) {
        const option = pickOption(r.options, d.decision, false) ?? pickOption(r.options, d.decision, true);
        if (option) return auto(option, 'remembered', d.id);
      }
    }

    return new Promise<RequestPermissionOutcome>((resolve) => {
      const entry: Entry = {
        requestId,
        sessionId: r.sessionId,
        view,
        facts,
        agentName,
        origin: r.origin,
        scope: r.scope,
        roots,
        resolve,
      };
      this.entries.set(requestId, entry);
      store?.dispatch({ type: 'permissionRequested', at: view.at, request: view });
      r.onCancel?.(() => this.finish(requestId, undefined, 'cancelled'));
      this.changed.fire({ type: 'added', pending: entry });
    });
  }

  /**
   * The user's answer (view or notification). Accepted only when the request is still pending
   * and the option is one it offered: a forged or late message changes nothing.
   */
  answer(requestId: string, optionId: string): boolean {
    const e = this.entries.get(requestId);
    if (!e) return false;
    const option = e.view.options.find((o) => o.optionId === optionId);
    if (!option) return false;
    if (e.origin === 'client') {
      // Tandem's own questions remember nothing here: their asker keeps what their options say.
      this.finish(requestId, option, 'user');
      return true;
    }
    // Tandem remembers "always" itself, as narrowly as the prompt said (answerMemory.ts).
    const m = memoryFor(e.facts, e.agentName, option, e.view.options, e.roots, this.now);
    this.finish(requestId, option, 'user', replyFor(m, option, e.view.options));
    const d = m.decision;
    if (d && m.reach === 'session' && e.scope) {
      this.scopes.get(e.scope)?.remember(e.sessionId, d);
      this.deps.logger.info(`Remembered for session ${e.sessionId} only: ${d.id} (${d.agent})`);
    } else if (d && m.reach === 'workspace') {
      void Promise.resolve(this.deps.remembered.remember(d)).then(
        () => this.deps.logger.info(`Remembered for this workspace: ${d.id} (${d.agent})`),
        (err) => this.deps.logger.error(`Could not remember ${d.id}: ${err}`),
      );
    }
    return true;
  }

  /** session/cancel or session close: every pending prompt of the session resolves as cancelled, at once. */
  cancelSession(sessionId: string): number {
    return this.cancelWhere((e) => e.sessionId === sessionId);
  }

  /** The agent connection ended: its prompts (the agent's and the client's) resolve as cancelled. */
  cancelScope(scope: RequestScope): number {
    return this.cancelWhere((e) => e.scope === scope);
  }

  private cancelWhere(matches: (e: Entry) => boolean): number {
    let n = 0;
    for (const e of [...this.entries.values()])
      if (matches(e)) {
        this.finish(e.requestId, undefined, 'cancelled');
        n++;
      }
    return n;
  }

  /** `reply`: the option the agent is told, when not the chosen one. */
  private finish(
    requestId: string,
    option: PermissionOption | undefined,
    by: PermissionDecider,
    reply: PermissionOption | undefined = option,
  ): void {
    const e = this.entries.get(requestId);
    if (!e) return;
    this.entries.delete(requestId);
    const store = e.scope?.store(e.sessionId);
    const decision: PermissionDecisionView = option
      ? {
          outcome: 'selected',
          optionId: option.optionId,
          optionName: option.name,
          optionKind: option.kind,
          by,
          at: this.stamp(store),
        }
      : { outcome: 'cancelled', by: 'cancelled', at: this.stamp(store) };
    store?.dispatch({ type: 'permissionResolved', at: decision.at, requestId, decision });
    this.audit(e.sessionId, e.facts, decision);
    e.resolve(reply ? { outcome: 'selected', optionId: reply.optionId } : { outcome: 'cancelled' });
    this.changed.fire({ type: 'removed', requestId, decision });
  }

  private stamp(store: SessionStore | undefined): number {
    return store?.timestamp() ?? this.now;
  }

  private audit(sessionId: string, facts: CallFacts, d: PermissionDecisionView): void {
    this.deps.logger.info(auditLine(sessionId, facts, d));
  }

  dispose(): void {
    for (const e of [...this.entries.values()]) this.finish(e.requestId, undefined, 'cancelled');
    this.changed.dispose();
  }
}
