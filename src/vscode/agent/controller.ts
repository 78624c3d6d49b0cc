// The agent's lifecycle: which agent runs, starting it (trust, settings, secrets), restarting
// and stopping it. Two disposal scopes, as in rust-analyzer's ctx.ts: the extension's (this
// object) and the connection's (`connection`), which a restart disposes, killing the agent's
// process group, before building the next one. What the user does with the agent lives
// elsewhere: commands.ts (the palette), viewIntents.ts (the view), viewFeed.ts (what the view shows).
import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import { AgentClient } from '../../client/connection/agentClient';
import type { AgentConfig } from '../../client/agents/agentConfig';
import { findExecutable, missingCommandHelp } from '../../client/agents/agentPresets';
import type { ClientFeature } from '../../client/connection/feature';
import { Disposable, DisposableStore, toDisposable, type IDisposable } from '../../common/disposable';
import { Emitter } from '../../common/event';
import type { Logger } from '../../common/logger';
import { PromptQueues } from '../../session/promptQueue';
import type { SessionChange } from '../../session/store';
import type { AgentView, ToWebview, SessionTab } from '../../shared/protocol';
import { withSecrets } from './agentSecrets';
import { pointToWorkingSession, toAgentView } from './agentViewState';
import { readSettings } from '../config';
import { WORKSPACE_STATE } from '../storageKeys';

const QUEUE_KEY = WORKSPACE_STATE.promptQueue;

export interface ControllerDeps {
  context: vscode.ExtensionContext;
  logger: Logger;
  traffic: (dir: 'in' | 'out', msg: unknown) => void;
  /** The session to reopen on the first start of a window (sessions/sessionHistory.ts). */
  resumeSession?(agentName: string): string | undefined;
  /** A new connection is about to start (traffic recording). */
  onWillConnect?: (agentName: string) => Promise<void>;
}

export class Controller extends Disposable {
  private client?: AgentClient;
  private agentConfig?: AgentConfig;
  /** The connection scope: everything that lives as long as one agent process. */
  private connection?: DisposableStore;
  private readonly featureProviders = new Set<() => readonly ClientFeature[]>();
  /** The first start of a window reopens the session that was active when it closed. */
  private restored = false;
  private agentView: AgentView = { state: 'none' };
  /** Each start() takes a number; only the latest may launch. */
  private startGen = 0;
  private starting?: Promise<void>;
  /** A session/new in flight while another session is shown: a prompt sent now is meant for it. */
  openingSession?: Promise<void>;

  private readonly agentChanged = this._register(new Emitter<AgentView>());
  /** The agent's state changed (starting, ready, sign-in needed, error, …). */
  readonly onDidChangeAgent = this.agentChanged.event;
  private readonly sessionChanged = this._register(new Emitter<SessionChange>());
  /** The shown session's store changed (its patches); other sessions' changes stay in their stores. */
  readonly onDidChangeSession = this.sessionChanged.event;
  private readonly sessionsChanged = this._register(new Emitter<void>());
  /** A session was opened or closed, or one's title or status changed. */
  readonly onDidChangeSessions = this.sessionsChanged.event;
  private readonly replaced = this._register(new Emitter<void>());
  /** The shown session was replaced or the agent restarted: views need a new snapshot. */
  readonly onDidReplace = this.replaced.event;
  /** Prompts sent while a turn runs, per session, kept in workspaceState (they outlive a window reload). */
  readonly queues: PromptQueues;

