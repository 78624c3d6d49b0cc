// What Tandem's activate() returns to other extensions: `registerToolGroup`, to add a client tool
// group (its tools are served to the agent like Tandem's own), and the ACP Registry's catalog. When the extension runs under test
// (ExtensionMode.Test) it also returns `testing`: the objects the integration tests drive.
import type { ClientToolsApi, ClientTools } from './vscode/clientTools/clientToolsSettings';
import type { Controller } from './vscode/agent/controller';
import type { AgentChanges } from './vscode/changes/agentChanges';
import type { FollowAgent } from './vscode/editor/followAgent';
import type { TandemPermissions } from './vscode/permissions/tandemPermissions';
import type { RegistryApi } from './vscode/registry/registryCommands';
import type { TerminalMirror } from './vscode/terminals/terminalMirror';
import type { VisibleTerminals } from './vscode/terminals/visibleTerminals';
import type { ViewIntents } from './vscode/view/viewIntents';
import type { SessionsOverview } from './vscode/view/sessionsOverview';
import type { WorktreeSessions } from './vscode/worktrees/worktreeSessions';
import type { AskSeveralFeature } from './vscode/worktrees/askSeveral';
import type { ElicitationFeature } from './client/elicitation';
import type { Feedback } from './vscode/review/registerFeedback';
import type { EditPrompts } from './vscode/rewind/editPrompts';

export interface TandemApi extends ClientToolsApi {
  /** The ACP Registry's catalog as "Add Agent from Registry…" lists it, and the update check. */
  readonly registry: RegistryApi;
  /** Only under test: Tandem's parts, for the integration tests. */
  readonly testing?: TandemTestApi;
}

export interface TandemTestApi {
  readonly controller: Controller;
  readonly changes: AgentChanges;
  readonly terminals: { readonly visible: VisibleTerminals; readonly mirror: TerminalMirror };
  readonly follow: FollowAgent;
  readonly permissions: TandemPermissions;
  readonly clientTools: ClientTools;
  readonly elicitation: ElicitationFeature;
  readonly intents: ViewIntents;
  readonly overview: SessionsOverview;
  readonly worktrees: WorktreeSessions;
  readonly askSeveral: AskSeveralFeature;
  readonly feedback: Feedback;
  readonly edits: EditPrompts;
}
