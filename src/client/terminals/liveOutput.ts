// A terminal's output on its way to the view: raw chunks held (at most LIVE_MAX_BYTES, whole
// chunks dropped at the front, which marks the view's copy truncated), then decoded and sent
// together at most every flushMs (HEAVY_FLUSH_MS while the output pours), cut at a UTF-8
// character boundary.
import { TERMINAL_VIEW_MAX_CHARS } from '../../shared/sessionModel';
import { completeUtf8Length } from './outputBuffer';

/** Live output reaches the store at most this often (the view renders per frame anyway). */
export const LIVE_FLUSH_MS = 50;
/**
 * A flush this big means a command printing as fast as it can: the next one waits
 * HEAVY_FLUSH_MS. Every flush crosses to the workbench's page, which draws the view too; 20 MB
 * sent in 50 ms flushes kept that page busy 94 % of the time (a trace of the long-output e2e),
 * and nobody reads 50,000 lines a second: four updates a second still show the output moving.
 */
export const HEAVY_FLUSH_BYTES = 64 * 1024;
export const HEAVY_FLUSH_MS = 250;
/** The view keeps TERMINAL_VIEW_MAX_CHARS characters: never hold more bytes than that for it. */
const LIVE_MAX_BYTES = TERMINAL_VIEW_MAX_CHARS;
const EMPTY = Buffer.alloc(0);

export interface LiveOutputSink {
  /** Output was dropped before it reached the view. */
  truncated(): void;
  output(data: string): void;
}

export class LiveOutput {
  /** Raw output not yet sent to the view. */
  private chunks: Buffer[] = [];
  private bytes = 0;
  private dropped = false;
  /** An incomplete UTF-8 character held back from the last flush. */
  private carry: Buffer = EMPTY;
  private timer?: NodeJS.Timeout;
  /** The last flush was heavy: the next one waits longer. */
  private heavy = false;
  /** What was sent last ended a line (after a drop, the view starts on a fresh line). */
  private atLineStart = true;

  constructor(
    private readonly flushMs: number,
    private readonly sink: LiveOutputSink,
  ) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    while (this.chunks.length > 1 && this.bytes - this.chunks[0].length >= LIVE_MAX_BYTES) {
      this.bytes -= this.chunks.shift()!.length;
      this.dropped = true;
    }
    if (!this.timer)
      this.timer = setTimeout(
        () => {
          this.timer = undefined;
          this.flush(false);
        },
        this.heavy ? Math.max(this.flushMs, HEAVY_FLUSH_MS) : this.flushMs,
      );
  }

  /** Sends what is held; `final` (the command ended) sends a held-back partial character too. */
  flush(final: boolean): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.bytes && !(final && this.carry.length)) return;
    let buf = Buffer.concat(this.carry.length ? [this.carry, ...this.chunks] : this.chunks);
    this.chunks = [];
    this.bytes = 0;
    let start = 0;
    let prefix = '';
    if (this.dropped) {
      this.dropped = false;
      this.carry = EMPTY;
      buf = buf.subarray(Math.max(0, buf.length - LIVE_MAX_BYTES));
      // What is kept starts with the first whole line, on a line of its own: no line in the view
      // is half of one printed line and half of another.
      const nl = buf.indexOf(0x0a);
      if (nl >= 0 && nl < buf.length - 1) start = nl + 1;
      else while (start < buf.length && (buf[start] & 0xc0) === 0x80) start++;
      if (!this.atLineStart) prefix = '\n';
      this.sink.truncated();
    }
    const end = final ? buf.length : completeUtf8Length(buf);
    this.carry = end < buf.length ? Buffer.from(buf.subarray(end)) : EMPTY;
    this.heavy = end - start >= HEAVY_FLUSH_BYTES;
    if (end <= start) return;
    this.atLineStart = buf[end - 1] === 0x0a;
    this.sink.output(prefix + buf.toString('utf8', start, end));
  }
}
