// Fault-injection steps of the scripted agent: garbage on stdout and tool-call floods.
import type { FloodSpec, GarbageKind } from './scriptTypes';

export function garbage(kind: GarbageKind, bytes: number | undefined, sessionId: string): string | Buffer {
  switch (kind) {
    case 'invalid-json':
      return '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":\n';
    case 'not-jsonrpc':
      return '{"hello":"world"}\n[1,2,3]\n"just a string"\n';
    case 'binary':
      return Buffer.concat([
        Buffer.from([0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28, 0xe2, 0x82, 0x1b, 0x5b, 0x7b]),
        Buffer.from('\n'),
      ]);
    case 'huge-line': {
      const head = JSON.stringify({
        jsonrpc: '2.0',
        method: 'session/update',
        params: { sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '' } } },
      });
      const size = Math.max(0, (bytes ?? 16 * 1024 * 1024) - head.length - 1);
      const cut = head.lastIndexOf('""') + 1;
      return head.slice(0, cut) + 'x'.repeat(size) + head.slice(cut) + '\n';
    }
    default:
      return '\u0000garbage\n';
  }
}

/**
 * N tool calls (in_progress), each completed `lag` calls later, interleaved with M message chunks,
 * written in 64 KiB batches as fast as `write` takes them. `check` runs after every batch (throws
 * to stop, e.g. on cancel).
 */
export async function flood(
  spec: FloodSpec,
  sessionId: string,
  turnNo: number,
  write: (data: string) => Promise<void>,
  check: () => void,
): Promise<void> {
  const n = Math.max(0, spec.toolCalls | 0);
  const m = Math.max(0, spec.chunks | 0);
  const lag = Math.max(1, spec.lag ?? 4);
  const kind = spec.kind ?? 'execute';
  const line = (update: unknown) =>
    JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update } }) + '\n';
  const toolId = (i: number) => `flood-${turnNo}-${i}`;
  let chunkNo = 0;
  let batch = '';
  const push = async (update: unknown) => {
    batch += line(update);
    if (batch.length >= 64 * 1024) {
      const b = batch;
      batch = '';
      await write(b);
      check();
    }
  };
  const chunks = async (count: number) => {
    for (let k = 0; k < count; k++)
      await push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `chunk ${chunkNo++} ` } });
  };
  const complete = (i: number) =>
    push({
      sessionUpdate: 'tool_call_update',
      toolCallId: toolId(i),
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: `result ${i}` } }],
      rawOutput: { i },
    });
  if (n === 0) await chunks(m);
  for (let i = 0; i < n; i++) {
    await push({
      sessionUpdate: 'tool_call',
      toolCallId: toolId(i),
      title: `Flood tool call ${i}`,
      kind,
      status: 'in_progress',
      rawInput: { i },
    });
    await chunks(Math.floor(((i + 1) * m) / n) - Math.floor((i * m) / n));
    if (i - lag >= 0) await complete(i - lag);
  }
  for (let i = Math.max(0, n - lag); i < n; i++) await complete(i);
  if (batch) await write(batch);
}
