// Transport bad-input set: every case asserts the logged error (or its absence), that nothing
// threw, and that the connection still round-trips a valid request afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import type { Message } from 'vscode-jsonrpc';
import { NdjsonMessageReader, NdjsonMessageWriter, DEFAULT_MAX_LINE_BYTES } from '../../../src/acp/ndjson';
import { CLIENT_METHODS } from '../../../src/acp/methods';
import { chunkUpdate, createHarness, settle, Json } from './helpers';

function collectingReader(maxLineBytes?: number) {
  const input = new PassThrough();
  const reader = new NdjsonMessageReader(input, { maxLineBytes });
  const messages: unknown[] = [];
  const errors: string[] = [];
  reader.onError((e) => errors.push(e.message));
  reader.listen((m) => messages.push(m));
  return { input, reader, messages, errors };
}

function texts(received: Json[]): string[] {
  return received.map((p) => ((p.update as Json).content as Json).text as string);
}

test('partial lines: a message split over several chunks is delivered once, whole', async () => {
  const h = createHarness();
  const got: Json[] = [];
  h.conn.onNotification(CLIENT_METHODS.session_update, (p) => got.push(p as unknown as Json));
  h.conn.listen();
  const line = JSON.stringify(chunkUpdate('split me')) + '\n';
  for (const part of [
    line.slice(0, 5),
    line.slice(5, 40),
    line.slice(40, line.length - 1),
    line.slice(line.length - 1),
  ]) {
    h.sendRaw(part);
    await settle(1);
  }
  await settle();
  assert.deepEqual(texts(got), ['split me']);
  assert.deepEqual(h.errors(), []);
  await h.assertAlive();
});

test('many messages per chunk are delivered in order', async () => {
  const h = createHarness();
  const got: Json[] = [];
  h.conn.onNotification(CLIENT_METHODS.session_update, (p) => got.push(p as unknown as Json));
  h.conn.listen();
  const want = Array.from({ length: 200 }, (_, i) => `m${i}`);
  // plus a tail that completes in the next chunk
  const all =
    want.map((t) => JSON.stringify(chunkUpdate(t))).join('\n') +
    '\n' +
    JSON.stringify(chunkUpdate('tail')).slice(0, 10);
  h.sendRaw(all);
  h.sendRaw(JSON.stringify(chunkUpdate('tail')).slice(10) + '\n');
  await settle();
  assert.deepEqual(texts(got), [...want, 'tail']);
  assert.deepEqual(h.errors(), []);
  await h.assertAlive();
});

test('a multi-byte UTF-8 character split across chunks, at every byte position', async () => {
  const text = 'héllo 🎉 日本語 ✓ ﬀ';
  const bytes = Buffer.from(JSON.stringify(chunkUpdate(text)) + '\n', 'utf8');
  for (let cut = 1; cut < bytes.length; cut++) {
    const r = collectingReader();
    r.reader.push(bytes.subarray(0, cut));
    r.reader.push(bytes.subarray(cut));
    assert.equal(r.messages.length, 1, `cut at ${cut}`);
    assert.equal(
      ((r.messages[0] as { params: Json }).params.update as { content: { text: string } }).content.text,
      text,
      `cut at ${cut}`,
    );
    assert.deepEqual(r.errors, []);
  }
  // three-way splits inside the 4-byte emoji, through the real connection
  const h = createHarness();
  const got: Json[] = [];
  h.conn.onNotification(CLIENT_METHODS.session_update, (p) => got.push(p as unknown as Json));
  h.conn.listen();
  const emojiAt = bytes.indexOf(Buffer.from('🎉'));
  h.sendRaw(bytes.subarray(0, emojiAt + 1));
  h.sendRaw(bytes.subarray(emojiAt + 1, emojiAt + 3));
  h.sendRaw(bytes.subarray(emojiAt + 3));
  await settle();
  assert.deepEqual(texts(got), [text]);
  assert.deepEqual(h.errors(), []);
  await h.assertAlive();
});

