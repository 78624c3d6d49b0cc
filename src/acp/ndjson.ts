// NDJSON framing for ACP over stdio: one JSON-RPC message per line, no Content-Length headers
// (vscode-jsonrpc's stock reader/writer speak LSP framing and must not be used).
//
// The reader works on bytes: it looks for '\n' with Buffer#indexOf, keeps at most the current
// partial line (as a list of chunk slices, concatenated once when the line completes — never
// O(n²)), and decodes only complete lines, so a multi-byte UTF-8 character split across chunks
// is never mangled. Bad input is reported through `onError` (vscode-jsonrpc's reader error
// event) and skipped; the stream keeps going.
import { AbstractMessageReader, AbstractMessageWriter, Disposable } from 'vscode-jsonrpc';
import type { DataCallback, Message, MessageReader, MessageWriter } from 'vscode-jsonrpc';

export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;

/** Raised through `onError` for input the reader skipped; the connection survives it. */
export class NdjsonInputError extends Error {
  constructor(
    message: string,
    readonly kind: 'malformed-json' | 'not-an-object' | 'line-too-long' | 'stream-error' | 'callback-failed',
  ) {
    super(message);
    this.name = 'NdjsonInputError';
  }
}

export interface NdjsonReaderOptions {
  /** Longest accepted line in bytes (without the newline). Default 64 MiB. */
  maxLineBytes?: number;
}

function preview(text: string): string {
  return text.length > 120 ? `${JSON.stringify(text.slice(0, 120))}… (${text.length} chars)` : JSON.stringify(text);
}

export class NdjsonMessageReader extends AbstractMessageReader implements MessageReader {
  private callback: DataCallback | undefined;
  private readonly maxLineBytes: number;
  /** Slices of the current incomplete line, in order. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes of an over-long line seen so far; -1 when not discarding. */
  private discarded = -1;
  private lineNo = 0;
  private closed = false;
  private readonly onData = (chunk: Buffer | string) =>
    this.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  private readonly onEnd = () => this.finish();
  private readonly onStreamError = (err: unknown) =>
    this.fireError(
      new NdjsonInputError(
        `Agent output stream error: ${err instanceof Error ? err.message : String(err)}`,
        'stream-error',
      ),
    );

  constructor(
    private readonly input: NodeJS.ReadableStream,
    options: NdjsonReaderOptions = {},
  ) {
    super();
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  /** Bytes of an incomplete line currently held (0 while an over-long line is being discarded). */
  get bufferedBytes(): number {
    return this.pendingBytes;
  }

  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('close', this.onEnd);
    this.input.on('error', this.onStreamError);
    return Disposable.create(() => this.detach());
  }

  override dispose(): void {
    this.detach();
    super.dispose();
  }

  private detach(): void {
    this.callback = undefined;
    this.input.removeListener('data', this.onData);
    this.input.removeListener('end', this.onEnd);
    this.input.removeListener('close', this.onEnd);
    this.input.removeListener('error', this.onStreamError);
  }

  /** Feeds bytes; public so tests and benchmarks can drive the reader without a stream. */
  push(chunk: Buffer): void {
    let start = 0;
    const len = chunk.length;
    while (start < len) {
      const nl = chunk.indexOf(LF, start);
      if (nl === -1) {
        this.keepPartial(chunk, start, len);
        return;
      }
      this.lineNo++;
      if (this.discarded >= 0) {
        this.endDiscard(this.discarded + (nl - start));
      } else if (this.pendingBytes === 0) {
        if (nl - start > this.maxLineBytes) this.reportTooLong(nl - start);
        else this.line(chunk, start, nl);
      } else {
        const total = this.pendingBytes + (nl - start);
        if (total > this.maxLineBytes) {
          this.pending = [];
          this.pendingBytes = 0;
          this.reportTooLong(total);
        } else {
          this.pending.push(chunk.subarray(start, nl));
          const whole = Buffer.concat(this.pending, total);
          this.pending = [];
          this.pendingBytes = 0;
          this.line(whole, 0, total);
        }
      }
      start = nl + 1;
    }
  }

