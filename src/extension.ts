// Composition root: build the objects, register them for disposal. No logic here.
import * as vscode from 'vscode';
import { ElicitationFeature } from './client/elicitation';
import { AgentHands } from './vscode/agentHands';
import { createClientTools } from './vscode/clientToolsSettings';
import { createCommands, registerCommands } from './vscode/commands';
import { Controller } from './vscode/controller';
import { DiffDocuments } from './vscode/diffDocuments';
import { notifyHiddenForms, VsCodeUrlPort } from './vscode/elicitation';
import { registerIdeIntelligence } from './vscode/ideIntelligence';
import { createLog } from './vscode/logging';
import { TandemPermissions } from './vscode/permissions';
import { registerRegistry } from './vscode/registry/registryCommands';
import { fileSlot, InterruptedPrompts, mementoSlot } from './vscode/interruptedPrompts';
import { sendPrompt } from './vscode/sendPrompt';
import { SessionHistory } from './vscode/sessionHistory';
import { SessionViewProvider } from './vscode/sessionView';
import { StatusIndicators } from './vscode/statusBar';
import { Traffic } from './vscode/traffic';
import { ViewFeed, viewSource } from './vscode/viewFeed';
import { ViewIntents } from './vscode/viewIntents';
import { QueuedPrompts } from './vscode/queuedPrompts';
import { TurnEnds } from './vscode/turnEnds';
import { TurnAttention } from './vscode/attention';
import { vscodeRequests } from './vscode/webviewRequests';

let controller: Controller | undefined;

export function activate(context: vscode.ExtensionContext) {
  const { channel, logger } = createLog();
  const traffic = new Traffic(channel, logger, context.globalStorageUri);
  const interrupted = new InterruptedPrompts(
    context.storageUri
      ? fileSlot(vscode.Uri.joinPath(context.storageUri, 'in-flight-prompt.json').fsPath)
      : mementoSlot(context.workspaceState),
    (text, atts): Promise<void> => {
      view.show();
      return sendPrompt(ctl, text, atts);
    },
  );
  const history = new SessionHistory(context.workspaceState, interrupted);
  const ctl = (controller = new Controller({
    context,
    logger,
    traffic: traffic.onMessage,
    history,
    onWillConnect: (agentName) => traffic.startConnection(agentName),
    promptNotice: (sessionId) => hands.takeRestoreNotice(sessionId),
  }));
  // Prompts sent while a turn runs: queued per session, sent when the turn ends, steerable.
  const turns = new TurnEnds(ctl);
  const queued = new QueuedPrompts(ctl, turns, { postMessage: (m) => view.postMessage(m) }, logger);
  const view = new SessionViewProvider(context.extensionUri, logger, viewSource(ctl, queued), {
    ...vscodeRequests,
    turnChanges: ({ turn }) => hands.changes.list(turn),
  });
  // A turn that ends or fails while the view is out of sight: notification, badge, status bar.
  const attention = new TurnAttention(ctl, turns, view);
  // Permission prompts: rules → remembered → inline prompt (notification + badge when the view is hidden).
  const permissions = new TandemPermissions(context, logger, view);
  // fs + terminals through VS Code (writes outside the workspace ask), follow-along, review changes, "Open in terminal".
  const hands: AgentHands = new AgentHands({
    controller: ctl,
    permission: permissions.broker,
    storageDir: context.storageUri?.fsPath,
    logger,
  });
  // Client tools (IDE group, API groups, command tools) served to the agent over MCP on loopback.
  const clientTools = createClientTools(context, logger, permissions.broker);
  // Code, Workspace and Extensions client tool groups; their edits go to Review Changes.
  const ideIntelligence = registerIdeIntelligence(clientTools.registry, logger, {
    tracker: hands.tracker,
    session: (id) => ctl.current?.getSession(id),
  });
  // elicitation/create: forms in the view, URLs opened only after a modal names their host.
  const elicitation = new ElicitationFeature({ url: new VsCodeUrlPort(), logger });
  const diffs = new DiffDocuments(() => ctl.current?.session?.state);
  const commands = createCommands({
    context,
    ctl,
    view,
    traffic,
    history,
    permissions,
    showLog: () => channel.show(true),
    removeCheckpoints: async (id) => (await hands.checkpointsReady)?.removeSession(id),
  });

  context.subscriptions.push(
    channel,
    traffic,
    ctl,
    turns,
    queued,
    attention,
    view,
    vscode.window.registerWebviewViewProvider(SessionViewProvider.viewType, view),
    permissions,
    hands,
    clientTools,
    ideIntelligence,
    diffs,
    ctl.registerFeatures(() => [permissions.feature(), ...hands.features(), clientTools.feature, elicitation]),
    new ViewFeed(ctl, view),
    hands.changes.onDidChange(() => view.postMessage({ type: 'changes' })),
    new StatusIndicators(ctl, attention),
    notifyHiddenForms(elicitation, view),
    ...registerCommands(commands),
  );
  const intents = new ViewIntents({
    ctl,
    commands,
    view,
    diffs,
    permissions,
    elicitation,
    queue: queued,
    changes: hands,
    logger,
  });
  // ACP Registry: browse, install, update, uninstall registry agents.
  const registry = registerRegistry({
    context,
    logger,
    runner: ctl,
    signIn: () => commands['tandem.signIn'](),
    showView: () => view.show(),
  });
  context.subscriptions.push(intents, ...registry);

  return {
    controller: ctl,
    intents,
    hands,
    permissions,
    clientTools,
    elicitation,
    registerToolGroup: clientTools.registerToolGroup,
    registry: registry.api,
  };
}

export async function deactivate(): Promise<void> {
  // Wait for the agent's process group to be gone so no orphan outlives the window.
  await controller?.stop();
}
