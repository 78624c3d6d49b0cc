// The scripted ACP agent engine: plays an AgentScript (src/demo/scriptTypes.ts) as an ACP agent
// over NDJSON streams. It writes JSON-RPC lines itself (no SDK, none of our client code) so the
// client is tested against an independent implementation. No vscode.
import { readdirSync, readFileSync, statSync, openSync, readSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentScript, HandlerScript, PromptScript, RpcErrorSpec, Step, FloodSpec, GarbageKind } from './scriptTypes';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Id = number | string;
interface RpcMessage { jsonrpc?: string; id?: Id | null; method?: string; params?: unknown; result?: unknown; error?: RpcErrorSpec }
type Answer = { result: unknown } | { error: RpcErrorSpec };

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
}

class Interrupt extends Error { constructor() { super('interrupted'); } }

interface SessionState {
  id: string;
  cwd: string;
  n: number;
  vars: Record<string, unknown>;
  modes?: { currentModeId: string; availableModes: unknown[] };
  configOptions?: Array<Record<string, unknown>>;
  turn?: Turn;
}

interface Turn {
  /** Answers the request being served (prompt or handler) at most once. */
  respond(answer: Answer): void;
  answered: boolean;
  cancelled: boolean;
  ignoreCancel: boolean;
  abort: AbortController;
  vars: Record<string, unknown>;
  session?: SessionState;
  prompt?: PromptScript;
}

const never = new Promise<never>(() => { /* never settles */ });

export class ScriptedAgent {
  private readonly timeScale: number;
  private readonly sessions = new Map<string, SessionState>();
  private readonly globals: Record<string, unknown> = {};
  private readonly pending = new Map<Id, (a: Answer) => void>();
  private readonly answers = new Map<string, Promise<Answer>>();
  private readonly used = new Set<PromptScript>();
  private nextId = 0;
  private sessionCount = 0;
  private turnCount = 0;
  private buffer = '';
  private dead = false;

  constructor(private readonly script: AgentScript, private readonly io: AgentIO, private readonly options: ScriptedAgentOptions = {}) {
    this.timeScale = options.timeScale ?? 1;
  }

  /** Wires the streams and runs the startup steps. */
  start(): this {
    const { input, output } = this.io;
    output.on('error', () => { this.dead = true; this.exit(0); });
    input.setEncoding('utf8');
    input.on('data', (d: string) => this.onData(d));
    input.on('end', () => {
      if (this.buffer.trim()) this.onLine(this.buffer);
      this.buffer = '';
      if (this.options.exitOnInputEnd !== false) this.exit(0);
    });
    if (this.script.startup?.length) {
      const turn = this.makeTurn(() => { /* nothing to answer */ }, this.globals);
      this.runSteps(this.script.startup, turn).catch((e) => this.log(`startup failed: ${String(e)}`));
    }
    return this;
  }

  // ---------------------------------------------------------------- input

