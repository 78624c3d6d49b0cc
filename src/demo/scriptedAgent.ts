// The scripted ACP agent: plays an AgentScript (src/demo/scriptTypes.ts) as an ACP agent over
// NDJSON streams. It writes JSON-RPC lines itself (rpcChannel.ts: no SDK, none of our client
// code) so the client is tested against an independent implementation. No vscode.
// This file: the built-in methods (initialize, session/new|load|prompt|cancel, modes, config);
// promptPicker.ts picks the script that answers a prompt, steps.ts runs its steps.
import { McpClients, serversByName } from './mcpClients';
import { RpcChannel, type Answer, type Id } from './rpcChannel';
import { runtimeVars } from './runtime';
import { firstLine, promptText } from './scriptParser';
import { PromptPicker } from './promptPicker';
import type { AgentScript, HandlerScript } from './scriptTypes';
import { StepRunner, type ExtraSteps } from './steps';
import { subst } from './substitution';
import { cancelTurn, Interrupt, makeTurn, type SessionState } from './turn';
import { defineWorkspace } from './workspaceFiles';

export { parseScript } from './scriptParser';
export { subst } from './substitution';
export { findWorkspaceFile } from './workspaceFiles';

export interface AgentIO {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  /** Ends the process with a code (after output was flushed by the caller). Default process.exit. */
  exit?: (code: number) => void;
  /** Dies at once: a code, or a signal sent to itself. Default process.exit / process.kill. */
  crash?: (how: { code?: number; signal?: NodeJS.Signals }) => void;
}

export interface ScriptedAgentOptions {
  /** Multiplies every sleep and stream delay; 0 = no waiting. Default 1. */
  timeScale?: number;
  /** Exit(0) when the input ends (the client closed stdin). Default true. */
  exitOnInputEnd?: boolean;
  /** Step kinds beyond the built-in ones (test/fixtures/agents/faults.ts: garbage, flood). */
  extraSteps?: ExtraSteps;
}

export class ScriptedAgent {
  private readonly timeScale: number;
  private readonly channel: RpcChannel;
  private readonly steps: StepRunner;
  private readonly mcp: McpClients;
  private readonly sessions = new Map<string, SessionState>();
  private readonly globals: Record<string, unknown>;
  private readonly prompts: PromptPicker;
  private sessionCount = 0;
  private turnCount = 0;

  constructor(
    private readonly script: AgentScript,
    private readonly io: AgentIO,
    private readonly options: ScriptedAgentOptions = {},
  ) {
    this.timeScale = options.timeScale ?? 1;
    this.prompts = new PromptPicker(script);
    this.channel = new RpcChannel(io.input, io.output, this.timeScale);
    this.mcp = new McpClients((t) => this.log(t));
    this.globals = { ...(script.vars ?? {}), runtime: runtimeVars(this.timeScale) };
    this.steps = new StepRunner({
      channel: this.channel,
      timeScale: this.timeScale,
      mcp: this.mcp,
      extraSteps: options.extraSteps,
      stderr: (t) => (this.io.stderr ?? process.stderr).write(t.endsWith('\n') ? t : t + '\n'),
      crash: (how) => {
        this.channel.dead = true;
        (this.io.crash ?? defaultCrash)(how);
      },
      exit: (code) => {
        this.channel.dead = true;
        this.channel.flush(() => this.exit(code));
      },
    });
  }

  /** Wires the streams and runs the startup steps. */
  start(): this {
    this.channel.start(
      {
        request: (id, method, params) => this.onRequest(id, method, params),
        notification: (method, params) => this.onNotification(method, params),
        end: () => {
          if (this.options.exitOnInputEnd !== false) this.exit(0);
        },
        log: (t) => this.log(t),
      },
      () => this.exit(0),
    );
    if (this.script.startup?.length) {
      const turn = makeTurn(() => {
        /* nothing to answer */
      }, this.globals);
      this.steps.run(this.script.startup, turn).catch((e) => this.log(`startup failed: ${String(e)}`));
    }
    return this;
  }

  // ---------------------------------------------------------------- dispatch

  private onNotification(method: string, params: unknown): void {
    if (method === 'session/cancel') {
      const sid = (params as { sessionId?: string } | undefined)?.sessionId;
      const s = sid !== undefined ? this.sessions.get(sid) : undefined;
      if (s?.turn) cancelTurn(s.turn, this.steps, (t) => this.log(t));
    }
    // Unknown notifications ($/cancel_request, …) are ignored.
  }

  private onRequest(id: Id, method: string, params: Record<string, unknown>): void {
    const reply = (a: Answer) => this.channel.reply(id, a);
    const custom = this.script.handlers?.[method];
    if (custom) {
      void this.serveHandler(custom, params, reply, this.sessionOf(params));
      return;
    }
    switch (method) {
      case 'initialize':
        return void this.serveInitialize(params, reply);
      case 'session/new':
        return void this.serveNewSession(params, reply, false);
      case 'session/load':
        return void this.serveNewSession(params, reply, true);
      case 'session/prompt':
        return void this.servePrompt(params, reply);
      case 'authenticate':
        return reply({ result: {} });
      case 'session/set_mode':
        return this.serveSetMode(params, reply);
      case 'session/set_config_option':
        return this.serveSetConfig(params, reply);
      case 'session/close': {
        const sid = String(params.sessionId);
        this.sessions.delete(sid);
        void this.mcp.close(`${sid}\u0000`);
        return reply({ result: {} });
      }
      default:
        return reply({ error: { code: -32601, message: `Method not found: ${method}` } });
    }
  }

  private sessionOf(params: Record<string, unknown>): SessionState | undefined {
    return typeof params.sessionId === 'string' ? this.sessions.get(params.sessionId) : undefined;
  }

