// The visible-terminal mode (setting tandem.terminal.visible): the agent's terminal/create commands
// run in a real VS Code terminal through shell integration, so the user sees them and can type
// into them (answer a prompt, press Ctrl+C). Each runs in a child `bash -c` typed into the
// terminal's bash (visibleTerminalLines.ts): no history expansion, and an `exit` ends the command
// with its code while the terminal, its scrollback and its shell stay. The output still streams
// into the tool call and is kept for the agent within outputByteLimit (TerminalManager does both,
// as for the process runner); the exit code comes from onDidEndTerminalShellExecution. Without shell integration
// (it did not activate in time) commands go to the process runner, and Tandem says so once.
//
// Terminals: one per session, reused for its next command; a command that starts while another
// runs gets its own. Release (claude-code-acp releases after every command) leaves the terminal
// open: it is the session's shell, closing it would erase what the user is reading and make it
// flash away on every command; the user closes it like any terminal. Kill: Ctrl+C, then, after the
// grace period, the terminal is closed (TerminalManager's SIGTERM → SIGKILL).
import * as vscode from 'vscode';
import { Disposable } from '../../common/disposable';
import type { Logger } from '../../common/logger';
import { nodeProcessPort, shellFor } from '../../client/terminals/nodeProcesses';
import type { ProcessPort, SpawnedProcess, SpawnOptions } from '../../client/ports';
import { TerminalCommand } from '../../client/terminals/terminalCommand';
import { TerminalPool } from '../../client/terminals/terminalPool';
import { commandLineIn, terminalKey } from './visibleTerminalLines';
import { onDidChange, visibleTerminals } from '../config';

/** How long a new terminal's shell has to activate shell integration. */
const SHELL_INTEGRATION_TIMEOUT_MS = 10_000;
/** After the shell reports the end, how long the output stream may take to drain. */
const DRAIN_MS = 500;

export interface VisibleTerminalsOptions {
  /** Whether the mode is on (default: the setting). */
  enabled?: () => boolean;
  /** The process runner for the fallback (default: real processes). */
  fallback?: ProcessPort;
  shellIntegrationTimeoutMs?: number;
  /** Says (once) that commands run in the background (default: a warning notification). */
  notify?: (message: string) => void;
}

interface Run {
  cmd: TerminalCommand;
  term: vscode.Terminal;
  drained: Promise<void>;
  /** The shell reported its start. */
  started: boolean;
}

export class VisibleTerminals extends Disposable implements ProcessPort {
  private readonly pool = new TerminalPool<vscode.Terminal>();
  private readonly runs = new Map<vscode.TerminalShellExecution, Run>();
  /** Why shell integration is not available (then the process runner runs every command). */
  private unavailable?: string;
  private told = false;
  private readonly enabled: () => boolean;
  private readonly fallback: ProcessPort;
  private readonly timeoutMs: number;
  private readonly notify: (message: string) => void;

  constructor(
    private readonly logger: Logger,
    opts: VisibleTerminalsOptions = {},
  ) {
    super();
    this.enabled = opts.enabled ?? visibleTerminals;
    this.fallback = opts.fallback ?? nodeProcessPort;
    this.timeoutMs = opts.shellIntegrationTimeoutMs ?? SHELL_INTEGRATION_TIMEOUT_MS;
    this.notify = opts.notify ?? warnWithSettingsLink;
    // Turned off and on again: try shell integration again.
    this._register(
      onDidChange(['terminal.visible'], () => {
        this.unavailable = undefined;
      }),
    );
    this._register(vscode.window.onDidCloseTerminal((t) => this.closed(t)));
    this._register(vscode.window.onDidStartTerminalShellExecution((e) => this.startedIn(e.terminal, e.execution)));
    this._register(vscode.window.onDidEndTerminalShellExecution((e) => void this.ended(e)));
  }

  spawn(opts: SpawnOptions): SpawnedProcess {
    if (!this.enabled() || this.unavailable) return this.fallback.spawn(opts);
    const cmd = new TerminalCommand();
    this.start(cmd, opts).catch((err: unknown) => {
      const why = err instanceof Error ? err.message : String(err);
      this.logger.warn(`[terminal] could not run in a visible terminal: ${why}`);
      cmd.delegateTo(this.fallback.spawn(opts));
    });
    return cmd;
  }

