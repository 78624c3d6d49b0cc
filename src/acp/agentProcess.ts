// Spawns an ACP agent as a guarded process tree (processTree.ts: its own process group, killed
// with the extension host) with stdio pipes, keeps a bounded tail of its stderr (also forwarded to
// the logger, secrets masked), reports its exit once with a human message, and kills the whole
// tree (SIGTERM, then SIGKILL after a grace) so no CLI child is left behind.
// No vscode here (docs/ARCHITECTURE.md: src/acp is plain Node).
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { Emitter, type Event } from '../common/event';
import { nullLogger, type Logger } from '../common/logger';
import { redact } from '../common/redact';
import type { AgentExit, AgentProcess, SpawnAgentOptions } from './agentProcessTypes';
import { hostWatchdog } from './hostWatchdog';
import { DEFAULT_KILL_GRACE_MS, spawnTree, type ProcessTree } from './processTree';
import { StderrRing } from './stderrRing';

export type { AgentExit, AgentProcess, SpawnAgentOptions } from './agentProcessTypes';

const DEFAULT_TAIL_BYTES = 64 * 1024;
const TAIL_LINES_IN_MESSAGE = 20;
/** How long the exit event waits for the last stderr bytes before firing. */
const STDERR_SETTLE_MS = 50;

export function spawnAgent(options: SpawnAgentOptions): AgentProcess {
  return new AgentProcessImpl(options);
}