  // ---------------------------------------------------------------- built-in handlers

  private async serveHandler(
    h: HandlerScript,
    params: Record<string, unknown>,
    reply: (a: Answer) => void,
    session?: SessionState,
    result?: () => unknown,
  ): Promise<void> {
    const vars = Object.create(session?.vars ?? this.globals) as Record<string, unknown>;
    vars.params = params;
    const turn = makeTurn(reply, vars, session);
    try {
      if (h.steps) await this.steps.run(h.steps, turn);
      if (!turn.answered)
        turn.respond(h.error ? { error: h.error } : { result: result ? result() : subst(h.result ?? {}, vars) });
      if (h.after)
        await this.steps.run(
          h.after,
          makeTurn(
            () => {
              /* already answered */
            },
            vars,
            session,
          ),
        );
    } catch (e) {
      if (!(e instanceof Interrupt)) turn.respond({ error: { code: -32603, message: String(e) } });
    }
  }

  private serveInitialize(params: Record<string, unknown>, reply: (a: Answer) => void): Promise<void> {
    const s = this.script.initialize ?? {};
    this.globals.client = params;
    return this.serveHandler(s, params, reply, undefined, () => {
      const result: Record<string, unknown> = {
        protocolVersion: s.protocolVersion ?? 1,
        agentCapabilities: s.agentCapabilities ?? {},
        authMethods: s.authMethods ?? [],
      };
      if (s.agentInfo) result.agentInfo = s.agentInfo;
      if (s._meta) result._meta = s._meta;
      return result;
    });
  }

  private serveNewSession(params: Record<string, unknown>, reply: (a: Answer) => void, load: boolean): Promise<void> {
    const s = this.script.newSession ?? {};
    const n = ++this.sessionCount;
    const cwd = typeof params.cwd === 'string' ? params.cwd : process.cwd();
    const vars = Object.create(this.globals) as Record<string, unknown>;
    Object.assign(vars, { n, cwd, mcp: serversByName(params.mcpServers) });
    defineWorkspace(vars, cwd, this.script.files);
    const id = load ? String(params.sessionId) : String(subst(s.sessionId ?? 'sess-${n}', vars));
    vars.sessionId = id;
    const session: SessionState = { id, cwd, n, vars };
    if (s.modes) session.modes = JSON.parse(JSON.stringify(s.modes)) as SessionState['modes'];
    if (s.configOptions)
      session.configOptions = JSON.parse(JSON.stringify(s.configOptions)) as SessionState['configOptions'];
    if (!s.error) this.sessions.set(id, session);
    return this.serveHandler(s, params, reply, session, () => {
      const result: Record<string, unknown> = load ? {} : { sessionId: id };
      if (session.modes) result.modes = session.modes;
      if (session.configOptions) result.configOptions = session.configOptions;
      if (s.models !== undefined) result.models = subst(s.models, vars);
      return result;
    });
  }

  private serveSetMode(params: Record<string, unknown>, reply: (a: Answer) => void): void {
    const s = this.sessionOf(params);
    if (!s) return reply({ error: { code: -32602, message: 'Unknown session' } });
    if (s.modes) s.modes.currentModeId = String(params.modeId);
    reply({ result: {} });
    this.channel.notify('session/update', {
      sessionId: s.id,
      update: { sessionUpdate: 'current_mode_update', currentModeId: String(params.modeId) },
    });
  }

  private serveSetConfig(params: Record<string, unknown>, reply: (a: Answer) => void): void {
    const s = this.sessionOf(params);
    if (!s) return reply({ error: { code: -32602, message: 'Unknown session' } });
    const opt = s.configOptions?.find((o) => o.id === params.configId);
    if (!opt) return reply({ error: { code: -32602, message: `Unknown config option ${String(params.configId)}` } });
    opt.currentValue = params.value;
    reply({ result: { configOptions: s.configOptions } });
  }

  // ---------------------------------------------------------------- prompts

  private async servePrompt(params: Record<string, unknown>, reply: (a: Answer) => void): Promise<void> {
    const session = this.sessionOf(params);
    if (!session) return reply({ error: { code: -32602, message: `Unknown session ${String(params.sessionId)}` } });
    const text = promptText(params.prompt);
    const ps = this.prompts.pick(text) ?? {};
    const vars = session.vars;
    Object.assign(vars, { turn: ++this.turnCount, prompt: text, promptLine: firstLine(text), params });
    const turn = makeTurn(reply, vars, session);
    turn.prompt = ps;
    session.turn = turn;
    try {
      await this.steps.run(ps.steps ?? [], turn);
      turn.respond({ result: { stopReason: ps.stopReason ?? 'end_turn' } });
    } catch (e) {
      if (!(e instanceof Interrupt)) turn.respond({ error: { code: -32603, message: String(e) } });
    } finally {
      if (session.turn === turn && (turn.answered || !turn.cancelled)) session.turn = undefined;
    }
  }

  // ---------------------------------------------------------------- output

  private log(text: string): void {
    (this.io.stderr ?? process.stderr).write(`[${this.script.name ?? 'scripted-agent'}] ${text}\n`);
  }

  private exit(code: number): void {
    void this.mcp.close();
    (this.io.exit ?? ((c: number) => process.exit(c)))(code);
  }
}

/** Runs a script on the given streams (the CLI passes process.stdin/stdout). */
export function runScriptedAgent(script: AgentScript, io: AgentIO, options?: ScriptedAgentOptions): ScriptedAgent {
  return new ScriptedAgent(script, io, options).start();
}

function defaultCrash(how: { code?: number; signal?: NodeJS.Signals }): void {
  if (how.signal) process.kill(process.pid, how.signal);
  process.exit(how.code ?? 1);
}
