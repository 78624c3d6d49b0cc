// A command handed to a real terminal (the visible-terminal mode): a SpawnedProcess for the
// terminals feature whose real run begins later, once the terminal's shell is ready, or is handed
// to the process runner when the terminal cannot run it. The state machine lives here, without
// vscode: starting → running (in a terminal) | delegated (to a process) → ended.
import { toDisposable, type IDisposable } from '../../common/disposable';
import { Emitter } from '../../common/event';
import type { SpawnedProcess } from '../ports';

export interface ProcessExit {
  code: number | null;
  signal: string | null;
}

/** How the terminal that runs the command is told to stop it. */
export interface TerminalControls {
  /** Ctrl+C to the shell's foreground command. */
  interrupt(): void;
  /** Closes the terminal: the shell and everything it runs get SIGHUP. */
  close(): void;
}

type State = 'starting' | 'running' | 'delegated' | 'ended';

export class TerminalCommand implements SpawnedProcess {
  readonly pid = undefined;
  /** Output is a terminal's data (escape sequences, CRLF): the agent reads it as plain text. */
  readonly emitsTerminalData = true;
  private state: State = 'starting';
  private controls?: TerminalControls;
  private delegate?: SpawnedProcess;
  private stopSignal?: 'SIGTERM' | 'SIGKILL';
  private status?: ProcessExit;
  private readonly dataEmitter = new Emitter<Buffer>();
  private readonly exitEmitter = new Emitter<ProcessExit>();

  /** Stopped before it started (kill or release while the terminal was still opening). */
  get cancelled(): boolean {
    return this.state === 'ended' && !this.controls && !this.delegate;
  }

  get ended(): boolean {
    return this.state === 'ended';
  }

  onData(listener: (chunk: Buffer) => void): IDisposable {
    return this.dataEmitter.event(listener);
  }

  onExit(listener: (exit: ProcessExit) => void): IDisposable {
    const done = this.status;
    if (done) {
      queueMicrotask(() => listener(done));
      return toDisposable(() => {});
    }
    return this.exitEmitter.event(listener);
  }

  /** The terminal runs it now. False when it was stopped meanwhile (then do not run it). */
  started(controls: TerminalControls): boolean {
    if (this.state !== 'starting') return false;
    this.state = 'running';
    this.controls = controls;
    return true;
  }

  /** The process runner runs it instead (no terminal could). */
  delegateTo(proc: SpawnedProcess): void {
    if (this.state !== 'starting') {
      // Stopped meanwhile: stop this one too.
      proc.signalGroup('SIGKILL');
      return;
    }
    this.state = 'delegated';
    this.delegate = proc;
    proc.onData((c) => this.dataEmitter.fire(c));
    proc.onExit((e) => this.end(e));
  }

  output(chunk: Buffer): void {
    if (this.state === 'running' && chunk.length) this.dataEmitter.fire(chunk);
  }

  /**
   * The shell reported the command's end. Its exit code is unknown after Ctrl+C (the shell
   * integration reports none then): a stop Tandem asked for shows as that signal.
   */
  finished(exitCode: number | undefined): void {
    if (this.state !== 'running') return;
    if (this.stopSignal) this.end({ code: null, signal: this.stopSignal === 'SIGTERM' ? 'SIGINT' : 'SIGKILL' });
    else this.end({ code: exitCode ?? null, signal: null });
  }

  /** The terminal closed under the command (by the user, or by a forced stop). */
  terminalClosed(): void {
    if (this.state !== 'running') return;
    this.end({ code: null, signal: this.stopSignal === 'SIGKILL' ? 'SIGKILL' : 'SIGHUP' });
  }

  /** SIGTERM: Ctrl+C; SIGKILL: close the terminal. Before the start: never run it. */
  signalGroup(signal: 'SIGTERM' | 'SIGKILL'): boolean {
    switch (this.state) {
      case 'starting':
        this.end({ code: null, signal });
        return true;
      case 'delegated':
        return this.delegate!.signalGroup(signal);
      case 'running':
        this.stopSignal = signal;
        if (signal === 'SIGTERM') this.controls!.interrupt();
        else this.controls!.close();
        return true;
      default:
        return false;
    }
  }

  groupAlive(): boolean {
    if (this.state === 'delegated') return this.delegate!.groupAlive();
    return this.state !== 'ended';
  }

  private end(e: ProcessExit): void {
    if (this.status) return;
    this.status = e;
    this.state = 'ended';
    this.exitEmitter.fire(e);
    this.dataEmitter.dispose();
    this.exitEmitter.dispose();
  }
}