test('blank and whitespace-only lines are skipped silently', async () => {
  const h = createHarness();
  const got: Json[] = [];
  h.conn.onNotification(CLIENT_METHODS.session_update, (p) => got.push(p as unknown as Json));
  h.conn.listen();
  h.sendRaw('\n\n   \n\t\n\r\n' + JSON.stringify(chunkUpdate('after blanks')) + '\n\n');
  await settle();
  assert.deepEqual(texts(got), ['after blanks']);
  assert.deepEqual(h.errors(), []);
  await h.assertAlive();
});

test('CRLF line endings are accepted', async () => {
  const h = createHarness();
  const got: Json[] = [];
  h.conn.onNotification(CLIENT_METHODS.session_update, (p) => got.push(p as unknown as Json));
  h.conn.listen();
  h.sendRaw(JSON.stringify(chunkUpdate('one')) + '\r\n' + JSON.stringify(chunkUpdate('two')) + '\r');
  h.sendRaw('\n');
  await settle();
  assert.deepEqual(texts(got), ['one', 'two']);
  assert.deepEqual(h.errors(), []);
  await h.assertAlive();
});

test('a line that is not JSON is reported with a clear message and skipped', async () => {
  const h = createHarness();
  h.conn.listen();
  h.sendRaw('Debugger listening on ws://127.0.0.1:9229\n{"jsonrpc":"2.0","method":\n');
  await settle();
  const errs = h.errors();
  assert.equal(errs.length, 2, JSON.stringify(errs));
  assert.match(errs[0], /line 1 from the agent: not valid JSON .*Debugger listening/);
  assert.match(errs[1], /line 2 from the agent: not valid JSON/);
  await h.assertAlive();
});

test('JSON that is not an object (number, string, null) is reported and skipped', async () => {
  const h = createHarness();
  h.conn.listen();
  h.sendRaw('42\n"hello"\nnull\n');
  await settle();
  const errs = h.errors();
  assert.equal(errs.length, 3);
  for (const e of errs) assert.match(e, /a JSON-RPC message must be an object/);
  await h.assertAlive();
});

test('an over-long line (small cap) is reported once with its size and skipped, in one chunk or many', async () => {
  const h = createHarness({ maxLineBytes: 1000 });
  h.conn.listen();
  const long = JSON.stringify(chunkUpdate('x'.repeat(5000)));
  h.sendRaw(long + '\n'); // whole line in one chunk
  await settle();
  for (let i = 0; i < long.length; i += 300) {
    h.sendRaw(long.slice(i, i + 300));
    await settle(1);
  }
  h.sendRaw('\n');
  await settle();
  const errs = h.errors();
  assert.equal(errs.length, 2, JSON.stringify(errs));
  for (const e of errs) assert.match(e, new RegExp(`${long.length} bytes exceeds the limit of 1000 bytes`));
  // exactly at the cap is fine
  const got: Json[] = [];
  h.conn.onNotification(CLIENT_METHODS.session_update, (p) => got.push(p as unknown as Json));
  const base = JSON.stringify(chunkUpdate(''));
  const exact = JSON.stringify(chunkUpdate('y'.repeat(1000 - base.length)));
  assert.equal(Buffer.byteLength(exact), 1000);
  h.sendRaw(exact + '\n');
  await settle();
  assert.equal(got.length, 1);
  await h.assertAlive();
});

test('the reader holds no bytes of an over-long line once it is over the cap', () => {
  const r = collectingReader(100);
  r.reader.push(Buffer.alloc(80, 0x61));
  assert.equal(r.reader.bufferedBytes, 80);
  r.reader.push(Buffer.alloc(80, 0x61));
  assert.equal(r.reader.bufferedBytes, 0);
  for (let i = 0; i < 100; i++) r.reader.push(Buffer.alloc(1000, 0x61));
  assert.equal(r.reader.bufferedBytes, 0);
  assert.deepEqual(r.errors, []); // reported when the line ends
  r.reader.push(Buffer.from('aa\n{"jsonrpc":"2.0","method":"x"}\n'));
  assert.equal(r.errors.length, 1);
  assert.match(r.errors[0], /100162 bytes exceeds the limit of 100 bytes/);
  assert.equal(r.messages.length, 1);
});