  private onData(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      if (line.trim()) this.onLine(line);
    }
  }

  private onLine(line: string): void {
    let msg: RpcMessage;
    try { msg = JSON.parse(line) as RpcMessage; } catch {
      this.send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      return;
    }
    if (!msg || typeof msg !== 'object' || Array.isArray(msg)) {
      this.send({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } });
      return;
    }
    if (msg.method === undefined) {
      if (msg.id === undefined || msg.id === null) return;
      const resolve = this.pending.get(msg.id);
      if (!resolve) { this.log(`answer to unknown request ${String(msg.id)}`); return; }
      this.pending.delete(msg.id);
      resolve(msg.error ? { error: msg.error } : { result: msg.result });
      return;
    }
    if (msg.id === undefined || msg.id === null) { this.onNotification(msg.method, msg.params); return; }
    this.onRequest(msg.id, msg.method, (msg.params ?? {}) as Record<string, unknown>);
  }

  private onNotification(method: string, params: unknown): void {
    if (method === 'session/cancel') {
      const sid = (params as { sessionId?: string } | undefined)?.sessionId;
      const s = sid !== undefined ? this.sessions.get(sid) : undefined;
      if (s?.turn) this.cancelTurn(s.turn);
      return;
    }
    // Unknown notifications ($/cancel_request, …) are ignored.
  }

  private onRequest(id: Id, method: string, params: Record<string, unknown>): void {
    const reply = (a: Answer) => this.send('error' in a ? { jsonrpc: '2.0', id, error: a.error } : { jsonrpc: '2.0', id, result: a.result as Json });
    const custom = this.script.handlers?.[method];
    if (custom) { void this.serveHandler(custom, params, reply, this.sessionOf(params)); return; }
    switch (method) {
      case 'initialize': return void this.serveInitialize(params, reply);
      case 'session/new': return void this.serveNewSession(params, reply, false);
      case 'session/load': return void this.serveNewSession(params, reply, true);
      case 'session/prompt': return void this.servePrompt(params, reply);
      case 'authenticate': return reply({ result: {} });
      case 'session/set_mode': return this.serveSetMode(params, reply);
      case 'session/set_config_option': return this.serveSetConfig(params, reply);
      case 'session/close': this.sessions.delete(String(params.sessionId)); return reply({ result: {} });
      default: return reply({ error: { code: -32601, message: `Method not found: ${method}` } });
    }
  }

  private sessionOf(params: Record<string, unknown>): SessionState | undefined {
    return typeof params.sessionId === 'string' ? this.sessions.get(params.sessionId) : undefined;
  }

  // ---------------------------------------------------------------- built-in handlers

  private async serveHandler(h: HandlerScript, params: Record<string, unknown>, reply: (a: Answer) => void, session?: SessionState, result?: () => unknown): Promise<void> {
    const vars = Object.create(session?.vars ?? this.globals) as Record<string, unknown>;
    vars.params = params;
    const turn = this.makeTurn(reply, vars, session);
    try {
      if (h.steps) await this.runSteps(h.steps, turn);
      if (!turn.answered) turn.respond(h.error ? { error: h.error } : { result: result ? result() : subst(h.result ?? {}, vars) });
      if (h.after) await this.runSteps(h.after, this.makeTurn(() => { /* already answered */ }, vars, session));
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
      return result;
    });
  }

  private serveNewSession(params: Record<string, unknown>, reply: (a: Answer) => void, load: boolean): Promise<void> {
    const s = this.script.newSession ?? {};
    const n = ++this.sessionCount;
    const cwd = typeof params.cwd === 'string' ? params.cwd : process.cwd();
    const vars = Object.create(this.globals) as Record<string, unknown>;
    Object.assign(vars, { n, cwd });
    defineWorkspace(vars, cwd);
    const id = load ? String(params.sessionId) : String(subst(s.sessionId ?? 'sess-${n}', vars));
    vars.sessionId = id;
    const session: SessionState = { id, cwd, n, vars };
    if (s.modes) session.modes = JSON.parse(JSON.stringify(s.modes)) as SessionState['modes'];
    if (s.configOptions) session.configOptions = JSON.parse(JSON.stringify(s.configOptions)) as SessionState['configOptions'];
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
    this.notify(s.id, { sessionUpdate: 'current_mode_update', currentModeId: String(params.modeId) });
  }

  private serveSetConfig(params: Record<string, unknown>, reply: (a: Answer) => void): void {
    const s = this.sessionOf(params);
    if (!s) return reply({ error: { code: -32602, message: 'Unknown session' } });
    const opt = s.configOptions?.find((o) => o.id === params.configId);
    if (!opt) return reply({ error: { code: -32602, message: `Unknown config option ${String(params.configId)}` } });
    opt.currentValue = params.value as Json;
    reply({ result: { configOptions: s.configOptions } });
  }

  // ---------------------------------------------------------------- prompts

  private pickPrompt(text: string): PromptScript | undefined {
    const list = this.script.prompts ?? [];
    const lower = text.toLowerCase();
    for (const p of list) {
      if (this.used.has(p)) continue;
      if ((p.match !== undefined && lower.includes(p.match.toLowerCase())) || (p.regex !== undefined && new RegExp(p.regex, 'i').test(text))) {
        this.used.add(p); return p;
      }
    }
    for (const p of list) {
      if (this.used.has(p) || p.match !== undefined || p.regex !== undefined) continue;
      this.used.add(p); return p;
    }
    return this.script.defaultPrompt;
  }

  private async servePrompt(params: Record<string, unknown>, reply: (a: Answer) => void): Promise<void> {
    const session = this.sessionOf(params);
    if (!session) return reply({ error: { code: -32602, message: `Unknown session ${String(params.sessionId)}` } });
    const text = promptText(params.prompt);
    const ps = this.pickPrompt(text) ?? {};
    const vars = session.vars;
    Object.assign(vars, { turn: ++this.turnCount, prompt: text, promptLine: firstLine(text), params });
    const turn = this.makeTurn(reply, vars, session);
    turn.prompt = ps;
    session.turn = turn;
    try {
      await this.runSteps(ps.steps ?? [], turn);
      turn.respond({ result: { stopReason: ps.stopReason ?? 'end_turn' } });
    } catch (e) {
      if (!(e instanceof Interrupt)) turn.respond({ error: { code: -32603, message: String(e) } });
    } finally {
      if (session.turn === turn && (turn.answered || !turn.cancelled)) session.turn = undefined;
    }
  }

  private cancelTurn(turn: Turn): void {
    if (turn.cancelled || turn.answered || turn.ignoreCancel) return;
    turn.cancelled = true;
    turn.abort.abort();
    const after = turn.prompt?.onCancel;
    void (async () => {
      if (after?.length) {
        const t2 = this.makeTurn(() => { /* the prompt is answered below */ }, turn.vars, turn.session);
        try { await this.runSteps(after, t2); } catch { /* ignore */ }
      }
      turn.respond({ result: { stopReason: 'cancelled' } });
      if (turn.session?.turn === turn) turn.session.turn = undefined;
    })();
  }

  private makeTurn(reply: (a: Answer) => void, vars: Record<string, unknown>, session?: SessionState): Turn {
    const turn: Turn = {
      answered: false, cancelled: false, ignoreCancel: false, abort: new AbortController(), vars, session,
      respond: (a) => { if (turn.answered) return; turn.answered = true; reply(a); },
    };
    return turn;
  }

  // ---------------------------------------------------------------- steps

  private async runSteps(steps: readonly Step[], turn: Turn): Promise<void> {
    for (const step of steps) {
      if (turn.cancelled || turn.answered) throw new Interrupt();
      await this.runStep(step, turn);
    }
    if (turn.cancelled) throw new Interrupt();
  }

  private async runStep(step: Step, turn: Turn): Promise<void> {
    const v = turn.vars;
    const sid = () => String(v.sessionId ?? '');
    if ('update' in step) {
      this.notify(step.sessionId ? String(subst(step.sessionId, v)) : sid(), subst(step.update, v));
    } else if ('notify' in step) {
      this.send({ jsonrpc: '2.0', method: step.notify, params: subst(step.params ?? {}, v) as Json });
    } else if ('request' in step) {
      const answer = this.request(step.request, subst(step.params ?? {}, v), step.timeoutMs);
      if (step.as) {
        const name = step.as;
        this.answers.set(name, answer);
        void answer.then((a) => { v[name] = 'error' in a ? { error: a.error } : a.result; });
      }
      if (step.wait !== false) {
        const a = await this.interruptible(answer, turn);
        if (step.as) v[step.as] = 'error' in a ? { error: a.error } : a.result;
      }
    } else if ('await' in step) {
      const p = this.answers.get(step.await);
      if (p) { const a = await this.interruptible(p, turn); v[step.await] = 'error' in a ? { error: a.error } : a.result; }
    } else if ('branch' in step) {
      const value = lookup(v, step.branch);
      const key = value.found ? String(value.value) : undefined;
      const chosen = key !== undefined && Object.prototype.hasOwnProperty.call(step.cases, key) ? step.cases[key] : step.else;
      if (chosen) await this.runSteps(chosen, turn);
    } else if ('sleep' in step) {
      await this.sleep(step.sleep, turn);
    } else if ('stream' in step) {
      const text = String(subst(step.stream, v));
      const size = Math.max(1, step.chunk ?? 12);
      const kind = step.kind ?? 'agent_message_chunk';
      for (let i = 0; i < text.length; i += size) {
        if (turn.cancelled) throw new Interrupt();
        this.notify(sid(), { sessionUpdate: kind, content: { type: 'text', text: text.slice(i, i + size) } });
        if (step.delayMs) await this.sleep(step.delayMs, turn);
      }
    } else if ('stop' in step) {
      turn.respond({ result: { stopReason: step.stop } });
      throw new Interrupt();
    } else if ('fail' in step) {
      turn.respond({ error: subst(step.fail, v) as RpcErrorSpec });
      throw new Interrupt();
    } else if ('stderr' in step) {
      const t = String(subst(step.stderr, v));
      (this.io.stderr ?? process.stderr).write(t.endsWith('\n') ? t : t + '\n');
    } else if ('crash' in step) {
      const how = typeof step.crash === 'number' ? { code: step.crash } : step.crash;
      this.dead = true;
      (this.io.crash ?? defaultCrash)(how);
      await never;
    } else if ('exit' in step) {
      this.dead = true;
      const code = step.exit;
      this.io.output.write('', () => this.exit(code));
      await never;
    } else if ('hang' in step) {
      if (step.hang === 'ignore-cancel') { turn.ignoreCancel = true; await never; }
      await this.interruptible(never, turn);
    } else if ('garbage' in step) {
      await this.write(garbage(step.garbage, step.bytes, sid()));
    } else if ('raw' in step) {
      await this.write(String(subst(step.raw, v)));
    } else if ('flood' in step) {
      await this.flood(step.flood, sid(), Number(v.turn ?? 0), turn);
    } else {
      throw new Error(`Unknown script step: ${JSON.stringify(step)}`);
    }
  }

  private async flood(spec: FloodSpec, sessionId: string, turnNo: number, turn: Turn): Promise<void> {
    const n = Math.max(0, spec.toolCalls | 0);
    const m = Math.max(0, spec.chunks | 0);
    const lag = Math.max(1, spec.lag ?? 4);
    const kind = spec.kind ?? 'execute';
    const line = (update: unknown) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update } }) + '\n';
    const toolId = (i: number) => `flood-${turnNo}-${i}`;
    let chunkNo = 0;
    let batch = '';
    const push = async (update: unknown) => {
      batch += line(update);
      if (batch.length >= 64 * 1024) { const b = batch; batch = ''; await this.write(b); if (turn.cancelled) throw new Interrupt(); }
    };
    const chunks = async (count: number) => {
      for (let k = 0; k < count; k++) await push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `chunk ${chunkNo++} ` } });
    };
    const complete = (i: number) => push({
      sessionUpdate: 'tool_call_update', toolCallId: toolId(i), status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: `result ${i}` } }], rawOutput: { i },
    });
    if (n === 0) await chunks(m);
    for (let i = 0; i < n; i++) {
      await push({ sessionUpdate: 'tool_call', toolCallId: toolId(i), title: `Flood tool call ${i}`, kind, status: 'in_progress', rawInput: { i } });
      await chunks(Math.floor(((i + 1) * m) / n) - Math.floor((i * m) / n));
      if (i - lag >= 0) await complete(i - lag);
    }
    for (let i = Math.max(0, n - lag); i < n; i++) await complete(i);
    if (batch) await this.write(batch);
  }

  // ---------------------------------------------------------------- output

  private notify(sessionId: string, update: unknown): void {
    this.send({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: update as Json } });
  }

  private request(method: string, params: unknown, timeoutMs?: number): Promise<Answer> {
    const id = this.nextId++;
    return new Promise<Answer>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      this.pending.set(id, (a) => { if (timer) clearTimeout(timer); resolve(a); });
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          this.pending.delete(id);
          resolve({ error: { code: -32603, message: `timeout after ${timeoutMs} ms` } });
        }, timeoutMs * (this.timeScale || 1));
      }
      this.send({ jsonrpc: '2.0', id, method, params: params as Json });
    });
  }

  private send(msg: Record<string, unknown>): void {
    if (this.dead) return;
    this.io.output.write(JSON.stringify(msg) + '\n');
  }

  private write(data: string | Buffer): Promise<void> {
    if (this.dead) return Promise.resolve();
    if (this.io.output.write(data)) return Promise.resolve();
    return new Promise((r) => this.io.output.once('drain', () => r()));
  }

  private log(text: string): void {
    (this.io.stderr ?? process.stderr).write(`[${this.script.name ?? 'scripted-agent'}] ${text}\n`);
  }

  private exit(code: number): void {
    (this.io.exit ?? ((c: number) => process.exit(c)))(code);
  }

  private sleep(ms: number, turn: Turn): Promise<void> {
    const t = ms * this.timeScale;
    if (t <= 0) return turn.cancelled ? Promise.reject(new Interrupt()) : Promise.resolve();
    return this.interruptible(new Promise<void>((r) => setTimeout(r, t)), turn);
  }

  private interruptible<T>(p: Promise<T>, turn: Turn): Promise<T> {
    if (turn.cancelled) return Promise.reject(new Interrupt());
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(new Interrupt());
      turn.abort.signal.addEventListener('abort', onAbort, { once: true });
      p.then((x) => { turn.abort.signal.removeEventListener('abort', onAbort); resolve(x); },
        (e: unknown) => { turn.abort.signal.removeEventListener('abort', onAbort); reject(e instanceof Error ? e : new Error(String(e))); });
    });
  }
}

