// "Open in terminal" (command tandem.openTerminal, argument: a terminalId): a read-only VS Code
// terminal (Pseudoterminal) mirroring a command's output from the session store — what it has
// printed so far, then live output until it ends, read from the store of the session that ran it.
// Works for client terminals and agent-side ones.
import * as vscode from 'vscode';
import { Disposable } from '../../common/disposable';
import type { SessionStore } from '../../session/store';
import type { TerminalView } from '../../shared/sessionModel';

const toCrlf = (s: string) => s.replace(/\r?\n/g, '\r\n');

export class TerminalMirror extends Disposable {
  private readonly open = new Map<string, vscode.Terminal>();

  /** `shownSession`: the session whose terminals the picker lists and ids refer to. */
  constructor(private readonly shownSession: () => SessionStore | undefined) {
    super();
    this._register(
      vscode.commands.registerCommand('tandem.openTerminal', (arg?: string | { terminalId?: string }) =>
        this.show(typeof arg === 'string' ? arg : arg?.terminalId),
      ),
    );
    this._register(
      vscode.window.onDidCloseTerminal((t) => {
        for (const [id, x] of this.open) if (x === t) this.open.delete(id);
      }),
    );
  }

  async show(terminalId?: string): Promise<vscode.Terminal | undefined> {
    const store = this.shownSession();
    if (!terminalId) {
      const all = store ? Object.values(store.snapshot().terminals) : [];
      if (!all.length) {
        void vscode.window.showInformationMessage('Tandem: no agent commands in this session.');
        return undefined;
      }
      const pick = await vscode.window.showQuickPick(
        all
          .slice()
          .reverse()
          .map((t) => ({
            label: t.command ?? t.terminalId,
            description: t.exited ? exitText(t) : 'running',
            id: t.terminalId,
          })),
        { title: 'Tandem: open an agent command in a terminal' },
      );
      if (!pick) return undefined;
      terminalId = pick.id;
    }
    const existing = this.open.get(terminalId);
    if (existing) {
      existing.show(true);
      return existing;
    }
    const view = store?.state.terminals.get(terminalId);
    if (!store || !view) {
      void vscode.window.showWarningMessage(`Tandem: terminal ${terminalId} is not in this session.`);
      return undefined;
    }
    const term = vscode.window.createTerminal({
      name: `Tandem: ${truncate(view.command ?? terminalId, 40)}`,
      pty: this.pty(store, terminalId),
      iconPath: new vscode.ThemeIcon('hubot'),
    });
    this.open.set(terminalId, term);
    term.show(true);
    return term;
  }

  private pty(store: SessionStore, id: string): vscode.Pseudoterminal {
    const write = new vscode.EventEmitter<string>();
    let sub: { dispose(): void } | undefined;
    let ended = false;
    const end = (t: TerminalView) => {
      if (ended) return;
      ended = true;
      write.fire(
        `\r\n\x1b[2m[${t.released && t.exitCode === null && !t.signal ? 'released' : exitText(t)}]\x1b[0m\r\n`,
      );
    };
    return {
      onDidWrite: write.event,
      open: () => {
        const t = store.state.terminals.get(id);
        if (!t) return;
        write.fire(`\x1b[2m$ ${toCrlf(t.command ?? '')}${t.cwd ? `   (in ${t.cwd})` : ''}\x1b[0m\r\n`);
        if (t.truncated) write.fire('\x1b[2m[… earlier output dropped]\x1b[0m\r\n');
        write.fire(toCrlf(t.output));
        if (t.exited) {
          end(t);
          return;
        }
        sub = store.onDidChange(({ patches }) => {
          for (const p of patches) {
            if (p.op === 'terminalOutput' && p.terminalId === id) write.fire(toCrlf(p.data));
            else if (p.op === 'terminal' && p.terminal.terminalId === id && p.terminal.exited) {
              const cur = store.state.terminals.get(id);
              if (cur) end(cur);
              sub?.dispose();
            }
          }
        });
      },
      close: () => {
        sub?.dispose();
        write.dispose();
      },
      handleInput: () => {
        /* read-only mirror */
      },
    };
  }
}

function exitText(t: TerminalView): string {
  if (t.signal) return `killed by ${t.signal}`;
  if (t.exitCode === null || t.exitCode === undefined) return t.released ? 'released' : 'ended';
  return `exit code ${t.exitCode}`;
}

function truncate(s: string, n: number): string {
  return s.length > n ? s.slice(0, n - 1) + '…' : s;
}
