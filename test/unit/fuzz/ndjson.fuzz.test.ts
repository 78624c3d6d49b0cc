// Property: whatever way the agent's byte stream is cut into chunks, the reader yields exactly
// the messages that were written, in order, and never throws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import type { Message } from 'vscode-jsonrpc';
import { NdjsonMessageReader } from '../../../src/acp/ndjson';
import { runs } from './runs';

const text = fc.string({ unit: 'binary', maxLength: 40 }); // includes astral chars (4-byte UTF-8)
const message = fc.record({
  jsonrpc: fc.constant('2.0'),
  method: fc.constantFrom('session/update', 'fs/read_text_file', 'x/ext'),
  params: fc.record({ sessionId: text, text, n: fc.integer(), nested: fc.array(text, { maxLength: 3 }) }),
});

function feed(messages: unknown[], cuts: number[], crlf: boolean, blankLines: boolean) {
  const sep = crlf ? '\r\n' : '\n';
  const bytes = Buffer.from(messages.map((m) => JSON.stringify(m) + sep + (blankLines ? sep : '')).join(''), 'utf8');
  const reader = new NdjsonMessageReader(new PassThrough());
  const got: Message[] = [];
  const errors: Error[] = [];
  reader.onError((e) => {
    errors.push(e instanceof Error ? e : new Error(String(e)));
  });
  reader.listen((m) => got.push(m));
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let last = 0;
  for (const p of [...points, bytes.length]) {
    reader.push(bytes.subarray(last, p));
    last = p;
  }
  return { got, errors };
}

test('NDJSON framing: arbitrary chunk splits deliver every message intact', () => {
  fc.assert(
    fc.property(
      fc.array(message, { minLength: 1, maxLength: 8 }),
      fc.array(fc.nat(), { maxLength: 30 }),
      fc.boolean(),
      fc.boolean(),
      (messages, cuts, crlf, blank) => {
        const { got, errors } = feed(messages, cuts, crlf, blank);
        assert.deepEqual(errors, []);
        assert.deepEqual(got, JSON.parse(JSON.stringify(messages)));
      },
    ),
    { numRuns: runs(20_000) },
  );
});

test('NDJSON framing: garbage lines are reported and skipped, good lines still arrive', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(
          message,
          fc.string({ maxLength: 30 }).filter((s) => !s.includes('\n')),
        ),
        { minLength: 1, maxLength: 8 },
      ),
      fc.array(fc.nat(), { maxLength: 20 }),
      (mixed, cuts) => {
        const bytes = Buffer.from(
          mixed.map((m) => (typeof m === 'string' ? m : JSON.stringify(m)) + '\n').join(''),
          'utf8',
        );
        const reader = new NdjsonMessageReader(new PassThrough());
        const got: Message[] = [];
        reader.onError(() => undefined);
        reader.listen((m) => got.push(m));
        const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        let last = 0;
        for (const p of [...points, bytes.length]) {
          reader.push(bytes.subarray(last, p));
          last = p;
        }
        const expected = mixed
          .filter((m) => typeof m !== 'string' || isJsonObject(m))
          .map((m) => JSON.parse(typeof m === 'string' ? m : JSON.stringify(m)));
        assert.deepEqual(got, expected);
      },
    ),
    { numRuns: runs(15_000) },
  );
});

/** What the reader passes on: objects, and arrays (batches, which validation answers with -32600). */
function isJsonObject(s: string): boolean {
  if (!s.trim()) return false;
  try {
    const v = JSON.parse(s);
    return typeof v === 'object' && v !== null;
  } catch {
    return false;
  }
}
