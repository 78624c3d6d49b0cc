// terminal/create, output, wait_for_exit, kill, release: commands run in their own process
// group; the tail of the output is kept (outputByteLimit, UTF-8 boundary) for the agent and
// streamed live, coalesced, into the session store (the tool-call view renders it). No vscode.
import * as nodePath from 'node:path';
import type {
  ClientCapabilities,
  CreateTerminalRequest,
  CreateTerminalResponse,
  KillTerminalRequest,
  KillTerminalResponse,
  ReleaseTerminalRequest,
  ReleaseTerminalResponse,
  TerminalExitStatus,
  TerminalOutputRequest,
  TerminalOutputResponse,
  WaitForTerminalExitRequest,
  WaitForTerminalExitResponse,
} from '@agentclientprotocol/sdk';
import { AcpError } from '../../acp/errors';
import { formatCommandLine } from '../../acp/agentProcess';
import { CLIENT_METHODS } from '../../acp/methods';
import { ErrorCodes } from '../../acp/validation';
import { DisposableStore, type IDisposable } from '../../common/disposable';
import { Emitter } from '../../common/event';
import { redact } from '../../common/redact';
import type { SessionStore } from '../../session/store';
import type { ClientFeature, FeatureContext } from '../connection/feature';
import { LIVE_FLUSH_MS, LiveOutput } from './liveOutput';
import { createNodeProcessPort } from './nodeProcesses';
import { OutputBuffer } from './outputBuffer';
import { TerminalTextFilter } from './terminalText';
import type { ProcessPort, SpawnedProcess } from '../ports';

import { DEFAULT_OUTPUT_BYTE_LIMIT, type TerminalManagerOptions, type TerminalsOptions } from './terminalOptions';

export { DEFAULT_OUTPUT_BYTE_LIMIT, type TerminalManagerOptions, type TerminalsOptions } from './terminalOptions';

export class TerminalsFeature implements ClientFeature {
  constructor(private readonly opts: TerminalsOptions = {}) {}

  capabilities(caps: ClientCapabilities): void {
    caps.terminal = true;
    // Agent-side terminals (claude-agent-acp, codex-acp) stream their output in tool-call _meta:
    // Zed's `terminal_output` and JetBrains' `terminal_output_delta` (some agents stream live only
    // with the latter); both are chunks Tandem appends.
    caps._meta = { ...(caps._meta ?? {}), terminal_output: true, terminal_output_delta: true };
  }

  attach(ctx: FeatureContext): IDisposable {
    const manager = new TerminalManager({
      ...this.opts,
      cwd: ctx.cwd,
      placeOf: (id) => ctx.placeOf?.(id),
      agentName: ctx.agentName,
      logger: ctx.logger,
      session: (id) => ctx.session(id),
    });
    const d = new DisposableStore();
    const c = ctx.connection;
    d.add(c.onRequest(CLIENT_METHODS.terminal_create, (p) => manager.create(p)));
    d.add(c.onRequest(CLIENT_METHODS.terminal_output, (p) => manager.output(p)));
    d.add(c.onRequest(CLIENT_METHODS.terminal_wait_for_exit, (p) => manager.waitForExit(p)));
    d.add(c.onRequest(CLIENT_METHODS.terminal_kill, (p) => manager.kill(p)));
    d.add(c.onRequest(CLIENT_METHODS.terminal_release, (p) => manager.release(p)));
    // The agent is gone (crash, exit): nobody can release its commands any more, kill them now.
    d.add(c.onDidClose(() => manager.dispose()));
    d.add(manager);
    return d;
  }
}

interface Term {
  id: string;
  sessionId: string;
  proc: SpawnedProcess;
  /** What the agent reads (terminal/output): the tail within outputByteLimit. */
  buffer: OutputBuffer;
  /** What the view shows, streamed into the session store. */
  live: LiveOutput;
  exit?: TerminalExitStatus;
  exited: Promise<TerminalExitStatus>;
  killing?: Promise<void>;
  subs: IDisposable[];
}

export class TerminalManager implements IDisposable {
  private readonly terms = new Map<string, Term>();
  private seq = 0;
  private readonly processes: ProcessPort;
  private readonly grace: number;
  private readonly flushMs: number;
  private disposed = false;
  private readonly exitEmitter = new Emitter<string>();
  /** A terminal's process ended (its id). */
  readonly onDidExit = this.exitEmitter.event;

  constructor(private readonly opts: TerminalManagerOptions) {
    this.grace = opts.killGraceMs ?? 2000;
    this.processes = opts.processes ?? createNodeProcessPort({ killGraceMs: this.grace });
    this.flushMs = opts.flushMs ?? LIVE_FLUSH_MS;
  }

  get size(): number {
    return this.terms.size;
  }