/** Quote one argument for display only (never passed to a shell). */
export function formatCommandLine(command: string, args: readonly string[] = []): string {
  return [command, ...args].map((a) => (a === '' || /[\s"'$`\\]/.test(a) ? JSON.stringify(a) : a)).join(' ');
}

const looksBad = /\b(error|fatal|panic|exception|traceback|uncaught|unhandled|failed)\b/i;

class AgentProcessImpl implements AgentProcess {
  readonly pid: number | undefined;
  readonly stdin: NodeJS.WritableStream;
  readonly stdout: NodeJS.ReadableStream;
  private readonly tree: ProcessTree;
  private readonly child: ChildProcess;
  private readonly name: string;
  private readonly logger: Logger;
  private readonly grace: number;
  private readonly ring: StderrRing;
  private readonly exitEmitter = new Emitter<AgentExit>();
  private exit: AgentExit | undefined;
  private leaderGone = false;
  private exitPending = false;
  private killing: Promise<void> | undefined;

  readonly onDidExit: Event<AgentExit> = (listener) => {
    if (this.exit) {
      const e = this.exit;
      let live = true;
      queueMicrotask(() => {
        if (live) listener(e);
      });
      return {
        dispose: () => {
          live = false;
        },
      };
    }
    return this.exitEmitter.event(listener);
  };

  constructor(private readonly opts: SpawnAgentOptions) {
    this.name = opts.name ?? basename(opts.command);
    this.logger = opts.logger ?? nullLogger;
    this.grace = opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
    this.ring = new StderrRing(opts.stderrTailBytes ?? DEFAULT_TAIL_BYTES, (line) => {
      if (looksBad.test(line)) this.logger.warn(`[${this.name}] ${redact(line)}`);
      else this.logger.info(`[${this.name}] ${redact(line)}`);
    });

    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const [k, v] of Object.entries(opts.env ?? {})) {
      if (v === undefined) delete env[k];
      else env[k] = v;
    }

    this.tree = spawnTree(opts.command, opts.args ?? [], { cwd: opts.cwd, env, graceMs: this.grace });
    this.child = this.tree.child;
    this.pid = this.child.pid;
    this.stdin = this.child.stdin!;
    this.stdout = this.child.stdout!;
    this.logger.info(
      `[${this.name}] started: ${this.shownCommandLine()}${this.pid !== undefined ? ` (pid ${this.pid})` : ''}`,
    );

    // Writing to a dead agent gives EPIPE / ERR_STREAM_DESTROYED: expected, never fatal.
    this.child.stdin!.on('error', (err: NodeJS.ErrnoException) => {
      this.logger.debug(`[${this.name}] stdin: ${err.code ?? err.message}`);
    });
    this.child.stdout!.on('error', (err) => this.logger.debug(`[${this.name}] stdout: ${err.message}`));
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (d: string) => this.ring.push(d));
    this.child.stderr!.on('end', () => this.ring.flush());
    this.child.stderr!.on('error', () => {
      /* ignore */
    });

    this.child.on('error', (err: NodeJS.ErrnoException) => {
      if (this.pid === undefined) {
        // Spawn failure: no process ever ran.
        this.leaderGone = true;
        this.finish({
          code: null,
          signal: null,
          error: `${err.code ?? 'ERROR'}: ${err.message}`,
          message: this.spawnErrorMessage(err),
        });
      } else {
        this.logger.warn(`[${this.name}] process error: ${err.message}`);
      }
    });
    this.child.on('exit', (code, signal) => {
      this.leaderGone = true;
      if (this.exit || this.exitPending) return;
      this.exitPending = true;
      // Give the last stderr bytes a moment to arrive so the message can show them.
      const stderr = this.child.stderr!;
      let fired = false;
      const fire = () => {
        if (fired) return;
        fired = true;
        clearTimeout(timer);
        this.ring.flush();
        this.finish({ code, signal, message: this.exitMessage(code, signal) });
        if (!this.killing) this.reapGroup();
      };
      const timer = setTimeout(fire, STDERR_SETTLE_MS);
      if (stderr.readableEnded) fire();
      else stderr.once('end', fire);
    });
  }

  get watchdogPid(): number | undefined {
    return this.pid === undefined ? undefined : hostWatchdog().pid;
  }

  get exited(): AgentExit | undefined {
    return this.exit;
  }

  stderrTail(lines = TAIL_LINES_IN_MESSAGE): string[] {
    return this.ring.tail(lines);
  }

  kill(): Promise<void> {
    if (!this.killing) this.killing = this.killGroup();
    return this.killing;
  }

  dispose(): void {
    this.kill().catch((err) => this.logger.warn(`[${this.name}] kill failed: ${String(err)}`));
  }

  private finish(exit: AgentExit): void {
    if (this.exit) return;
    this.exit = exit;
    // The message holds the last stderr lines: masked for the log like the lines themselves.
    if (exit.error) this.logger.error(redact(exit.message));
    else if (exit.code === 0 || this.killing) this.logger.info(`[${this.name}] ${redact(firstLine(exit.message))}`);
    else this.logger.warn(redact(exit.message));
    this.exitEmitter.fire(exit);
    this.exitEmitter.dispose();
  }

  /** The command line for the log and messages: secrets on it masked. */
  private shownCommandLine(): string {
    return redact(formatCommandLine(this.opts.command, this.opts.args));
  }

  private spawnErrorMessage(err: NodeJS.ErrnoException): string {
    const ran = this.shownCommandLine();
    if (err.code === 'ENOENT') {
      if (this.opts.cwd && !existsSync(this.opts.cwd)) {
        return `Could not start agent "${this.name}": the working directory ${this.opts.cwd} does not exist.\nCommand: ${ran}`;
      }
      return (
        `Could not start agent "${this.name}": command "${this.opts.command}" was not found on PATH.\n` +
        `Command: ${ran}\nInstall the agent, or set the full path to its executable in the agent settings.`
      );
    }
    if (err.code === 'EACCES') {
      return `Could not start agent "${this.name}": "${this.opts.command}" is not executable (permission denied).\nCommand: ${ran}`;
    }
    return `Could not start agent "${this.name}": ${err.message}\nCommand: ${ran}`;
  }

  private exitMessage(code: number | null, signal: NodeJS.Signals | null): string {
    const head = signal
      ? `Agent "${this.name}" was stopped by signal ${signal}.`
      : `Agent "${this.name}" exited with code ${code}.`;
    const tail = this.ring.tail(TAIL_LINES_IN_MESSAGE);
    return tail.length ? `${head}\nLast output:\n${tail.join('\n')}` : head;
  }

  private gone(): boolean {
    return this.leaderGone && !this.tree.alive();
  }

  private async killGroup(): Promise<void> {
    if (this.pid === undefined) return; // never started
    if (this.gone()) return;
    // Closing stdin first lets a well-behaved agent exit on EOF.
    try {
      this.child.stdin?.end();
    } catch {
      /* ignore */
    }
    await this.tree.kill(() =>
      this.logger.warn(`[${this.name}] did not stop within ${this.grace} ms of SIGTERM; sending SIGKILL`),
    );
    // The leader's 'exit' normally arrives first; make sure listeners are not left waiting.
    if (!this.leaderGone) this.logger.warn(`[${this.name}] process ${this.pid} still present after SIGKILL`);
  }

  /** After an unexpected exit, stop whatever the agent left in its tree. */
  private reapGroup(): void {
    if (this.pid === undefined || !this.tree.alive()) return;
    this.logger.info(`[${this.name}] stopping processes the agent left behind`);
    this.kill().catch(() => {
      /* ignore */
    });
  }
}

function firstLine(s: string): string {
  const i = s.indexOf('\n');
  return i < 0 ? s : s.slice(0, i);
}
