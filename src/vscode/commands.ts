// The command palette: every "Tandem: …" command that is not owned by a feature module.
import * as vscode from 'vscode';
import type { Controller } from './controller';
import type { SessionViewProvider } from './sessionView';
import type { Traffic } from './traffic';
import { pickAgent } from './agentPicker';
import { buildPrompt, currentSelection } from './promptContent';
import { forgetSecrets } from './agentSecrets';
import { readSettings } from './settings';
import { replayAgent } from '../client/agentConfig';

export interface CommandDeps {
  context: vscode.ExtensionContext;
  ctl: Controller;
  view: SessionViewProvider;
  traffic: Traffic;
  showLog: () => void;
  managePermissions: () => unknown;
}

export function registerCommands(d: CommandDeps): vscode.Disposable[] {
  const { ctl, view } = d;
  const send = async (text: string, attachments: Parameters<typeof buildPrompt>[1]) => {
    view.show();
    await ctl.ensureStarted();
    const client = ctl.current;
    if (!client?.session || ctl.agent.state !== 'ready') return;
    if (client.session.state.meta.status === 'working') {
      void vscode.window.showInformationMessage(
        'Tandem: the agent is still working on the last prompt. Cancel it or wait.',
      );
      return;
    }
    const caps = client.initializeResult?.agentCapabilities?.promptCapabilities ?? undefined;
    void client.prompt(await buildPrompt(text, attachments, caps));
  };
  return [
    vscode.commands.registerCommand('tandem.newSession', async () => {
      view.show();
      await ctl.newSession();
    }),
    vscode.commands.registerCommand('tandem.cancelTurn', () => ctl.current?.cancel()),
    vscode.commands.registerCommand('tandem.restartAgent', async () => {
      view.show();
      await ctl.restart();
    }),
    vscode.commands.registerCommand('tandem.showLog', d.showLog),
    vscode.commands.registerCommand('tandem.showTraffic', () => d.traffic.show()),
    vscode.commands.registerCommand('tandem.managePermissions', () => d.managePermissions()),
    vscode.commands.registerCommand('tandem.selectAgent', async () => {
      const name = await pickAgent(d.context.extensionUri, ctl.agent.name);
      if (name) {
        view.show();
        await ctl.start(name);
      }
    }),
    vscode.commands.registerCommand('tandem.signIn', (methodId?: unknown) =>
      ctl.signIn(typeof methodId === 'string' ? methodId : undefined),
    ),
    vscode.commands.registerCommand('tandem.openSession', () => ctl.openPastSession()),
    vscode.commands.registerCommand('tandem.exportSession', async (target?: vscode.Uri) => {
      const uri = await ctl.exportSession(target);
      if (uri && !target) await vscode.window.showTextDocument(uri, { preview: true });
      return uri;
    }),
    vscode.commands.registerCommand('tandem.switchMode', async () => {
      const meta = ctl.current?.session?.state.meta;
      if (!meta?.modes.length) {
        void vscode.window.showInformationMessage('Tandem: this agent offers no modes.');
        return;
      }
      // The other modes first, so Enter switches; the current one last, marked.
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
    }),
    vscode.commands.registerCommand('tandem.sendSelection', async (preset?: string) => {
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
      await send(question || 'Look at this selection.', [sel.attachment]);
    }),
    // (uri, question) may come from a menu, a keybinding's args or another extension.
    vscode.commands.registerCommand('tandem.askAboutFile', async (uri?: vscode.Uri, preset?: string) => {
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
      await send(question, [{ kind: 'file', path: target.fsPath }]);
    }),
    vscode.commands.registerCommand('tandem.replayRecording', async (file?: vscode.Uri) => {
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
    }),
    vscode.commands.registerCommand('tandem.forgetAgentSecrets', async () => {
      const agent = readSettings(d.context.extensionUri).agents.find((a) => a.name === ctl.agent.name);
      const n = agent ? await forgetSecrets(agent, d.context.secrets) : 0;
      void vscode.window.showInformationMessage(
        n
          ? `Tandem: forgot ${n} secret${n === 1 ? '' : 's'} of ${agent!.name}.`
          : 'Tandem: no stored secrets for this agent.',
      );
    }),
  ];
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