  async create(p: CreateTerminalRequest): Promise<CreateTerminalResponse> {
    if (this.disposed) throw new AcpError('The client is shutting down', ErrorCodes.InternalError);
    if (typeof p.command !== 'string' || !p.command)
      throw new AcpError('command is required', ErrorCodes.InvalidParams);
    const base = this.opts.placeOf?.(p.sessionId)?.cwd ?? this.opts.cwd;
    const cwd = p.cwd ? nodePath.resolve(base, p.cwd) : base;
    const env: Record<string, string> = {};
    for (const v of p.env ?? []) env[v.name] = v.value;
    const args = p.args && p.args.length ? p.args : undefined;
    const limit = p.outputByteLimit ?? DEFAULT_OUTPUT_BYTE_LIMIT;
    const id = `term-${++this.seq}`;
    let proc: SpawnedProcess;
    try {
      proc = this.processes.spawn({
        command: p.command,
        args,
        cwd,
        env,
        sessionId: p.sessionId,
        agentName: this.opts.agentName,
      });
    } catch (err) {
      throw new AcpError(
        `Could not run ${p.command}: ${err instanceof Error ? err.message : String(err)}`,
        ErrorCodes.InternalError,
      );
    }
    let resolveExit!: (s: TerminalExitStatus) => void;
    const t: Term = {
      id,
      sessionId: p.sessionId,
      proc,
      buffer: new OutputBuffer(limit),
      live: new LiveOutput(this.flushMs, {
        truncated: () =>
          this.dispatch(t, {
            type: 'terminal',
            at: Date.now(),
            terminal: { terminalId: id, exited: false, truncated: true },
          }),
        output: (data) => this.dispatch(t, { type: 'terminalOutput', at: Date.now(), terminalId: id, data }),
      }),
      exited: new Promise((r) => {
        resolveExit = r;
      }),
      subs: [],
    };
    this.terms.set(id, t);
    const display = args ? formatCommandLine(p.command, args) : p.command;
    this.dispatch(t, {
      type: 'terminal',
      at: Date.now(),
      terminal: { terminalId: id, command: display, cwd, exited: false },
    });
    // Hot path (P3 bench): no decoding per chunk; the view gets the decoded tail once per flush.
    // A real terminal's data: the view renders its escape sequences, the agent reads plain text.
    const plain = proc.emitsTerminalData ? new TerminalTextFilter() : undefined;
    t.subs.push(
      proc.onData((chunk) => {
        t.buffer.push(plain ? plain.push(chunk) : chunk);
        t.live.push(chunk);
      }),
    );
    t.subs.push(
      proc.onExit(({ code, signal }) => {
        t.exit = { exitCode: code, signal };
        this.flush(t);
        this.dispatch(t, {
          type: 'terminal',
          at: Date.now(),
          terminal: { terminalId: id, exited: true, exitCode: code, signal },
        });
        resolveExit(t.exit);
        this.exitEmitter.fire(id);
      }),
    );
    // The view shows the command as run; the log, which users paste into bug reports, masks secrets.
    this.opts.logger.info(`[terminal ${id}] ${redact(display)} (cwd ${cwd}, pid ${proc.pid ?? '?'})`);
    return { terminalId: id };
  }

  async output(p: TerminalOutputRequest): Promise<TerminalOutputResponse> {
    const t = this.get(p.terminalId);
    const { output, truncated } = t.buffer.read(!!t.exit);
    return { output, truncated, exitStatus: t.exit ?? null };
  }

  async waitForExit(p: WaitForTerminalExitRequest): Promise<WaitForTerminalExitResponse> {
    const t = this.get(p.terminalId);
    const s = await t.exited;
    return { exitCode: s.exitCode ?? null, signal: s.signal ?? null };
  }

  /** Kills the command (its whole group); the terminal stays valid for output and wait. */
  async kill(p: KillTerminalRequest): Promise<KillTerminalResponse> {
    const t = this.get(p.terminalId);
    await this.killTerm(t);
    return {};
  }

  /** Kills a running command and frees the terminal; its output stays in the session's view. */
  async release(p: ReleaseTerminalRequest): Promise<ReleaseTerminalResponse> {
    const t = this.get(p.terminalId);
    this.terms.delete(t.id);
    if (!t.exit) void this.killTerm(t);
    this.flush(t);
    this.dispatch(t, {
      type: 'terminal',
      at: Date.now(),
      terminal: { terminalId: t.id, exited: true, released: true, ...(t.exit ? {} : { exitCode: null }) },
    });
    void t.exited.then(() => {
      for (const s of t.subs) s.dispose();
    });
    return {};
  }

  private get(id: string): Term {
    const t = this.terms.get(id);
    if (!t) throw new AcpError(`Unknown terminal ${id} (never created, or already released)`, ErrorCodes.InvalidParams);
    return t;
  }

  private killTerm(t: Term): Promise<void> {
    if (!t.killing) t.killing = this.doKill(t);
    return t.killing;
  }

  private async doKill(t: Term): Promise<void> {
    const gone = () => !!t.exit && !t.proc.groupAlive();
    if (gone()) return;
    t.proc.signalGroup('SIGTERM');
    if (await waitUntil(gone, this.grace)) return;
    this.opts.logger.warn(`[terminal ${t.id}] still running ${this.grace} ms after SIGTERM: SIGKILL`);
    t.proc.signalGroup('SIGKILL');
    await waitUntil(gone, Math.max(1000, this.grace));
  }

  private flush(t: Term): void {
    t.live.flush(!!t.exit);
  }

  private dispatch(t: Term, action: Parameters<SessionStore['dispatch']>[0]): void {
    try {
      this.opts.session(t.sessionId)?.dispatch(action);
    } catch (err) {
      this.opts.logger.warn(`[terminal ${t.id}] store update failed: ${err instanceof Error ? err.message : err}`);
    }
  }

  /** The connection ends: kill every command still running. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const t of this.terms.values()) {
      if (!t.exit) void this.killTerm(t);
      void t.exited.then(() => {
        for (const s of t.subs) s.dispose();
      });
    }
    this.terms.clear();
    this.exitEmitter.dispose();
  }
}

function waitUntil(cond: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  return new Promise((resolve) => {
    const tick = () => {
      if (cond()) {
        resolve(true);
        return;
      }
      if (Date.now() >= deadline) {
        resolve(false);
        return;
      }
      setTimeout(tick, 20);
    };
    tick();
  });
}
