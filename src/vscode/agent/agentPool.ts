// The agent connections that run at once, one per agent name: each is a connection scope (its
// AgentClient with every registered client feature attached) whose disposal kills that agent's
// process group. The pool relays each connection's events with the agent they came from; which
// agent the view shows is the controller's business.
import type * as vscode from 'vscode';
import { WireObserver } from '../../client/capabilities/wireObserver';
import { AgentClient, type AgentClientOptions } from '../../client/connection/agentClient';
import type { AgentConfig } from '../../client/agents/agentConfig';
import type { ClientFeature } from '../../client/connection/feature';
import { Disposable, DisposableStore, toDisposable, type IDisposable } from '../../common/disposable';
import type { Logger } from '../../common/logger';
import type { SessionChange } from '../../session/store';
import type { AgentView, SessionTab } from '../../shared/protocol';
import { maxAgents, readSettings } from '../config';
import { toAgentView } from './agentViewState';

/** One running agent: its configuration, its connection and the view's form of its state. */
export interface PooledAgent {
  readonly name: string;
  readonly config: AgentConfig;
  readonly client: AgentClient;
  /** The connection scope: disposed when this agent stops. */
  readonly scope: DisposableStore;
  view: AgentView;
  /** When the view last showed it (Date.now()): the idle agent shown least lately makes room first. */
  lastShown: number;
  /** What the agent did on the wire on this connection (Show Agent Capabilities). */
  readonly wire: WireObserver;
}

export interface AgentPoolDeps {
  context: vscode.ExtensionContext;
  logger: Logger;
  traffic: (dir: 'in' | 'out', msg: unknown) => void;
  events: {
    agent(a: PooledAgent): void;
    session(a: PooledAgent, c: SessionChange): void;
    replaced(a: PooledAgent): void;
    sessions(): void;
  };
}

/** Whether a new agent fits: nothing to do, an idle agent to stop first, or why it cannot start now. */
export type Room = { evict?: PooledAgent; refused?: string };

export class AgentPool extends Disposable {
  private readonly agents = new Map<string, PooledAgent>();
  private readonly featureProviders = new Set<() => readonly ClientFeature[]>();

  constructor(private readonly deps: AgentPoolDeps) {
    super();
  }

  get size(): number {
    return this.agents.size;
  }

  get(name: string | undefined): PooledAgent | undefined {
    return name === undefined ? undefined : this.agents.get(name);
  }

  /** Every agent, in the order they started (tabs keep their places). */
  all(): PooledAgent[] {
    return [...this.agents.values()];
  }

  /** Every agent's open sessions as tabs, each with its agent (and, in a worktree, its branch). */
  sessionTabs(): SessionTab[] {
    return this.all().flatMap((a) => a.client.sessions().map((s) => ({ ...s, agentName: a.name })));
  }

  /** The agent the view showed most lately. */
  lastShown(): PooledAgent | undefined {
    return this.all().sort((x, y) => y.lastShown - x.lastShown)[0];
  }

  /** The agent a session is open on (`agentName`: of that agent; ids are unique per agent only). */
  holding(sessionId: string, agentName?: string): PooledAgent | undefined {
    for (const a of this.agents.values())
      if ((agentName === undefined || a.name === agentName) && a.client.getSession(sessionId)) return a;
    return undefined;
  }

  /** Adds client features (fs, terminals, permissions, …) to every connection started from now on. */
  registerFeatures(provider: () => readonly ClientFeature[]): IDisposable {
    this.featureProviders.add(provider);
    return toDisposable(() => this.featureProviders.delete(provider));
  }

  /** Whether `name` may start now (tandem.maxAgents): agents that work are never stopped to make room. */
  roomFor(name: string): Room {
    const max = maxAgents();
    const others = [...this.agents.values()].filter((a) => a.name !== name);
    if (others.length < max) return {};
    const idle = others
      .filter((a) => !a.client.sessions().some((s) => s.status === 'working'))
      .sort((x, y) => x.lastShown - y.lastShown);
    if (idle.length) return { evict: idle[0] };
    return {
      refused: `Tandem runs ${others.length} agents at once (tandem.maxAgents is ${max}) and all of them are working: close a session of ${others.map((a) => a.name).join(' or ')} to start ${name}.`,
    };
  }

  /** Builds a connection scope for `agent`: a new AgentClient with every registered feature, its events relayed. */
  connect(
    agent: AgentConfig,
    cwd: string,
    additionalDirectories: string[],
    maxLineBytes: number,
    firstSession?: AgentClientOptions['firstSession'],
  ): PooledAgent {
    const scope = new DisposableStore();
    const wire = new WireObserver();
    const client = scope.add(
      new AgentClient({
        agent,
        cwd,
        additionalDirectories,
        firstSession,
        logger: this.deps.logger,
        traffic: (dir, msg) => {
          wire.observe(dir, msg);
          this.deps.traffic(dir, msg);
        },
        maxLineBytes,
        features: [...this.featureProviders].flatMap((provide) => provide()),
        clientInfo: {
          name: 'tandem',
          title: 'Tandem',
          version: String(this.deps.context.extension.packageJSON.version),
        },
      }),
    );
    const a: PooledAgent = {
      name: agent.name,
      config: agent,
      client,
      scope,
      view: { state: 'starting', name: agent.name },
      lastShown: 0,
      wire,
    };
    this.agents.set(agent.name, a);
    const { events } = this.deps;
    scope.add(client.onDidChangeAgent((s) => this.setView(a, toAgentView(s, client))));
    scope.add(client.onDidChangeSession((c) => events.session(a, c)));
    scope.add(client.onDidReplaceSession(() => events.replaced(a)));
    scope.add(client.onDidChangeSessions(() => events.sessions()));
    events.agent(a);
    events.sessions();
    return a;
  }

  setView(a: PooledAgent, view: AgentView): void {
    a.view = view;
    this.deps.events.agent(a);
  }

  /** Ends the agent's connection scope and resolves when its process group is gone. */
  stop(a: PooledAgent): Promise<void> {
    if (this.agents.get(a.name) === a) this.agents.delete(a.name);
    a.scope.dispose();
    const done = a.client.shutdown();
    a.view = { state: 'exited', name: a.name };
    this.deps.events.agent(a);
    this.deps.events.sessions();
    return done;
  }

  /** Whether tandem.agents names it (an agent Tandem made itself, a replay, is not). */
  isConfigured(name: string): boolean {
    return readSettings(this.deps.context.extensionUri).agents.some((a) => a.name === name);
  }

  override dispose(): void {
    for (const a of this.agents.values()) a.scope.dispose();
    this.agents.clear();
    super.dispose();
  }
}
