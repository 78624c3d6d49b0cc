// NDJSON JSON-RPC over a pair of streams, written by hand (no SDK, none of Tandem's client code)
// so the client is tested against an independent implementation: reads lines, hands requests and
// notifications to the owner, matches answers to the requests it sent.
import { parseLine, readLines } from './lineReader';
import type { RpcErrorSpec } from './scriptTypes';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Id = number | string;
export interface RpcMessage {
  jsonrpc?: string;
  id?: Id | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: RpcErrorSpec;
}
export type Answer = { result: unknown } | { error: RpcErrorSpec };

export interface ChannelHandlers {
  request(id: Id, method: string, params: Record<string, unknown>): void;
  notification(method: string, params: unknown): void;
  /** The input ended (the client closed stdin). */
  end(): void;
  log(text: string): void;
}

export class RpcChannel {
  private readonly pending = new Map<Id, (a: Answer) => void>();
  private nextId = 0;
  /** Set when the output broke or the agent is exiting: nothing more is written. */
  dead = false;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    private readonly timeScale: number,
  ) {}

  start(h: ChannelHandlers, onOutputError: () => void): void {
    this.output.on('error', () => {
      this.dead = true;
      onOutputError();
    });
    readLines(
      this.input,
      (line) => this.onLine(line, h),
      () => h.end(),
    );
  }

  private onLine(line: string, h: ChannelHandlers): void {
    const msg = parseLine<RpcMessage>(line, (m) => this.send(m));
    if (msg === undefined) return;
    if (!msg || typeof msg !== 'object' || Array.isArray(msg)) {
      this.send({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } });
      return;
    }
    if (msg.method === undefined) {
      if (msg.id === undefined || msg.id === null) return;
      const resolve = this.pending.get(msg.id);
      if (!resolve) {
        h.log(`answer to unknown request ${String(msg.id)}`);
        return;
      }
      this.pending.delete(msg.id);
      resolve(msg.error ? { error: msg.error } : { result: msg.result });
      return;
    }
    if (msg.id === undefined || msg.id === null) {
      h.notification(msg.method, msg.params);
      return;
    }
    h.request(msg.id, msg.method, (msg.params ?? {}) as Record<string, unknown>);
  }

  reply(id: Id, a: Answer): void {
    this.send('error' in a ? { jsonrpc: '2.0', id, error: a.error } : { jsonrpc: '2.0', id, result: a.result as Json });
  }

  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params: params as Json });
  }

  /** An agent→client request; resolves with the answer (or a timeout error after `timeoutMs`, scaled). */
  request(method: string, params: unknown, timeoutMs?: number): Promise<Answer> {
    const id = this.nextId++;
    return new Promise<Answer>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      this.pending.set(id, (a) => {
        if (timer) clearTimeout(timer);
        resolve(a);
      });
      if (timeoutMs !== undefined) {
        timer = setTimeout(
          () => {
            this.pending.delete(id);
            resolve({ error: { code: -32603, message: `timeout after ${timeoutMs} ms` } });
          },
          timeoutMs * (this.timeScale || 1),
        );
      }
      this.send({ jsonrpc: '2.0', id, method, params: params as Json });
    });
  }

  send(msg: Record<string, unknown>): void {
    if (this.dead) return;
    this.output.write(JSON.stringify(msg) + '\n');
  }

  /** Raw bytes, waiting for 'drain' when the pipe is full. */
  write(data: string | Buffer): Promise<void> {
    if (this.dead) return Promise.resolve();
    if (this.output.write(data)) return Promise.resolve();
    return new Promise((r) => this.output.once('drain', () => r()));
  }

  /** Flushes what was written, then calls `then`. */
  flush(then: () => void): void {
    this.output.write('', then);
  }
}
