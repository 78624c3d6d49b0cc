// Composition root: build the objects, wire them, register disposables. No logic here.
import * as vscode from 'vscode';
import { AgentHands } from './vscode/agentHands';
import { createClientTools } from './vscode/clientToolsSettings';
import { registerIdeIntelligence } from './vscode/ideIntelligence';
import { Controller } from './vscode/controller';
import { ElicitationFeature } from './client/elicitation';
import { VsCodeUrlPort } from './vscode/elicitation';
import { createLog } from './vscode/logging';
import { TandemPermissions } from './vscode/permissions';
import { SessionViewProvider } from './vscode/sessionView';
import { AgentStatusBar } from './vscode/statusBar';
import { registerCommands } from './vscode/commands';
import { ContextKeys } from './vscode/contextKeys';
import { SessionHistory } from './vscode/sessionHistory';
import { Traffic } from './vscode/traffic';

let controller: Controller | undefined;

export function activate(context: vscode.ExtensionContext) {
  const { channel, logger } = createLog();
  context.subscriptions.push(channel);
  const showLog = () => channel.show(true);
  const traffic = new Traffic(channel, logger, context.globalStorageUri);
  context.subscriptions.push(traffic);

  // eslint-disable-next-line prefer-const -- assigned below, read by closures built first (issue: composition order)
  let hands: AgentHands | undefined;
  // eslint-disable-next-line prefer-const -- as above
  let permissions: TandemPermissions | undefined;
  // Client tools (IDE group, API groups, command tools) served to the agent over MCP on loopback.
  const clientTools = createClientTools(context, logger, () => permissions?.broker);
  context.subscriptions.push(clientTools);
  // elicitation/create: forms in the view, URLs opened only after a modal names their host.
  const elicitation = new ElicitationFeature({ url: new VsCodeUrlPort(), logger });
  const ctl = (controller = new Controller({
    context,
    logger,
    traffic: traffic.onMessage,
    showLog,
    permissions: { answer: (r, o) => permissions?.answer(r, o) ?? false },
    elicitation,
    history: new SessionHistory(context.workspaceState),
    onWillConnect: (name) => traffic.startConnection(name),
    features: () => [
      ...(permissions ? [permissions.feature()] : []),
      ...(hands?.features() ?? []),
      clientTools.feature,
      elicitation,
    ],
  }));
  context.subscriptions.push(ctl);
  // fs + terminals through VS Code, follow-along, review changes, "Open in terminal".
  hands = new AgentHands({ current: () => ctl.current, onDidChange: (l) => ctl.onDidChange(l) });
  context.subscriptions.push(hands);
  // Code, Workspace and Extensions client tool groups; their edits go to Review Changes.
  const { tracker } = hands;
  context.subscriptions.push(
    registerIdeIntelligence(clientTools.registry, logger, { tracker, session: (id) => ctl.current?.getSession(id) }),
  );

  const view = new SessionViewProvider(context.extensionUri, logger, {
    snapshot: () => ctl.snapshot(),
    turns: (id) => {
      const s = ctl.current?.session;
      return s?.sessionId === id ? s : undefined;
    },
  });
  context.subscriptions.push(view, vscode.window.registerWebviewViewProvider(SessionViewProvider.viewType, view));

  // Permission prompts: rules → remembered → inline prompt (notification + badge when the view is hidden).
  permissions = new TandemPermissions(context, logger, view);
  context.subscriptions.push(
    permissions,
    asVs(view.onDidChangeVisibility(() => permissions?.onViewVisibilityChanged())),
  );
  // A form waiting while the view is hidden: say so, with a way to it.
  context.subscriptions.push(
    asVs(
      elicitation.onDidAskForm((f) => {
        if (view.isVisible) return;
        void vscode.window
          .showInformationMessage(`${f.agentName} asks for input: ${f.message}`, 'Show in Tandem')
          .then((pick) => {
            if (pick) view.show();
          });
      }),
    ),
  );
  // Writes outside the workspace ask through the same pipeline.
  hands.setPermissionPort(permissions.broker);

  const status = new AgentStatusBar();
  context.subscriptions.push(status);
  const contextKeys = new ContextKeys();
  const refreshStatus = () => {
    const session = ctl.current?.session?.state;
    // Prompts and forms both wait for the user.
    const waiting = (session?.permissions.length ?? 0) + (session?.elicitations.length ?? 0);
    status.update(ctl.agent, session?.meta.status === 'working', waiting > 0);
    contextKeys.update(ctl.agent, session?.meta, waiting);
  };
  refreshStatus();

  context.subscriptions.push(
    asVs(
      ctl.onDidChange((m) => {
        if (m.type === 'patch') view.pushPatches(m.sessionId, m.patches);
        else view.postMessage(m);
        refreshStatus();
      }),
    ),
    asVs(
      ctl.onDidReplace(() => {
        view.refresh();
        refreshStatus();
      }),
    ),
    // The agent starts when the user first opens the view, not at activation.
    asVs(
      view.onDidResolve(() => {
        void ctl.ensureStarted();
      }),
    ),
    asVs(
      view.onIntent((intent) => {
        ctl
          .handle(intent)
          .catch((err) =>
            logger.error(`Handling ${intent.type} failed: ${err instanceof Error ? (err.stack ?? err.message) : err}`),
          );
      }),
    ),
    ...registerCommands({ context, ctl, view, traffic, showLog, managePermissions: () => permissions?.manage() }),
  );

  return {
    controller: ctl,
    hands,
    permissions,
    clientTools,
    elicitation,
    registerToolGroup: clientTools.registerToolGroup,
  };
}

export async function deactivate(): Promise<void> {
  // Wait for the agent's process group to be gone so no orphan outlives the window.
  await controller?.stop();
}

function asVs(d: { dispose(): void }): vscode.Disposable {
  return new vscode.Disposable(() => d.dispose());
}
