// The agents' lifecycle: a pool of agent connections, one per agent, each started on first use,
// and which of them the view shows. Sessions of different agents run at the same time: starting
// another agent, or switching tabs, never stops a running one; a connection ends when its last
// session closes, on "Restart Agent", or when the pool is full and it is the idle one used least
// lately (tandem.maxAgents). Two disposal scopes, as in rust-analyzer's ctx.ts: the extension's
// (this object) and each connection's (PooledAgent.scope), whose disposal kills that agent's
// process group. What the user does with an agent lives elsewhere: commands.ts (the palette),
// view/viewIntents.ts (the view), view/viewFeed.ts (what the view shows).
import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import type { AgentClient } from '../../client/connection/agentClient';
import type { AgentConfig } from '../../client/agents/agentConfig';
import type { ClientFeature } from '../../client/connection/feature';
import type { SessionPlace } from '../../client/connection/sessionPlace';
import { Disposable, type IDisposable } from '../../common/disposable';
import { Emitter } from '../../common/event';
import type { Logger } from '../../common/logger';
import { PromptQueues } from '../../session/promptQueue';
import type { SessionChange } from '../../session/store';
import type { AgentView, ToWebview, SessionTab } from '../../shared/protocol';
import { WORKSPACE_STATE } from '../storageKeys';
import { agentNameOf, resolveLaunch } from './agentLaunch';
import { openSession } from './agentViewState';
import { AgentPool, type PooledAgent } from './agentPool';

export type { PooledAgent } from './agentPool';

export interface ControllerDeps {
  context: vscode.ExtensionContext;
  logger: Logger;
  traffic: (dir: 'in' | 'out', msg: unknown) => void;
  /** The session to reopen on an agent's first start in a window (sessions/sessionHistory.ts). */
  resumeSession?(agentName: string): string | undefined;
  /** The agents that had sessions open when the window closed: they come back beside the first. */
  openAgents?(): string[];
  /** A new connection is about to start (traffic recording). */
  onWillConnect?: (agentName: string) => Promise<void>;
  /** The folder a session works in when it is not the workspace (a worktree: vscode/worktrees/). */
  placeOf?(sessionId: string): SessionPlace | undefined;
}

export class Controller extends Disposable {
  private readonly pool: AgentPool;
  /** The connection the view shows; undefined while none can run (then `pending` says why). */
  private shown?: PooledAgent;
  private pending: AgentView = { state: 'none' };
  /** The agent the latest start() asked for: the one shown once it is up. */
  private wanted?: string;
  private readonly starting = new Map<string, Promise<void>>();
  /** An agent's first start in a window reopens the session that was active when it closed. */
  private readonly restored = new Set<string>();
  private reopened = false;
  /** A session/new in flight while another session is shown: a prompt sent now is meant for it. */
  openingSession?: Promise<void>;

  private readonly agentChanged = this._register(new Emitter<AgentView>());
  /** The shown agent's state changed (starting, ready, sign-in needed, error, …), or another agent is shown. */
  readonly onDidChangeAgent = this.agentChanged.event;
  private readonly agentsChanged = this._register(new Emitter<void>());
  /** Any agent started, stopped or changed its state (the registry's leases follow every one). */
  readonly onDidChangeAgents = this.agentsChanged.event;
  private readonly sessionChanged = this._register(new Emitter<SessionChange>());
  /** The shown session's store changed (its patches); other sessions' changes stay in their stores. */
  readonly onDidChangeSession = this.sessionChanged.event;
  private readonly sessionsChanged = this._register(new Emitter<void>());
  /** A session of any agent was opened or closed, or one's title or status changed. */
  readonly onDidChangeSessions = this.sessionsChanged.event;
  private readonly replaced = this._register(new Emitter<void>());
  /** The shown session was replaced, another agent is shown, or it restarted: views need a new snapshot. */
  readonly onDidReplace = this.replaced.event;
  /** Prompts sent while a turn runs, per session, kept in workspaceState (they outlive a window reload). */
  readonly queues: PromptQueues;