/** Runs a script on the given streams (the CLI passes process.stdin/stdout). */
export function runScriptedAgent(script: AgentScript, io: AgentIO, options?: ScriptedAgentOptions): ScriptedAgent {
  return new ScriptedAgent(script, io, options).start();
}

/** Parses a script file's text: JSON (an AgentScript) or JSONL (see scriptTypes.ts). */
export function parseScript(text: string, fileName = ''): AgentScript {
  const trimmed = text.trim();
  if (!fileName.endsWith('.jsonl')) {
    try { return JSON.parse(trimmed) as AgentScript; } catch (e) { if (fileName.endsWith('.json')) throw e; }
  }
  const lines = trimmed.split(/\r?\n/).filter((l) => l.trim() && !l.trim().startsWith('//'));
  let script: AgentScript = {};
  const steps: Step[] = [];
  lines.forEach((l, i) => {
    const obj = JSON.parse(l) as Record<string, unknown>;
    if (i === 0 && obj.$script) script = obj.$script as AgentScript;
    else steps.push(obj as Step);
  });
  return { ...script, prompts: [...(script.prompts ?? []), { steps }] };
}

// ---------------------------------------------------------------- helpers

function defaultCrash(how: { code?: number; signal?: NodeJS.Signals }): void {
  if (how.signal) process.kill(process.pid, how.signal);
  process.exit(how.code ?? 1);
}

