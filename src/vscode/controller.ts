// Glue between VS Code, the agent connection and the view. Owns the connection scope: a
// restart disposes the AgentClient (killing its process group) and builds a new one.
import * as vscode from 'vscode';
import { AgentClient, type ClientFeature } from '../client/agentClient';
import type { AgentConfig } from '../client/agentConfig';
import { Disposable, DisposableStore } from '../common/disposable';
import { Emitter } from '../common/event';
import type { Logger } from '../common/logger';
import type { AgentView, HostMessage, Intent } from '../shared/protocol';
import { readSettings } from './settings';
import { DiffDocuments } from './diffDocuments';
import { searchFiles } from './fileSearch';
import { buildPrompt, currentSelection } from './promptContent';
import { getToolCall } from '../session/store';

export interface ControllerDeps {
  context: vscode.ExtensionContext;
  logger: Logger;
  traffic: (dir: 'in' | 'out', msg: unknown) => void;
  showLog: () => void;
  /** Client features (fs, terminals, …) for each new agent connection. */
  features?: () => readonly ClientFeature[];
  /** Answers to permission prompts from the view (accepted only for a pending request and an offered option). */
  permissions?: { answer(requestId: string, optionId: string): boolean };
}

export class Controller extends Disposable {
  private client?: AgentClient;
  private scope?: DisposableStore;
  private agentView: AgentView = { state: 'none' };
  private readonly changed = this._register(new Emitter<HostMessage>());
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
    this._register(toDisposable(vscode.workspace.onDidGrantWorkspaceTrust(() => {
      if (this.agentView.state === 'untrusted') void this.start();
    })));
  }

  get agent(): AgentView { return this.agentView; }
  get current(): AgentClient | undefined { return this.client; }

  snapshot(): Extract<HostMessage, { type: 'snapshot' }> {
    return {
      type: 'snapshot', agent: this.agentView, session: this.client?.session?.snapshot() ?? null,
      workspaceRoots: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
    };
  }

  /** Starts the configured agent unless one is running or starting. */
  async ensureStarted(): Promise<void> {
    if (this.client && this.agentView.state !== 'error' && this.agentView.state !== 'exited') return;
    await this.start();
  }

  async start(agentName?: string): Promise<void> {
    await this.stop();
    if (!vscode.workspace.isTrusted) {
      this.setAgent({ state: 'untrusted', message: 'Tandem does not start an agent in a restricted workspace: agents run commands and edit files. Trust this workspace to use Tandem.' });
      return;
    }
    const settings = readSettings(this.deps.context.extensionUri);
    for (const w of settings.warnings) this.deps.logger.warn(w);
    const name = agentName ?? settings.defaultAgent;
    const agent = settings.agents.find((a) => a.name === name);
    if (!agent) {
      this.setAgent({ state: 'error', name, message: `No agent named "${name}" in tandem.agents. Known agents: ${settings.agents.map((a) => a.name).join(', ')}.` });
      return;
    }
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    this.launch(agent, folder ?? this.deps.context.globalStorageUri.fsPath, settings.maxMessageBytes);
    await this.client!.start();
  }

  private launch(agent: AgentConfig, cwd: string, maxLineBytes: number): void {
    const scope = this.scope = new DisposableStore();
    const client = this.client = scope.add(new AgentClient({
      agent, cwd, logger: this.deps.logger, traffic: this.deps.traffic, maxLineBytes, features: this.deps.features?.(),
      clientInfo: { name: 'tandem', title: 'Tandem', version: String(this.deps.context.extension.packageJSON.version) },
    }));
    scope.add(client.onDidChangeAgent((a) => this.setAgent(a)));
    scope.add(client.onDidChangeSession((c) => this.changed.fire({ type: 'patch', sessionId: c.sessionId, patches: c.patches })));
    scope.add(client.onDidReplaceSession(() => this.replaced.fire()));
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
    await this.start(this.agentView.name);
    this.replaced.fire();
  }

  async handle(intent: Intent): Promise<void> {
    switch (intent.type) {
      case 'prompt': {
        await this.ensureStarted();
        const caps = this.client?.initializeResult?.agentCapabilities?.promptCapabilities ?? undefined;
        await this.client?.prompt(intent.attachments?.length ? await buildPrompt(intent.text, intent.attachments, caps) : intent.text);
        break;
      }
      case 'openDiff':
        if (!await this.diffs.open(intent.toolCallId, intent.index)) void vscode.window.showWarningMessage('Tandem: that diff is no longer in the session.');
        break;
      case 'searchFiles':
        this.changed.fire({ type: 'fileResults', requestId: intent.requestId, files: await searchFiles(intent.query) });
        break;
      case 'attachSelection': {
        const sel = currentSelection();
        this.changed.fire(sel ? { type: 'attachment', attachment: sel.attachment, preview: sel.preview } : { type: 'attachment' });
        if (!sel) void vscode.window.showInformationMessage('Tandem: select some text in an editor to attach it.');
        break;
      }
      case 'setMode': await this.client?.setMode(intent.modeId); break;
      case 'setConfigOption': await this.client?.setConfigOption(intent.configId, intent.value); break;
      case 'copyText': await vscode.env.clipboard.writeText(intent.text); break;
      case 'openExternal': await vscode.env.openExternal(vscode.Uri.parse(intent.url, true)); break;
      case 'cancel': this.client?.cancel(); break;
      case 'newSession': await this.newSession(); break;
      case 'restartAgent': await this.restart(); break;
      case 'selectAgent': await vscode.commands.executeCommand('workbench.action.openSettings', 'tandem.agents'); break;
      case 'showLog': this.deps.showLog(); break;
      case 'openLocation': {
        const uri = vscode.Uri.file(intent.path);
        const line = Math.max(0, (intent.line ?? 1) - 1);
        await vscode.window.showTextDocument(uri, { selection: new vscode.Range(line, 0, line, 0), preview: true, preserveFocus: true });
        break;
      }
      case 'permissionAnswer': this.deps.permissions?.answer(intent.requestId, intent.optionId); break;
      case 'ready': break;
    }
  }

  async newSession(): Promise<void> {
    if (!this.client || this.agentView.state !== 'ready') { await this.start(this.agentView.name); return; }
    try {
      await this.client.newSession();
    } catch (err) {
      void vscode.window.showErrorMessage(`Tandem: could not open a new session: ${err instanceof Error ? err.message : err}`);
    }
  }

  private setAgent(a: AgentView): void {
    const caps = this.client?.initializeResult?.agentCapabilities?.promptCapabilities;
    if (caps && !a.promptCapabilities) a = { ...a, promptCapabilities: { image: !!caps.image, audio: !!caps.audio, embeddedContext: !!caps.embeddedContext } };
    this.agentView = a;
    this.changed.fire({ type: 'agent', agent: a });
  }

  override dispose(): void {
    this.scope?.dispose();
    super.dispose();
  }
}

function toDisposable(d: vscode.Disposable) { return { dispose: () => d.dispose() }; }
