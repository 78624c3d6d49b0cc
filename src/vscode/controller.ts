// Glue between VS Code, the agent connection and the view. Owns the connection scope: a
// restart disposes the AgentClient (killing its process group) and builds a new one.
import * as vscode from 'vscode';
import { AgentClient } from '../client/agentClient';
import type { ClientFeature } from '../client/feature';
import type { AgentConfig } from '../client/agentConfig';
import { Disposable, DisposableStore } from '../common/disposable';
import { Emitter } from '../common/event';
import type { Logger } from '../common/logger';
import type { AgentView, ToWebview, WebviewIntent } from '../shared/protocol';
import { readSettings } from './settings';
import { DiffDocuments } from './diffDocuments';
import { buildPrompt } from './promptContent';
import { getToolCall } from '../session/snapshot';
import { findExecutable, missingCommandHelp } from '../client/agentPresets';
import { sessionToMarkdown } from '../session/exportMarkdown';
import type { SessionTab } from '../shared/protocol';
import { withSecrets } from './agentSecrets';
import type { SessionHistory } from './sessionHistory';
import { signIn } from './signIn';

export interface ControllerDeps {
  context: vscode.ExtensionContext;
  logger: Logger;
  traffic: (dir: 'in' | 'out', msg: unknown) => void;
  showLog: () => void;
  /** Client features (fs, terminals, …) for each new agent connection. */
  features?: () => readonly ClientFeature[];
  /** Answers to permission prompts from the view (accepted only for a pending request and an offered option). */
  permissions?: { answer(requestId: string, optionId: string): boolean };
  /** Answers to elicitation forms from the view (accepted only for a pending form and, for accept, valid content). */
  elicitation?: {
    answer(
      requestId: string,
      action: 'accept' | 'decline' | 'cancel',
      content?: Record<string, string | number | boolean | string[]>,
    ): boolean;
  };
  /** Past sessions of this workspace, and the one to reopen after a reload. */
  history?: SessionHistory;
  /** A new connection is about to start (traffic recording). */
  onWillConnect?: (agentName: string) => Promise<void>;
}

export class Controller extends Disposable {
  private client?: AgentClient;
  private agentConfig?: AgentConfig;
  private scope?: DisposableStore;
  /** The first start of a window reopens the session that was active when it closed. */
  private restored = false;
  private agentView: AgentView = { state: 'none' };
  /** Each start() takes a number; only the latest may launch. */
  private startGen = 0;
  private starting?: Promise<void>;
  private readonly changed = this._register(new Emitter<ToWebview>());
  /** Agent state and session patches, for the view and the status bar. */
  readonly onDidChange = this.changed.event;
  private readonly replaced = this._register(new Emitter<void>());
  /** The session was replaced or the agent restarted: views need a new snapshot. */
  readonly onDidReplace = this.replaced.event;

  private readonly diffs: DiffDocuments;

  constructor(private readonly deps: ControllerDeps) {
    super();
    const diffs = DiffDocuments.register((id, i) => {
      const state = this.client?.session?.state;
      const c = state && getToolCall(state, id)?.content[i];
      return c?.type === 'diff' ? { path: c.path, oldText: c.oldText ?? null, newText: c.newText } : undefined;
    });
    this.diffs = diffs.provider;
    this._register(toDisposable(diffs.disposable));
    this._register(
      toDisposable(
        vscode.workspace.onDidGrantWorkspaceTrust(() => {
          if (this.agentView.state === 'untrusted') void this.start();
        }),
      ),
    );
  }

