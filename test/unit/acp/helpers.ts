// Shared harness for the ACP unit tests: an AcpConnection on PassThrough streams, a memory
// logger, and helpers to read what the client wrote.
import { PassThrough } from 'node:stream';
import { MemoryLogger } from '../../../src/common/logger';
import { AcpConnection, AcpConnectionOptions } from '../../../src/acp/connection';
import { CLIENT_METHODS } from '../../../src/acp/methods';
import { until } from '../../support/until';

export type Json = Record<string, unknown>;

export interface Harness {
  conn: AcpConnection;
  logger: MemoryLogger;
  input: PassThrough;
  output: PassThrough;
  /** Every message the client wrote, parsed. */
  written: Json[];
  send(msg: unknown): void;
  sendRaw(data: string | Buffer): void;
  /** Resolves with the first written message matching `pred` (already written or later). */
  nextWritten(pred: (m: Json) => boolean, timeoutMs?: number): Promise<Json>;
  /** Proves the connection still works: a valid fs/read_text_file request from the agent round-trips. */
  assertAlive(): Promise<void>;
  errors(): string[];
}

let aliveSeq = 0;

export function createHarness(opts: Partial<AcpConnectionOptions> = {}): Harness {
  const input = new PassThrough();
  const output = new PassThrough();
  const logger = new MemoryLogger();
  const conn = new AcpConnection({ input, output, logger, ...opts });
  const written: Json[] = [];
  let buf = '';
  output.on('data', (c: Buffer) => {
    buf += c.toString('utf8');
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      const m = JSON.parse(buf.slice(0, i)) as Json;
      buf = buf.slice(i + 1);
      written.push(m);
    }
  });
  let aliveRegistered = false;
  const h: Harness = {
    conn,
    logger,
    input,
    output,
    written,
    send: (msg) => {
      input.write(JSON.stringify(msg) + '\n');
    },
    sendRaw: (data) => {
      input.write(data);
    },
    async nextWritten(pred, timeoutMs = 2000) {
      let found: Json | undefined;
      try {
        await until(() => (found = written.find(pred)) !== undefined, timeoutMs, 'a written message');
      } catch (err) {
        throw new Error(
          `${err instanceof Error ? err.message : err}; written: ${JSON.stringify(written).slice(0, 800)}; log: ${JSON.stringify(logger.records).slice(0, 800)}`,
        );
      }
      return found!;
    },
    async assertAlive() {
      if (!aliveRegistered) {
        aliveRegistered = true;
        conn.onRequest(CLIENT_METHODS.fs_read_text_file, (p) => ({ content: `alive:${p.path}` }));
      }
      const id = `alive-${++aliveSeq}`;
      h.send({ jsonrpc: '2.0', id, method: 'fs/read_text_file', params: { sessionId: 's1', path: `/p/${id}` } });
      const reply = await h.nextWritten((m) => m.id === id);
      if ((reply.result as Json | undefined)?.content !== `alive:/p/${id}`)
        throw new Error(`connection not alive: ${JSON.stringify(reply)}`);
    },
    errors: () => logger.messages('error'),
  };
  return h;
}

export const tick = () => new Promise<void>((r) => setImmediate(r));
export async function settle(n = 3): Promise<void> {
  for (let i = 0; i < n; i++) await tick();
}

export function chunkUpdate(text: string, sessionId = 's1'): Json {
  return {
    jsonrpc: '2.0',
    method: 'session/update',
    params: { sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } },
  };
}