  private async start(cmd: TerminalCommand, opts: SpawnOptions): Promise<void> {
    const key = terminalKey(opts);
    const shellPath = process.platform === 'win32' ? undefined : shellFor().file;
    let term = this.pool.acquire(key);
    const reused = !!term;
    if (!term) {
      const n = this.pool.count(key);
      term = vscode.window.createTerminal({
        name: `${opts.agentName ?? 'Agent'} (Tandem)${n ? ` ${n + 1}` : ''}`,
        cwd: opts.cwd,
        env: opts.env && Object.keys(opts.env).length ? { ...opts.env } : undefined,
        // The shell the process runner uses: agents write bash. Windows: the user's default shell.
        shellPath,
        iconPath: new vscode.ThemeIcon('hubot'),
        isTransient: true,
      });
      this.pool.add(key, term);
      term.show(true);
    }
    const shell = await shellIntegrationOf(term, this.timeoutMs);
    if (shell === 'closed') throw new Error('the terminal closed before its shell started');
    if (!shell) {
      this.pool.remove(term);
      term.dispose();
      this.shellIntegrationMissing();
      cmd.delegateTo(this.fallback.spawn(opts));
      return;
    }
    const t = term;
    if (cmd.ended) {
      // Stopped while the terminal opened: never run it.
      this.pool.release(t);
      return;
    }
    let execution: vscode.TerminalShellExecution;
    try {
      execution = shell.executeCommand(commandLineIn(opts, reused, process.platform, shellPath));
    } catch (err) {
      this.pool.release(t);
      throw err;
    }
    cmd.started({ interrupt: () => t.sendText('\x03', false), close: () => t.dispose() });
    this.track(execution, cmd, t, false);
  }

  /** Output from now on goes to the command (read() sees only what comes after its first call). */
  private track(
    execution: vscode.TerminalShellExecution,
    cmd: TerminalCommand,
    term: vscode.Terminal,
    started: boolean,
  ) {
    const drained = (async () => {
      for await (const data of execution.read()) cmd.output(Buffer.from(data, 'utf8'));
    })().catch((err: unknown) => this.logger.warn(`[terminal] reading the output failed: ${String(err)}`));
    this.runs.set(execution, { cmd, term, drained, started });
  }

  private startedIn(term: vscode.Terminal, execution: vscode.TerminalShellExecution): void {
    const run = this.runs.get(execution);
    if (run) {
      run.started = true;
      return;
    }
    // VS Code pairs executeCommand with the shell's report by its command line; reported otherwise,
    // ours starts as a new execution: the one in a terminal where ours has not started yet.
    const pending = [...this.runs].find(([, r]) => r.term === term && !r.started);
    if (pending) {
      this.runs.delete(pending[0]);
      this.track(execution, pending[1].cmd, term, true);
      return;
    }
    this.pool.setUserBusy(term, true);
  }

  private async ended(e: vscode.TerminalShellExecutionEndEvent): Promise<void> {
    const run = this.runs.get(e.execution);
    if (!run) {
      this.pool.setUserBusy(e.terminal, false);
      return;
    }
    this.runs.delete(e.execution);
    await Promise.race([run.drained, new Promise((r) => setTimeout(r, DRAIN_MS))]);
    run.cmd.finished(e.exitCode);
    this.pool.release(run.term);
  }

  private closed(t: vscode.Terminal): void {
    this.pool.remove(t);
    for (const [execution, run] of this.runs)
      if (run.term === t) {
        this.runs.delete(execution);
        run.cmd.terminalClosed();
      }
  }

  private shellIntegrationMissing(): void {
    this.unavailable = 'shell integration did not activate';
    this.logger.warn(
      `[terminal] shell integration did not activate within ${this.timeoutMs} ms: agent commands run in the background`,
    );
    if (this.told) return;
    this.told = true;
    this.notify(FALLBACK_MESSAGE);
  }
}

export const FALLBACK_MESSAGE =
  "Tandem: shell integration did not start in the agent's terminal, so agent commands run in the background (their output is in the tool call). Check terminal.integrated.shellIntegration.enabled.";

function warnWithSettingsLink(message: string): void {
  void vscode.window.showWarningMessage(message, 'Open Settings').then((pick) => {
    if (pick)
      void vscode.commands.executeCommand(
        'workbench.action.openSettings',
        'terminal.integrated.shellIntegration.enabled',
      );
  });
}

/** The terminal's shell integration once active; undefined when it does not activate in time. */
function shellIntegrationOf(
  term: vscode.Terminal,
  timeoutMs: number,
): Promise<vscode.TerminalShellIntegration | undefined | 'closed'> {
  if (term.shellIntegration) return Promise.resolve(term.shellIntegration);
  return new Promise((resolve) => {
    const done = (si: vscode.TerminalShellIntegration | undefined | 'closed') => {
      clearTimeout(timer);
      sub.dispose();
      closeSub.dispose();
      resolve(si);
    };
    const sub = vscode.window.onDidChangeTerminalShellIntegration((e) => {
      if (e.terminal === term) done(e.shellIntegration);
    });
    const closeSub = vscode.window.onDidCloseTerminal((t) => {
      if (t === term) done('closed');
    });
    const timer = setTimeout(() => done(term.shellIntegration), timeoutMs);
  });
}
