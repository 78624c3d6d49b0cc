// Composition of the agent's hands in VS Code: fs + terminal features for each agent connection
// (with the VS Code ports), follow-along, review changes, "Open in terminal". Extension-lifetime;
// `features()` is called for every new connection (Controller.launch).
import * as vscode from 'vscode';
import type { AgentClient } from '../client/agentClient';
import type { ClientFeature } from '../client/feature';
import { ChangeTracker } from '../client/changeTracker';
import { FileSystemFeature } from '../client/fileSystem';
import type { PermissionPort } from '../client/permissionPort';
import { TerminalsFeature } from '../client/terminals';
import type { HostMessage } from '../shared/protocol';
import type { Patch } from '../shared/sessionModel';
import { FollowAgent } from './followAgent';
import { ModalPermission } from './modalPermission';
import { ReviewChanges } from './reviewChanges';
import { TerminalMirror } from './terminalMirror';
import { vscodeDocuments, vscodeEdits, vscodeFs, vscodeWorkspace } from './workspacePorts';

export interface AgentHandsDeps {
  /** The running agent connection, if any. */
  current(): AgentClient | undefined;
  /** Host messages of the controller (patches of the current session). */
  onDidChange(listener: (m: HostMessage) => void): { dispose(): void };
  /** The permission prompt; default: a modal dialog (until the inline prompt is wired). */
  permission?: PermissionPort;
}

export class AgentHands implements vscode.Disposable {
  readonly tracker = new ChangeTracker();
  readonly follow: FollowAgent;
  readonly review: ReviewChanges;
  readonly mirror: TerminalMirror;
  private permission: PermissionPort;
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly deps: AgentHandsDeps) {
    this.permission = deps.permission ?? new ModalPermission(() => deps.current()?.agent.name ?? 'The agent');
    const patches = (l: (p: readonly Patch[]) => void) =>
      deps.onDidChange((m) => {
        if (m.type === 'patch') l(m.patches);
      });
    this.follow = new FollowAgent(patches);
    this.review = new ReviewChanges(this.tracker, vscodeEdits, () => deps.current()?.session?.sessionId);
    this.mirror = new TerminalMirror({
      get: (id) => deps.current()?.session?.state.terminals.get(id),
      all: () => {
        const s = deps.current()?.session?.snapshot();
        return s ? Object.values(s.terminals) : [];
      },
      onPatches: patches,
    });
    this.subs.push(this.follow, this.review, this.mirror, { dispose: () => this.tracker.dispose() });
  }

  /** Replaces the permission prompt (the permissions feature wires its inline prompt here). */
  setPermissionPort(p: PermissionPort): void {
    this.permission = p;
  }

  /** The client features for one new agent connection. */
  features(): ClientFeature[] {
    return [
      new FileSystemFeature({
        documents: vscodeDocuments,
        fs: vscodeFs,
        edits: vscodeEdits,
        workspace: vscodeWorkspace,
        permission: { request: (...a) => this.permission.request(...a) },
        tracker: this.tracker,
        agentInfoName: () => this.deps.current()?.initializeResult?.agentInfo?.name,
      }),
      new TerminalsFeature(),
    ];
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }
}