  get agent(): AgentView {
    return this.agentView;
  }
  get current(): AgentClient | undefined {
    return this.client;
  }

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
    const resumeSessionId = this.restored ? undefined : this.deps.history?.lastSession(agent.name);
    await this.deps.onWillConnect?.(agent.name);
    if (gen !== this.startGen) return;
    this.restored = true;
    this.launch(
      agent,
      folders[0] ?? this.deps.context.globalStorageUri.fsPath,
      folders.slice(1),
      settings.maxMessageBytes,
      resumeSessionId,
    );
    await this.client!.start();
  }

  private launch(
    agent: AgentConfig,
    cwd: string,
    additionalDirectories: string[],
    maxLineBytes: number,
    resumeSessionId?: string,
  ): void {
    const scope = (this.scope = new DisposableStore());
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
        features: this.deps.features?.(),
        clientInfo: {
          name: 'tandem',
          title: 'Tandem',
          version: String(this.deps.context.extension.packageJSON.version),
        },
      }),
    ));
    scope.add(client.onDidChangeAgent((a) => this.setAgent(a)));
    // Only the shown session's patches cross to the view; others are in their stores.
    scope.add(
      client.onDidChangeSession((c) => {
        if (c.sessionId === client.session?.sessionId)
          this.changed.fire({ type: 'patch', sessionId: c.sessionId, patches: c.patches });
      }),
    );
    scope.add(client.onDidReplaceSession(() => this.replaced.fire()));
    scope.add(
      client.onDidChangeSessions(() => {
        this.changed.fire({ type: 'sessions', sessions: client.sessions(), activeId: client.session?.sessionId });
        this.remember(client, agent.name, cwd);
      }),
    );
  }

  /** Keeps the local session index and the session to reopen after a reload. */
  private remember(client: AgentClient, agentName: string, cwd: string): void {
    const history = this.deps.history;
    if (!history) return;
    const now = Date.now();
    for (const s of client.sessions()) {
      if (s.turns === 0) continue; // an untouched session is not history
      history.record({
        sessionId: s.sessionId,
        agentName,
        cwd,
        title: s.title,
        turns: s.turns,
        updatedAt: now,
        createdAt: now,
      });
    }
    history.setLastSession(agentName, client.canReopen() ? client.session?.sessionId : undefined);
  }

  /** Ends the connection scope and waits for the agent's process group to be gone. */
  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.scope?.dispose();
    this.scope = undefined;
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

  async handle(intent: WebviewIntent): Promise<void> {
    switch (intent.type) {
      case 'prompt': {
        await this.ensureStarted();
        const caps = this.client?.initializeResult?.agentCapabilities?.promptCapabilities ?? undefined;
        await this.client?.prompt(
          intent.attachments?.length ? await buildPrompt(intent.text, intent.attachments, caps) : intent.text,
        );
        break;
      }
      case 'openDiff':
        if (!(await this.diffs.open(intent.toolCallId, intent.index)))
          void vscode.window.showWarningMessage('Tandem: that diff is no longer in the session.');
        break;
      case 'setMode':
        await this.client?.setMode(intent.modeId);
        break;
      case 'setConfigOption':
        await this.client?.setConfigOption(intent.configId, intent.value);
        break;
      case 'copyText':
        await vscode.env.clipboard.writeText(intent.text);
        break;
      case 'openExternal':
        await vscode.env.openExternal(vscode.Uri.parse(intent.url, true));
        break;
      case 'cancel':
        this.client?.cancel();
        break;
      case 'newSession':
        await this.newSession();
        break;
      case 'restartAgent':
        await this.restart();
        break;
      case 'selectAgent':
        await vscode.commands.executeCommand('workbench.action.openSettings', 'tandem.agents');
        break;
      case 'showLog':
        this.deps.showLog();
        break;
      case 'openLocation': {
        const uri = vscode.Uri.file(intent.path);
        const line = Math.max(0, (intent.line ?? 1) - 1);
        await vscode.window.showTextDocument(uri, {
          selection: new vscode.Range(line, 0, line, 0),
          preview: true,
          preserveFocus: true,
        });
        break;
      }
      case 'permissionAnswer': {
        // Only a prompt the view shows (the active session's queue) can be answered from it: ids
        // are guessable, and a prompt of a session in the background was never shown.
        if (!this.client?.session?.state.permissions.some((p) => p.requestId === intent.requestId)) {
          this.deps.logger.warn(
            `Ignored a permission answer for ${intent.requestId}: that prompt is not shown in the view.`,
          );
          break;
        }
        this.deps.permissions?.answer(intent.requestId, intent.optionId);
        break;
      }
      case 'elicitationAnswer':
        this.deps.elicitation?.answer(intent.requestId, intent.action, intent.content);
        break;
      case 'switchSession':
        this.client?.switchTo(intent.sessionId);
        break;
      case 'closeSession':
        await this.client?.closeSession(intent.sessionId);
        break;
      case 'openSession':
        await this.openPastSession();
        break;
      case 'signIn':
        await this.signIn();
        break;
      case 'ready':
        break;
    }
  }

  async newSession(): Promise<void> {
    if (!this.client || this.agentView.state !== 'ready') {
      await this.start(this.agentView.name);
      return;
    }
    try {
      await this.client.newSession();
    } catch (err) {
      void vscode.window.showErrorMessage(
        `Tandem: could not open a new session: ${err instanceof Error ? err.message : err}`,
      );
    }
  }

  /** "Tandem: Open Session…": pick a past session and reopen it (session/load or resume). */
  async openPastSession(): Promise<void> {
    await this.ensureStarted();
    const client = this.client;
    const name = this.agentView.name;
    if (!client || !name || this.agentView.state !== 'ready' || !this.deps.history) return;
    const id = await this.deps.history.pick(client, name);
    if (!id) return;
    if (!client.canReopen() && !client.getSession(id)) {
      void vscode.window.showWarningMessage(
        `Tandem: ${name} cannot reopen past sessions (it supports neither session/load nor session/resume).`,
      );
      return;
    }
    await vscode.window.withProgress(
      { location: { viewId: 'tandem.sessionView' }, title: 'Opening session…' },
      async () => {
        try {
          await client.loadSession(id);
        } catch (err) {
          void vscode.window.showErrorMessage(
            `Tandem: could not reopen that session: ${err instanceof Error ? err.message : err}`,
          );
        }
      },
    );
  }

  async signIn(methodId?: string): Promise<void> {
    if (this.client && this.agentConfig)
      await signIn(
        this.client,
        this.agentConfig,
        this.deps.context.secrets,
        async () => {
          await this.restart();
          return this.client;
        },
        methodId,
      );
  }

  /** "Tandem: Export Session as Markdown". Returns the file written. */
  async exportSession(target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const session = this.client?.session;
    if (!session) {
      void vscode.window.showInformationMessage('Tandem: there is no session to export.');
      return undefined;
    }
    const snap = session.snapshot();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = `${(snap.meta.title || 'tandem-session').replace(/[^\w.-]+/g, '-').slice(0, 60)}.md`;
    const uri =
      target ??
      (await vscode.window.showSaveDialog({
        defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
        filters: { Markdown: ['md'] },
      }));
    if (!uri) return undefined;
    const md = sessionToMarkdown(snap, {
      agentName: this.agentView.info?.title ?? this.agentView.name,
      exportedAt: new Date(),
    });
    await vscode.workspace.fs.writeFile(uri, Buffer.from(md, 'utf8'));
    return uri;
  }

  private setAgent(a: AgentView): void {
    const caps = this.client?.initializeResult?.agentCapabilities?.promptCapabilities;
    if (caps && !a.promptCapabilities)
      a = {
        ...a,
        promptCapabilities: { image: !!caps.image, audio: !!caps.audio, embeddedContext: !!caps.embeddedContext },
      };
    this.agentView = a;
    this.changed.fire({ type: 'agent', agent: a });
  }

  override dispose(): void {
    this.scope?.dispose();
    super.dispose();
  }
}

function toDisposable(d: vscode.Disposable) {
  return { dispose: () => d.dispose() };
}
