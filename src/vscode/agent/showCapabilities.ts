// "Tandem: Show Agent Capabilities": for a running agent, what its `initialize` declared, what
// Tandem does with it and what the agent did on the wire this connection
// (client/capabilities/capabilityReport.ts), as a Markdown preview of a `tandem-capabilities:`
// document. The document is built when VS Code asks for it and refreshed while the agent talks
// (at most once a second), so the preview stays live; a restarted agent's report starts again.
import * as vscode from 'vscode';
import { buildCapabilityReport } from '../../client/capabilities/capabilityReport';
import type { Ctx } from '../ctx';
import type { Controller, PooledAgent } from './controller';

export const CAPABILITIES_SCHEME = 'tandem-capabilities';
export const SHOW_CAPABILITIES_COMMAND = 'tandem.showAgentCapabilities';
/** An open report refreshes at most this often: a turn sends thousands of messages. */
const REFRESH_MS = 1000;

type Agents = Pick<Controller, 'agents' | 'current' | 'onDidChangeAgents'>;

/** The report of the agent named `agentName` (its name is in the query: names may hold any character). */
export function capabilitiesUri(agentName: string): vscode.Uri {
  return vscode.Uri.from({
    scheme: CAPABILITIES_SCHEME,
    path: `/${agentName.replace(/[/\\]/g, '_')} capabilities.md`,
    query: new URLSearchParams({ agent: agentName }).toString(),
  });
}

export class CapabilityDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  /** The reports asked for, by agent name: the connection each one follows, a refresh pending. */
  private readonly reports = new Map<string, { uri: vscode.Uri; following?: PooledAgent; timer?: NodeJS.Timeout }>();
  private readonly agentsChanged: vscode.Disposable;

  constructor(private readonly ctl: Agents) {
    // Started, stopped, restarted, signed in: the report says so (a restart brings a new connection).
    this.agentsChanged = ctl.onDidChangeAgents(() => {
      for (const name of this.reports.keys()) this.refreshSoon(name);
    });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const name = new URLSearchParams(uri.query).get('agent') ?? '';
    let report = this.reports.get(name);
    if (!report) this.reports.set(name, (report = { uri }));
    const a = this.ctl.agents().find((x) => x.name === name);
    if (!a)
      return `# ${name}\n\n${name} is not running: start it, then run **Tandem: Show Agent Capabilities** again.\n`;
    if (report.following !== a) {
      report.following = a;
      // Ends with the connection's scope: a stopped agent's observer is not followed any more.
      a.scope.add(a.wire.watch(() => this.refreshSoon(name)));
    }
    return buildCapabilityReport({
      agentName: a.name,
      state: a.view.state,
      shown: a.client === this.ctl.current,
      openSessions: a.client.sessions().length,
      initialize: a.client.initializeResult,
      wire: a.wire.snapshot(),
    });
  }

  private refreshSoon(name: string): void {
    const report = this.reports.get(name);
    if (!report || report.timer) return;
    report.timer = setTimeout(() => {
      report.timer = undefined;
      this.changed.fire(report.uri);
    }, REFRESH_MS);
  }

  dispose(): void {
    for (const r of this.reports.values()) clearTimeout(r.timer);
    this.agentsChanged.dispose();
    this.changed.dispose();
  }
}

/**
 * Opens the report of `agentName` if it runs, else of the only running agent, else of the one the
 * user picks (the shown agent first). Returns the report's URI (undefined when none was opened).
 */
export async function showAgentCapabilities(
  ctl: Pick<Controller, 'agents' | 'current'>,
  agentName?: unknown,
): Promise<vscode.Uri | undefined> {
  const running = ctl.agents();
  const given = typeof agentName === 'string' ? agentName : undefined;
  if (!running.length || (given !== undefined && !running.some((a) => a.name === given))) {
    void vscode.window.showInformationMessage(
      `Tandem: ${given ?? 'no agent'} is not running. Start it (Tandem: Select Agent), then show its capabilities.`,
    );
    return undefined;
  }
  let name = given ?? (running.length === 1 ? running[0].name : undefined);
  if (name === undefined) {
    const isShown = (a: PooledAgent) => a.client === ctl.current;
    const ordered = [...running.filter(isShown), ...running.filter((a) => !isShown(a))];
    const pick = await vscode.window.showQuickPick(
      ordered.map((a) => ({
        label: a.name,
        description: isShown(a) ? 'shown in the view' : undefined,
        detail: a.view.state,
      })),
      { title: 'Tandem: Show Agent Capabilities', placeHolder: 'Which running agent?' },
    );
    name = pick?.label;
    if (name === undefined) return undefined;
  }
  const uri = capabilitiesUri(name);
  try {
    await vscode.commands.executeCommand('markdown.showPreview', uri);
  } catch {
    // No Markdown preview (the built-in extension disabled): the Markdown text itself.
    await vscode.window.showTextDocument(uri, { preview: true });
  }
  return uri;
}

export function registerShowCapabilities(ctx: Ctx, ctl: Controller): void {
  const docs = ctx.own(new CapabilityDocuments(ctl));
  ctx.own(vscode.workspace.registerTextDocumentContentProvider(CAPABILITIES_SCHEME, docs));
  ctx.own(
    vscode.commands.registerCommand(SHOW_CAPABILITIES_COMMAND, (name?: unknown) => showAgentCapabilities(ctl, name)),
  );
}