test('a ~65 MiB line with the real default cap: reported once, memory stays bounded, connection survives', async () => {
  const h = createHarness();
  assert.equal(DEFAULT_MAX_LINE_BYTES, 64 * 1024 * 1024);
  h.conn.listen();
  const chunkSize = 1024 * 1024;
  const chunks = 65;
  const before = process.memoryUsage();
  let peakExternal = 0;
  const prefix = '{"jsonrpc":"2.0","method":"session/update","params":{"x":"';
  h.sendRaw(prefix);
  for (let i = 0; i < chunks; i++) {
    h.sendRaw(Buffer.alloc(chunkSize, 0x61)); // fresh memory each time
    await settle(1);
    const m = process.memoryUsage();
    peakExternal = Math.max(peakExternal, m.arrayBuffers - before.arrayBuffers);
  }
  h.sendRaw('"}}\n');
  await settle();
  const errs = h.errors();
  assert.equal(errs.length, 1, JSON.stringify(errs));
  const size = Buffer.byteLength(prefix) + chunks * chunkSize + 3;
  assert.match(errs[0], new RegExp(`${size} bytes exceeds the limit of ${DEFAULT_MAX_LINE_BYTES} bytes`));
  await h.assertAlive();
  // Up to the cap the line must be held (it could still be valid); past it nothing is kept.
  // Without GC control, bound the peak loosely: well under 2x the line (no concatenation copies).
  assert.ok(peakExternal < 140 * 1024 * 1024, `peak arrayBuffers growth ${(peakExternal / 1048576).toFixed(0)} MiB`);
});

test('a final line without a newline is delivered at end of stream; close is reported', async () => {
  const r = collectingReader();
  let closed = false;
  r.reader.onClose(() => {
    closed = true;
  });
  r.input.end('{"jsonrpc":"2.0","method":"a"}\n{"jsonrpc":"2.0","method":"b"}');
  await settle();
  assert.equal(r.messages.length, 2);
  assert.ok(closed);
});

test('writer: one JSON message per line, no Content-Length headers', async () => {
  const out = new PassThrough();
  const w = new NdjsonMessageWriter(out);
  let data = '';
  out.on('data', (c: Buffer) => {
    data += c.toString();
  });
  await w.write({ jsonrpc: '2.0', method: 'x', params: { s: 'ü\n' } } as never);
  await w.write({ jsonrpc: '2.0', id: 0, result: {} } as never);
  assert.equal(data, '{"jsonrpc":"2.0","method":"x","params":{"s":"ü\\n"}}\n{"jsonrpc":"2.0","id":0,"result":{}}\n');
  assert.doesNotMatch(data, /Content-Length/);
  const circular: Record<string, unknown> = {};
  circular.self = circular;
  await assert.rejects(w.write({ jsonrpc: '2.0', method: 'y', params: circular } as never));
  w.end();
  await assert.rejects(w.write({ jsonrpc: '2.0', method: 'z' } as never), /ended/);
});

test('an agent that stops reading its input holds at most the pending cap in memory; later messages fail clearly', async () => {
  // A pipe whose reader never reads: every write stays in the stream's buffer.
  const stuck = new Writable({ highWaterMark: 1024, write: () => undefined });
  const writer = new NdjsonMessageWriter(stuck, 256 * 1024);
  const errors: unknown[] = [];
  writer.onError(([err]) => errors.push(err));
  const big = 'x'.repeat(10 * 1024);
  let refused: Error | undefined;
  for (let i = 0; i < 100 && !refused; i++)
    writer.write({ jsonrpc: '2.0', method: 'session/update', params: { i, big } } as Message).catch(() => undefined);
  try {
    await writer.write({ jsonrpc: '2.0', method: 'session/update', params: { big } } as Message);
  } catch (err) {
    refused = err as Error;
  }
  assert.match(refused?.message ?? '', /not reading its input/);
  assert.ok(stuck.writableLength <= 256 * 1024, `buffered ${stuck.writableLength} bytes`);
  assert.ok(errors.length > 0, 'the refusal is reported');
});