  private keepPartial(chunk: Buffer, start: number, end: number): void {
    const n = end - start;
    if (this.discarded >= 0) {
      this.discarded += n;
      return;
    }
    if (this.pendingBytes + n > this.maxLineBytes) {
      // Over the cap: drop what we hold and discard everything up to the next newline
      // without buffering it; reported once, with its size, when the line ends.
      this.discarded = this.pendingBytes + n;
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    // Copy small tails so a retained slice does not pin a large chunk's memory.
    this.pending.push(
      n < 4096 && chunk.length > 65536 ? Buffer.from(chunk.subarray(start, end)) : chunk.subarray(start, end),
    );
    this.pendingBytes += n;
  }

  private endDiscard(total: number): void {
    this.discarded = -1;
    this.reportTooLong(total);
  }

  private reportTooLong(bytes: number): void {
    this.fireError(
      new NdjsonInputError(
        `Skipped line ${this.lineNo} from the agent: ${bytes} bytes exceeds the limit of ${this.maxLineBytes} bytes (maxLineBytes)`,
        'line-too-long',
      ),
    );
  }

  private line(buf: Buffer, start: number, end: number): void {
    if (end > start && buf[end - 1] === CR) end--;
    if (end === start) return; // blank line
    const text = buf.toString('utf8', start, end);
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch (err) {
      if (text.trim() === '') return; // whitespace-only line
      this.fireError(
        new NdjsonInputError(
          `Skipped line ${this.lineNo} from the agent: not valid JSON (${err instanceof Error ? err.message : String(err)}): ${preview(text)}`,
          'malformed-json',
        ),
      );
      return;
    }
    if (typeof msg !== 'object' || msg === null) {
      this.fireError(
        new NdjsonInputError(
          `Skipped line ${this.lineNo} from the agent: a JSON-RPC message must be an object, got ${preview(text)}`,
          'not-an-object',
        ),
      );
      return;
    }
    // Arrays (JSON-RPC batches) are passed on: the validation layer answers them (ACP has no batches).
    const cb = this.callback;
    if (!cb) return;
    try {
      cb(msg as Message);
    } catch (err) {
      this.fireError(
        new NdjsonInputError(
          `Handling line ${this.lineNo} failed: ${err instanceof Error ? err.message : String(err)}`,
          'callback-failed',
        ),
      );
    }
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.discarded >= 0) this.endDiscard(this.discarded);
    else if (this.pendingBytes > 0) {
      // A final line without a newline: accept it (some writers omit the last '\n').
      const whole = Buffer.concat(this.pending, this.pendingBytes);
      this.pending = [];
      this.pendingBytes = 0;
      this.lineNo++;
      this.line(whole, 0, whole.length);
    }
    this.fireClose();
  }
}

/** Bytes waiting for the agent to read, past which a message is refused rather than buffered. */
export const DEFAULT_MAX_PENDING_BYTES = 64 * 1024 * 1024;

export class NdjsonMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private ended = false;
  private errorCount = 0;

  constructor(
    private readonly output: NodeJS.WritableStream,
    private readonly maxPendingBytes = DEFAULT_MAX_PENDING_BYTES,
  ) {
    super();
    output.on('error', (err: unknown) => this.fireError(err));
    output.on('close', () => this.fireClose());
  }

  write(msg: Message): Promise<void> {
    if (this.ended) return Promise.reject(new Error('NDJSON writer: output already ended'));
    let data: string;
    try {
      data = JSON.stringify(msg) + '\n';
    } catch (err) {
      this.fireError(err, msg, ++this.errorCount);
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    // An agent that stops reading its stdin must not make Tandem buffer without bound: past the
    // cap a message fails (the caller's request errors out) instead of waiting in memory.
    const pending = (this.output as { writableLength?: number }).writableLength ?? 0;
    if (pending + data.length > this.maxPendingBytes) {
      const err = new Error(
        `The agent is not reading its input (${Math.round(pending / 1048576)} MiB waiting); message not sent.`,
      );
      this.fireError(err, msg, ++this.errorCount);
      return Promise.reject(err);
    }
    return new Promise<void>((resolve, reject) => {
      try {
        this.output.write(data, (err?: Error | null) => {
          if (err) {
            this.fireError(err, msg, ++this.errorCount);
            reject(err);
          } else resolve();
        });
      } catch (err) {
        this.fireError(err, msg, ++this.errorCount);
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    try {
      this.output.end();
    } catch {
      /* already closed */
    }
  }
}