  constructor(private readonly deps: ControllerDeps) {
    super();
    const state = deps.context.workspaceState;
    const key = WORKSPACE_STATE.promptQueue;
    this.queues = this._register(
      new PromptQueues({ get: () => state.get(key), set: (v) => state.update(key, v) }, randomUUID),
    );
    this.pool = this._register(
      new AgentPool({
        ...deps,
        events: {
          agent: (a) => {
            this.agentsChanged.fire();
            if (a === this.shown) this.agentChanged.fire(a.view);
          },
          session: (a, c) => {
            if (a === this.shown && c.sessionId === a.client.session?.sessionId) this.sessionChanged.fire(c);
          },
          replaced: (a) => {
            if (a === this.shown) this.replaced.fire();
          },
          sessions: () => this.sessionsChanged.fire(),
        },
      }),
    );
    this._register(
      vscode.workspace.onDidGrantWorkspaceTrust(() => void (this.agent.state === 'untrusted' && this.start())),
    );
  }

  /** The shown agent's state (or why none runs). */
  get agent(): AgentView {
    return this.shown?.view ?? this.pending;
  }
  /** The shown agent's connection. */
  get current(): AgentClient | undefined {
    return this.shown?.client;
  }
  /** The shown agent's configuration (with its secrets), for signing in to it. */
  get config(): AgentConfig | undefined {
    return this.shown?.config;
  }
  /** Every agent connection in the pool, in the order they started. */
  agents(): readonly PooledAgent[] {
    return this.pool.all();
  }
  /** The connection a session is open on, whichever agent's it is. */
  clientOf(sessionId: string): AgentClient | undefined {
    return this.pool.holding(sessionId)?.client;
  }

  /** Adds client features (fs, terminals, permissions, …) to every connection started from now on. */
  registerFeatures(provider: () => readonly ClientFeature[]): IDisposable {
    return this.pool.registerFeatures(provider);
  }

  /** What the view is built from: the shown agent and session, and every agent's open sessions. */
  snapshot(): Extract<ToWebview, { type: 'snapshot' }> {
    return {
      type: 'snapshot',
      agent: this.agent,
      session: this.current?.session?.snapshot() ?? null,
      workspaceRoots: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
      sessions: this.sessionTabs(),
    };
  }

  sessionTabs(): SessionTab[] {
    return this.pool.sessionTabs();
  }

  /** Starts the configured agent unless one is shown and alive, or starting. */
  async ensureStarted(): Promise<void> {
    if (this.starting.size) await Promise.all(this.starting.values());
    const state = this.agent.state;
    if (this.shown && state !== 'error' && state !== 'exited') return;
    const others = this.reopened ? [] : (this.deps.openAgents?.() ?? []);
    this.reopened = true;
    await this.start();
    // The other agents whose sessions were open when the window closed come back, out of sight.
    for (const name of others)
      if (name !== this.agent.name && !this.pool.get(name) && this.pool.isConfigured(name))
        void this.start(name, undefined, { show: false });
  }

  /**
   * Shows the named agent (default: tandem.defaultAgent), starting it if it does not run, or an
   * agent Tandem made itself (the replay of a recording): never one from workspace settings.
   * Other agents keep running. Two quick starts of one agent start it once. `place`: the folder a
   * first session works in (a worktree), unless a past session is reopened.
   */
  async start(
    agentName?: string,
    adHoc?: AgentConfig,
    opts: { show?: boolean; place?: SessionPlace } = {},
  ): Promise<void> {
    const name = agentNameOf(this.deps.context, agentName, adHoc);
    if (opts.show === false) {
      if (this.pool.get(name)) return;
    } else this.wanted = name;
    const running = this.pool.get(name);
    if (running && !adHoc && running.view.state !== 'error' && running.view.state !== 'exited')
      return this.show(running);
    const inFlight = this.starting.get(name);
    if (inFlight) return inFlight;
    const run = this.launch(name, agentName, adHoc, opts.place)
      .catch((err) => {
        const message = `Could not start ${name}: ${err instanceof Error ? err.message : err}`;
        this.deps.logger.error(message);
        this.showPending({ state: 'error', name, message });
      })
      .finally(() => this.starting.delete(name));
    this.starting.set(name, run);
    return run;
  }