function promptText(prompt: unknown): string {
  if (!Array.isArray(prompt)) return '';
  return prompt.map((b: Record<string, unknown>) => {
    if (b?.type === 'text') return String(b.text ?? '');
    if (b?.type === 'resource_link') return `@${String(b.name ?? b.uri ?? '')}`;
    if (b?.type === 'resource') return `@${String((b.resource as { uri?: string } | undefined)?.uri ?? '')}`;
    return '';
  }).filter(Boolean).join('\n');
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 120 ? line.slice(0, 119) + '…' : line;
}

function lookup(vars: Record<string, unknown>, path: string): { found: boolean; value?: unknown } {
  let cur: unknown = vars;
  for (const key of path.split('.')) {
    if (cur === null || cur === undefined || typeof cur !== 'object' || !(key in (cur as object))) return { found: false };
    cur = (cur as Record<string, unknown>)[key];
  }
  return { found: true, value: cur };
}

const WHOLE = /^\$\{([^}]+)\}$/;
const PART = /\$\{([^}]+)\}/g;

/** Replaces `${path}` in every string of `value` (deep); a whole-string reference keeps its type. */
export function subst(value: unknown, vars: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) { const r = lookup(vars, whole[1]); return r.found ? r.value : value; }
    if (!value.includes('${')) return value;
    return value.replace(PART, (m, path: string) => {
      const r = lookup(vars, path);
      if (!r.found) return m;
      return typeof r.value === 'string' ? r.value : r.value === undefined ? '' : JSON.stringify(r.value);
    });
  }
  if (Array.isArray(value)) return value.map((x) => subst(x, vars));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(value)) out[k] = subst(x, vars);
    return out;
  }
  return value;
}