  constructor(private readonly deps: ControllerDeps) {
    super();
    const state = deps.context.workspaceState;
    this.queues = this._register(
      new PromptQueues({ get: () => state.get(QUEUE_KEY), set: (v) => state.update(QUEUE_KEY, v) }, randomUUID),
    );
    this._register(
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        if (this.agentView.state === 'untrusted') void this.start();
      }),
    );
  }

  get agent(): AgentView {
    return this.agentView;
  }
  get current(): AgentClient | undefined {
    return this.client;
  }
  /** The running agent's configuration (with its secrets), for signing in to it. */
  get config(): AgentConfig | undefined {
    return this.agentConfig;
  }

  /** Adds client features (fs, terminals, permissions, …) to every connection started from now on. */
  registerFeatures(provider: () => readonly ClientFeature[]): IDisposable {
    this.featureProviders.add(provider);
    return toDisposable(() => this.featureProviders.delete(provider));
  }

  /** What the view is built from: the agent, the shown session and the open ones. */
  snapshot(): Extract<ToWebview, { type: 'snapshot' }> {
    return {
      type: 'snapshot',
      agent: this.agentView,
      session: this.client?.session?.snapshot() ?? null,
      workspaceRoots: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
      sessions: this.sessionTabs(),
    };
  }

  sessionTabs(): SessionTab[] {
    return this.client?.sessions() ?? [];
  }

  /** Starts the configured agent unless one is running or starting. */
  async ensureStarted(): Promise<void> {
    if (this.starting) return this.starting;
    if (this.client && this.agentView.state !== 'error' && this.agentView.state !== 'exited') return;
    await this.start();
  }

  /**
   * Starts the named agent (default: tandem.defaultAgent), or an agent Tandem made itself (the
   * replay of a recording): never one from workspace settings.
   */
  async start(agentName?: string, adHoc?: AgentConfig): Promise<void> {
    // The latest start wins: an earlier one still before its launch gives up, so two quick starts
    // (the view opening while a command starts an agent) never leave an agent process behind.
    const gen = ++this.startGen;
    const run = this.startAs(gen, agentName, adHoc).catch((err) => {
      if (gen !== this.startGen) return;
      const message = `Could not start ${agentName ?? 'the agent'}: ${err instanceof Error ? err.message : err}`;
      this.deps.logger.error(message);
      this.setAgent({ state: 'error', name: agentName ?? this.agentView.name, message });
    });
    this.starting = run;
    try {
      await run;
    } finally {
      if (this.starting === run) this.starting = undefined;
    }
    // Superseded: resolve when the start that replaced this one is done.
    if (gen !== this.startGen) await this.starting;
  }

  private async startAs(gen: number, agentName?: string, adHoc?: AgentConfig): Promise<void> {
    await this.stop();
    if (gen !== this.startGen) return;
    if (!vscode.workspace.isTrusted) {
      this.setAgent({
        state: 'untrusted',
        message:
          'Tandem does not start an agent in a restricted workspace: agents run commands and edit files. Trust this workspace to use Tandem.',
      });
      return;
    }
    const settings = readSettings(this.deps.context.extensionUri);
    for (const w of settings.warnings) this.deps.logger.warn(w);
    const name = adHoc?.name ?? agentName ?? settings.defaultAgent;
    const configured = adHoc ?? settings.agents.find((a) => a.name === name);
    if (!configured) {
      this.setAgent({
        state: 'error',
        name,
        message: `No agent named "${name}" in tandem.agents. Known agents: ${settings.agents.map((a) => a.name).join(', ')}. Run "Tandem: Select Agent" to pick one.`,
      });
      return;
    }
    if (!findExecutable(configured.command, { ...process.env, ...configured.env }, configured.cwd)) {
      this.setAgent({ state: 'error', name, message: missingCommandHelp(configured) });
      return;
    }
    const agent = await withSecrets(configured, this.deps.context.secrets);
    if (gen !== this.startGen) return;
    if (!agent) {
      this.setAgent({
        state: 'error',
        name,
        message: `${name} needs ${configured.secretEnv!.join(', ')} to start. Restart the agent to enter it.`,
      });
      return;
    }
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const resumeSessionId = this.restored ? undefined : this.deps.resumeSession?.(agent.name);
    await this.deps.onWillConnect?.(agent.name);
    if (gen !== this.startGen) return;
    this.restored = true;
    this.connect(
      agent,
      folders[0] ?? this.deps.context.globalStorageUri.fsPath,
      folders.slice(1),
      settings.maxMessageBytes,
      resumeSessionId,
    );
    await this.client!.start();
  }

  /** Builds the connection scope: a new AgentClient with every registered feature, its events relayed. */
  private connect(
    agent: AgentConfig,
    cwd: string,
    additionalDirectories: string[],
    maxLineBytes: number,
    resumeSessionId?: string,
  ): void {
    const scope = (this.connection = new DisposableStore());
    this.agentConfig = agent;
    const client = (this.client = scope.add(
      new AgentClient({
        agent,
        cwd,
        additionalDirectories,
        resumeSessionId,
        logger: this.deps.logger,
        traffic: this.deps.traffic,
        maxLineBytes,
        features: [...this.featureProviders].flatMap((provide) => provide()),
        clientInfo: {
          name: 'tandem',
          title: 'Tandem',
          version: String(this.deps.context.extension.packageJSON.version),
        },
      }),
    ));
    scope.add(client.onDidChangeAgent((s) => this.setAgent(s)));
    scope.add(
      client.onDidChangeSession((c) => {
        if (c.sessionId === client.session?.sessionId) this.sessionChanged.fire(c);
      }),
    );
    scope.add(client.onDidReplaceSession(() => this.replaced.fire()));
    scope.add(client.onDidChangeSessions(() => this.sessionsChanged.fire()));
  }

  /** Ends the connection scope and waits for the agent's process group to be gone. */
  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.connection?.dispose();
    this.connection = undefined;
    await client?.shutdown();
  }

  async restart(): Promise<void> {
    await this.start(
      this.agentView.name,
      this.agentConfig &&
        !readSettings(this.deps.context.extensionUri).agents.some((a) => a.name === this.agentConfig!.name)
        ? this.agentConfig
        : undefined,
    );
    this.replaced.fire();
  }

  /** A new session on the running agent; starts the agent when none is ready. `forkOf`: fork that open session. */
  async newSession(forkOf?: string): Promise<void> {
    // Asked again while one opens: that one is the new session (never restart the agent for it).
    if (this.openingSession) return this.openingSession;
    if (!this.client || this.agentView.state !== 'ready') {
      await this.start(this.agentView.name);
      return;
    }
    const client = this.client;
    const previous = client.session;
    // An agent can take seconds to open a session (claude-code-acp: 3–5 s): the view says so and
    // its composer does not send meanwhile; a prompt sent from elsewhere waits for the new session.
    const message = forkOf ? 'Forking the session…' : 'Opening a new session…';
    this.setAgent({ ...client.agent, state: 'starting', message });
    const opening = client.newSession(forkOf);
    this.openingSession = opening.then(() => undefined).catch(() => undefined);
    try {
      await opening;
      if (previous && previous !== client.session) pointToWorkingSession(client, previous);
    } catch (err) {
      void vscode.window.showErrorMessage(
        `Tandem: could not ${forkOf ? 'fork the session' : 'open a new session'}: ${err instanceof Error ? err.message : err}`,
      );
    } finally {
      this.openingSession = undefined;
      if (this.client === client) this.setAgent(client.agent);
    }
  }

  private setAgent(a: AgentView): void {
    this.agentView = toAgentView(a, this.client);
    this.agentChanged.fire(this.agentView);
  }

  override dispose(): void {
    this.connection?.dispose();
    super.dispose();
  }
}
