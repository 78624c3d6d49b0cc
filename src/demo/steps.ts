// Runs a script's steps (the kinds are documented in scriptTypes.ts) for one turn. Every wait is
// cancellable: a session/cancel interrupts the turn at the step it is in.
import { type McpClients, type McpServerEntry } from './mcpClients';
import type { Answer, Json, RpcChannel } from './rpcChannel';
import type { RpcErrorSpec, Step } from './scriptTypes';
import { holds, lookup, subst } from './substitution';
import { runTerminal } from './terminalStep';
import { Interrupt, interruptible, never, sleep, type Turn } from './turn';

export interface StepHost {
  readonly channel: RpcChannel;
  readonly timeScale: number;
  readonly mcp: McpClients;
  stderr(text: string): void;
  crash(how: { code?: number; signal?: NodeJS.Signals }): void;
  exit(code: number): void;
  /** Step kinds beyond the built-in ones (the test fixture agent's fault injection). */
  readonly extraSteps?: ExtraSteps;
}

/**
 * Runs a step kind the runner does not know; false when it does not know it either. `check`
 * throws when the turn was cancelled (call it between writes of a long step).
 */
export type ExtraSteps = (
  step: Step,
  ctx: { channel: RpcChannel; sessionId: string; turn: number; check: () => void },
) => Promise<boolean>;

const DEFAULT_MCP_TIMEOUT_MS = 30_000;

export class StepRunner {
  /** Answers of `wait: false` requests, for `await`. */
  private readonly answers = new Map<string, Promise<Answer>>();

  constructor(private readonly host: StepHost) {}

  async run(steps: readonly Step[], turn: Turn): Promise<void> {
    for (const step of steps) {
      if (turn.cancelled || turn.answered) throw new Interrupt();
      await this.step(step, turn);
    }
    if (turn.cancelled) throw new Interrupt();
  }

  private notify(sessionId: string, update: unknown): void {
    this.host.channel.notify('session/update', { sessionId, update: update as Json });
  }

  private async step(step: Step, turn: Turn): Promise<void> {
    const v = turn.vars;
    const { channel } = this.host;
    const sid = () => String(v.sessionId ?? '');
    const store = (name: string | undefined, a: Answer) => {
      if (name) v[name] = 'error' in a ? { error: a.error } : a.result;
    };
    if ('update' in step) {
      this.notify(step.sessionId ? String(subst(step.sessionId, v)) : sid(), subst(step.update, v));
    } else if ('notify' in step) {
      channel.notify(step.notify, subst(step.params ?? {}, v));
    } else if ('request' in step) {
      const answer = channel.request(step.request, subst(step.params ?? {}, v), step.timeoutMs);
      if (step.as) {
        this.answers.set(step.as, answer);
        void answer.then((a) => store(step.as, a));
      }
      if (step.wait !== false) store(step.as, await interruptible(answer, turn));
    } else if ('await' in step) {
      const p = this.answers.get(step.await);
      if (p) store(step.await, await interruptible(p, turn));
    } else if ('branch' in step) {
      const value = lookup(v, step.branch);
      const key = value.found ? String(value.value) : undefined;
      const chosen =
        key !== undefined && Object.prototype.hasOwnProperty.call(step.cases, key) ? step.cases[key] : step.else;
      if (chosen) await this.run(chosen, turn);
    } else if ('if' in step) {
      const chosen = holds(v, step.if) ? step.then : step.else;
      if (chosen) await this.run(chosen, turn);
    } else if ('set' in step) {
      for (const [k, x] of Object.entries(step.set)) v[k] = subst(x, v);
    } else if ('sleep' in step) {
      await sleep(step.sleep, this.host.timeScale, turn);
    } else if ('stream' in step) {
      const text = String(subst(step.stream, v));
      const size = Math.max(1, step.chunk ?? 12);
      const kind = step.kind ?? 'agent_message_chunk';
      for (let i = 0; i < text.length; i += size) {
        if (turn.cancelled) throw new Interrupt();
        this.notify(sid(), { sessionUpdate: kind, content: { type: 'text', text: text.slice(i, i + size) } });
        if (step.delayMs) await sleep(step.delayMs, this.host.timeScale, turn);
      }
    } else if ('terminal' in step) {
      const create = subst(step.terminal, v) as Record<string, unknown>;
      const toolCallId = step.toolCallId !== undefined ? String(subst(step.toolCallId, v)) : undefined;
      const run = await runTerminal(
        { request: (m, p) => channel.request(m, p), update: (u) => this.notify(sid(), u) },
        turn,
        sid(),
        create,
        toolCallId,
      );
      if (step.as) v[step.as] = run;
    } else if ('mcpCall' in step) {
      const call = subst(step.mcpCall, v) as { server: string; tool: string; arguments?: Record<string, unknown> };
      const server = this.server(v, call.server);
      const r = server
        ? await interruptible(
            this.host.mcp.callTool(
              `${sid()}\u0000${call.server}`,
              server,
              call.tool,
              call.arguments ?? {},
              turn.abort.signal,
              step.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS,
            ),
            turn,
          )
        : { error: { message: `No MCP server named "${call.server}" in session/new` } };
      if (step.as) v[step.as] = r;
    } else if ('mcpTools' in step) {
      const name = String(subst(step.mcpTools, v));
      const server = this.server(v, name);
      const r = server
        ? await interruptible(
            this.host.mcp.listTools(
              `${sid()}\u0000${name}`,
              server,
              turn.abort.signal,
              step.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS,
            ),
            turn,
          )
        : { error: { message: `No MCP server named "${name}" in session/new` } };
      v[step.as] = r;
    } else if ('stop' in step) {
      turn.respond({ result: { stopReason: step.stop } });
      throw new Interrupt();
    } else if ('fail' in step) {
      turn.respond({ error: subst(step.fail, v) as RpcErrorSpec });
      throw new Interrupt();
    } else if ('stderr' in step) {
      this.host.stderr(String(subst(step.stderr, v)));
    } else if ('crash' in step) {
      this.host.crash(typeof step.crash === 'number' ? { code: step.crash } : step.crash);
      await never;
    } else if ('exit' in step) {
      this.host.exit(step.exit);
      await never;
    } else if ('hang' in step) {
      if (step.hang === 'ignore-cancel') {
        turn.ignoreCancel = true;
        await never;
      }
      await interruptible(never, turn);
    } else if ('raw' in step) {
      await channel.write(String(subst(step.raw, v)));
    } else if (
      !(await this.host.extraSteps?.(step, {
        channel,
        sessionId: sid(),
        turn: Number(v.turn ?? 0),
        check: () => {
          if (turn.cancelled) throw new Interrupt();
        },
      }))
    ) {
      throw new Error(`Unknown script step: ${JSON.stringify(step)}`);
    }
  }

  private server(v: Record<string, unknown>, name: string): McpServerEntry | undefined {
    const r = lookup(v, `mcp.${name}`);
    return r.found ? (r.value as McpServerEntry) : undefined;
  }
}