function garbage(kind: GarbageKind, bytes: number | undefined, sessionId: string): string | Buffer {
  switch (kind) {
    case 'invalid-json': return '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":\n';
    case 'not-jsonrpc': return '{"hello":"world"}\n[1,2,3]\n"just a string"\n';
    case 'binary': return Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28, 0xe2, 0x82, 0x1b, 0x5b, 0x7b]), Buffer.from('\n')]);
    case 'huge-line': {
      const head = JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '' } } } });
      const size = Math.max(0, (bytes ?? 16 * 1024 * 1024) - head.length - 1);
      const cut = head.lastIndexOf('""') + 1;
      return head.slice(0, cut) + 'x'.repeat(size) + head.slice(cut) + '\n';
    }
    default: return '\u0000garbage\n';
  }
}

/** Finds a real text file in `cwd` for the demo's read/edit tool calls (README first). */
export function findWorkspaceFile(cwd: string): { file: string; path: string; exists: boolean; head: string; oldText: string | null } {
  const pick = (): string | undefined => {
    let names: string[];
    try { names = readdirSync(cwd); } catch { return undefined; }
    const prefer = ['README.md', 'readme.md', 'README', 'README.txt', 'package.json'];
    for (const p of prefer) if (names.includes(p) && isTextFile(join(cwd, p))) return p;
    const sorted = names.filter((n) => !n.startsWith('.')).sort();
    for (const n of sorted) if (isTextFile(join(cwd, n))) return n;
    for (const d of sorted) {
      if (d === 'node_modules' || d === 'out' || d === 'dist') continue;
      let sub: string[];
      try { if (!statSync(join(cwd, d)).isDirectory()) continue; sub = readdirSync(join(cwd, d)).filter((n) => !n.startsWith('.')).sort(); } catch { continue; }
      for (const n of sub) if (isTextFile(join(cwd, d, n))) return `${d}/${n}`;
    }
    return undefined;
  };
  const file = pick();
  if (!file) return { file: 'README.md', path: join(cwd, 'README.md'), exists: false, head: '', oldText: null };
  const path = join(cwd, file);
  const text = readHead(path, 4096);
  const lines = text.split('\n');
  // Up to 5 complete lines, exactly as in the file (a trailing partial line only if the file is that short).
  const complete = lines.slice(0, -1).slice(0, 5);
  const head = complete.length ? complete.map((l) => l + '\n').join('') : text;
  return { file, path, exists: true, head, oldText: head };
}

function isTextFile(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    return !readHead(p, 4096).includes('\u0000');
  } catch { return false; }
}

function readHead(p: string, max: number): string {
  const fd = openSync(p, 'r');
  try {
    const buf = Buffer.alloc(max);
    const n = readSync(fd, buf, 0, max, 0);
    return buf.subarray(0, n).toString('utf8');
  } finally { closeSync(fd); }
}

function defineWorkspace(vars: Record<string, unknown>, cwd: string): void {
  let cached: ReturnType<typeof findWorkspaceFile> | undefined;
  Object.defineProperty(vars, 'workspace', { enumerable: true, configurable: true, get: () => (cached ??= findWorkspaceFile(cwd)) });
}
