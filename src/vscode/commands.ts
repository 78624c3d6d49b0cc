// The command palette: every "Tandem: …" command that is not owned by a feature module, one
// function per command id (rust-analyzer's createCommands()). The view's intents that do the
// same thing call these functions (viewIntents.ts), so the view and the palette cannot drift apart.
import * as vscode from 'vscode';
import { replayAgent } from '../client/agents/agentConfig';
import { forgetSecrets } from './agent/agentSecrets';
import { pickAgent } from './agent/agentPicker';
import type { WorktreesFeature } from './worktrees/registerWorktrees';
import type { Controller } from './agent/controller';
import { exportSession } from './sessions/exportSession';
import { forkSession } from './sessions/forkSession';
import { currentSelection } from './prompts/promptContent';
import type { PromptSender } from './prompts/promptSender';
import type { Ctx } from './ctx';
import { deletePastSession, openPastSession, type SessionHistory } from './sessions/sessionHistory';
import { readSettings } from './config';
import { signIn } from './agent/signIn';
import type { SessionSummaries } from './changes/sessionSummaries';

export interface CommandDeps {
  context: vscode.ExtensionContext;
  ctl: Controller;
  view: { show(): void };
  traffic: { show(): unknown };
  history: SessionHistory;
  permissions: { manage(): unknown };
  /** Every prompt goes out through it (prompts/promptSender.ts). */
  sender: Pick<PromptSender, 'send'>;
  showLog(): void;
  /** Deletes a session's checkpoints (when it leaves the history). */
  removeCheckpoints?: { removeSession(sessionId: string): Promise<void> };
  /** Ask the Agent to Summarize (changes/sessionSummaries.ts). */
  summaries?: Pick<SessionSummaries, 'ask'>;
  /** tandem.worktree.agents: their new sessions open in a worktree of their own. */
  worktrees?: Pick<WorktreesFeature, 'isDefaultFor' | 'newSession' | 'beforeDelete'>;
}

export function createCommands(d: CommandDeps) {
  const { ctl, view } = d;
  return {
    'tandem.newSession': async () => {
      view.show();
      const agentName = ctl.agent.name;
      if (d.worktrees?.isDefaultFor(agentName)) await d.worktrees.newSession({ agentName });
      else await ctl.newSession();
    },
    'tandem.forkSession': () => forkSession(ctl, view),
    'tandem.cancelTurn': () => ctl.current?.cancel(),
    'tandem.restartAgent': async () => {
      view.show();
      await ctl.restart();
    },
    'tandem.showLog': () => d.showLog(),
    'tandem.showTraffic': () => d.traffic.show(),
    'tandem.managePermissions': () => d.permissions.manage(),
    'tandem.selectAgent': async () => {
      const name = await pickAgent(d.context.extensionUri, ctl.agent.name);
      if (name) {
        view.show();
        await ctl.start(name);
      }
    },
    'tandem.signIn': (methodId?: unknown) =>
      signIn(ctl, d.context.secrets, typeof methodId === 'string' ? methodId : undefined),
    'tandem.openSession': () => openPastSession(ctl, d.history),
    'tandem.summarizeChanges': () => d.summaries?.ask(),
    // From the Sessions view: any agent's past sessions (its session/list and Tandem's history).
    'tandem.openAgentSession': async (agentName?: unknown) => {
      const name = typeof agentName === 'string' ? agentName : await pickAgent(d.context.extensionUri, ctl.agent.name);
      if (!name) return;
      await ctl.start(name);
      if (ctl.agent.name === name) await openPastSession(ctl, d.history);
    },
    // (sessionId) from another extension or a test: deletes without asking.
    'tandem.deleteSession': (sessionId?: unknown) =>
      deletePastSession(
        d.history,
        (id) => d.removeCheckpoints?.removeSession(id) ?? Promise.resolve(),
        typeof sessionId === 'string' ? sessionId : undefined,
        d.worktrees?.beforeDelete,
      ),
    'tandem.exportSession': async (target?: vscode.Uri) => {
      const uri = await exportSession(ctl, target);
      if (uri && !target) await vscode.window.showTextDocument(uri, { preview: true });
      return uri;
    },
    'tandem.switchMode': () => switchMode(ctl),
    'tandem.sendSelection': async (preset?: string) => {
      const sel = currentSelection();
      if (!sel) {
        void vscode.window.showInformationMessage('Tandem: select some text in an editor first.');
        return;
      }
      const question =
        typeof preset === 'string'
          ? preset
          : await vscode.window.showInputBox({
              title: 'Tandem: Send Selection to Agent',
              prompt: 'What should the agent do with it? (optional)',
            });
      if (question === undefined) return;
      view.show();
      await d.sender.send(question || 'Look at this selection.', [sel.attachment]);
    },
    // (uri, question) may come from a menu, a keybinding's args or another extension.
    'tandem.askAboutFile': async (uri?: vscode.Uri, preset?: string) => {
      const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
      if (!target || target.scheme !== 'file') {
        void vscode.window.showInformationMessage('Tandem: open a file first.');
        return;
      }
      const question =
        typeof preset === 'string' && preset.trim()
          ? preset
          : await vscode.window.showInputBox({
              title: `Tandem: Ask About ${vscode.workspace.asRelativePath(target)}`,
              prompt: 'Your question',
            });
      if (!question) return;
      view.show();
      await d.sender.send(question, [{ kind: 'file', path: target.fsPath }]);
    },
    'tandem.replayRecording': async (file?: vscode.Uri) => {
      const uri = file instanceof vscode.Uri ? file : await pickRecording(d.context.globalStorageUri);
      if (!uri) return;
      view.show();
      await ctl.start(
        undefined,
        replayAgent(
          process.execPath,
          vscode.Uri.joinPath(d.context.extensionUri, 'dist', 'replay-agent.js').fsPath,
          uri.fsPath,
        ),
      );
    },
    'tandem.forgetAgentSecrets': async () => {
      const agent = readSettings(d.context.extensionUri).agents.find((a) => a.name === ctl.agent.name);
      const n = agent ? await forgetSecrets(agent, d.context.secrets) : 0;
      void vscode.window.showInformationMessage(
        n
          ? `Tandem: forgot ${n} secret${n === 1 ? '' : 's'} of ${agent!.name}.`
          : 'Tandem: no stored secrets for this agent.',
      );
    },
  } satisfies Record<string, (...args: never[]) => unknown>;
}