  private async launch(name: string, agentName?: string, adHoc?: AgentConfig, place?: SessionPlace): Promise<void> {
    // A dead connection of this agent (or the one a replay replaces) goes first.
    if (this.pool.get(name)) await this.stopAgent(name);
    const launch = await resolveLaunch(this.deps.context, this.deps.logger, agentName, adHoc);
    if (!launch.ok) return this.showPending(launch.view);
    const room = this.pool.roomFor(name);
    if (room.refused) return this.showPending({ state: 'error', name, message: room.refused });
    if (room.evict) {
      const why = `Tandem stopped ${room.evict.name}, idle, to start ${name} (tandem.maxAgents).`;
      this.deps.logger.info(why);
      void vscode.window.showInformationMessage(why);
      await this.stopAgent(room.evict.name);
    }
    const resume = this.restored.has(name) || place ? undefined : this.deps.resumeSession?.(name);
    await this.deps.onWillConnect?.(name);
    this.restored.add(name);
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const cwd = folders[0] ?? this.deps.context.globalStorageUri.fsPath;
    const first = { resume, place: resume ? this.deps.placeOf?.(resume) : place };
    const pooled = this.pool.connect(launch.agent, cwd, folders.slice(1), launch.maxLineBytes, first);
    if (this.wanted === name) this.show(pooled);
    await pooled.client.start();
  }

  /** Shows a session of any agent in the view (its agent becomes the shown one). */
  switchTo(sessionId: string, agentName?: string): void {
    const a = this.pool.holding(sessionId, agentName);
    if (!a) return;
    a.client.switchTo(sessionId);
    this.show(a);
  }

  /** Closes a session; an agent whose last session closed stops (unless it is the only one). */
  async closeSession(sessionId: string, agentName?: string): Promise<void> {
    const a = this.pool.holding(sessionId, agentName);
    if (!a) return;
    await a.client.closeSession(sessionId);
    if (!a.client.sessions().length && this.pool.size > 1) await this.stopAgent(a.name);
  }

  /** Stops one agent: its connection scope ends and its process group dies. */
  async stopAgent(name: string): Promise<void> {
    const a = this.pool.get(name);
    if (!a) return;
    const wasShown = a === this.shown;
    const stopped = this.pool.stop(a);
    if (wasShown) {
      const next = this.pool.lastShown();
      if (next) this.show(next);
      else this.showPending({ state: 'none', name });
    }
    await stopped;
  }

  /** Stops every agent and waits for their process groups to be gone. */
  async stop(): Promise<void> {
    this.shown = undefined;
    await Promise.all(this.pool.all().map((a) => this.pool.stop(a)));
  }

  /** Restarts the shown agent (the same configuration for an agent Tandem made itself). */
  async restart(): Promise<void> {
    const { name } = this.agent;
    const config = this.config;
    const adHoc = config && !this.pool.isConfigured(config.name) && config.name === name ? config : undefined;
    if (name) await this.stopAgent(name);
    await this.start(name, adHoc);
    this.replaced.fire();
  }

  /** A new session on the shown agent (in `place`, if given); starts the agent when none is ready. `forkOf`: fork that open session. */
  async newSession(forkOf?: string, place?: SessionPlace): Promise<void> {
    // Asked again while one opens: that one is the new session (never restart the agent for it).
    if (this.openingSession) return this.openingSession;
    const a = this.shown;
    if (!a || a.view.state !== 'ready') return this.start(this.agent.name, undefined, { place });
    const opening = openSession(this.pool, a, forkOf, place);
    this.openingSession = opening;
    try {
      await opening;
    } finally {
      this.openingSession = undefined;
    }
  }

  private show(a: PooledAgent): void {
    a.lastShown = Date.now();
    if (this.shown === a) return;
    this.shown = a;
    this.agentChanged.fire(a.view);
    this.replaced.fire();
  }

  /** Why no agent can be shown (untrusted, misconfigured, full pool): the view says so. */
  private showPending(view: AgentView): void {
    if (view.name && this.wanted !== undefined && view.name !== this.wanted) {
      // Not the agent the user asked for last: a background failure, told but not shown.
      this.deps.logger.error(view.message ?? `${view.name} stopped.`);
      return;
    }
    this.shown = undefined;
    this.pending = view;
    this.agentChanged.fire(view);
    this.replaced.fire();
  }

  override dispose(): void {
    this.shown = undefined;
    super.dispose();
  }
}