export type TandemCommands = ReturnType<typeof createCommands>;

/** Registers every palette command for the extension's lifetime; returns them for the view's intents. */
export function registerCommands(ctx: Ctx, d: Omit<CommandDeps, 'context' | 'showLog'>): TandemCommands {
  const commands = createCommands({ ...d, context: ctx.extension, showLog: () => ctx.log.show(true) });
  for (const [id, run] of Object.entries(commands)) ctx.own(vscode.commands.registerCommand(id, run));
  return commands;
}

/** "Tandem: Switch Mode": the agent's modes, the other ones first so Enter switches. */
async function switchMode(ctl: Controller): Promise<void> {
  const meta = ctl.current?.session?.state.meta;
  if (!meta?.modes.length) {
    void vscode.window.showInformationMessage('Tandem: this agent offers no modes.');
    return;
  }
  const modes = [
    ...meta.modes.filter((m) => m.id !== meta.currentModeId),
    ...meta.modes.filter((m) => m.id === meta.currentModeId),
  ];
  const pick = await vscode.window.showQuickPick(
    modes.map((m) => ({
      label: `${m.id === meta.currentModeId ? '$(check) ' : ''}${m.name}`,
      detail: m.description ?? undefined,
      id: m.id,
    })),
    { title: 'Tandem: Switch Mode' },
  );
  if (pick) await ctl.current?.setMode(pick.id);
}

/** Recordings Tandem made (tandem.recordTraffic), newest first, or any JSONL file. */
async function pickRecording(storage: vscode.Uri): Promise<vscode.Uri | undefined> {
  const dir = vscode.Uri.joinPath(storage, 'recordings');
  let files: [string, vscode.FileType][] = [];
  try {
    files = await vscode.workspace.fs.readDirectory(dir);
  } catch {
    /* none yet */
  }
  const items: (vscode.QuickPickItem & { uri?: vscode.Uri })[] = files
    .filter(([n, t]) => t === vscode.FileType.File && n.endsWith('.jsonl'))
    .sort(([a], [b]) => b.localeCompare(a))
    .map(([n]) => ({ label: n, uri: vscode.Uri.joinPath(dir, n) }));
  items.push({ label: '$(folder-opened) Browse…', description: 'a recording or transcript (.jsonl)' });
  const pick = await vscode.window.showQuickPick(items, {
    title: 'Tandem: Replay Recording',
    placeHolder: files.length ? 'Pick a recording' : 'No recordings yet: turn on tandem.recordTraffic, or browse',
  });
  if (!pick) return undefined;
  if (pick.uri) return pick.uri;
  const chosen = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'ACP recording': ['jsonl'] } });
  return chosen?.[0];
}
