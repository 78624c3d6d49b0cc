// A terminal's output for terminal/output: the tail, at most `limit` bytes, cut on a UTF-8
// character boundary. Memory stays within `limit` plus one chunk: whole chunks are dropped at
// the front as soon as the rest covers the limit; the exact cut happens when read.

export class OutputBuffer {
  private chunks: Buffer[] = [];
  private head = 0;
  private bytes = 0;
  private dropped = false;
  private total = 0;

  constructor(readonly limit: number) {}

  /** Bytes ever received. */
  get totalBytes(): number {
    return this.total;
  }
  /** Bytes currently held (≤ limit + one chunk). */
  get heldBytes(): number {
    return this.bytes;
  }

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.total += chunk.length;
    if (this.limit <= 0) {
      this.dropped = true;
      return;
    }
    if (chunk.length >= this.limit) {
      // This chunk alone covers the limit: keep only its tail (plus up to 3 bytes for the boundary).
      const keep = chunk.subarray(chunk.length - Math.min(chunk.length, this.limit + 3));
      this.chunks = [Buffer.from(keep)];
      this.head = 0;
      this.bytes = keep.length;
      this.dropped = true;
      return;
    }
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    while (this.head < this.chunks.length - 1 && this.bytes - this.chunks[this.head].length >= this.limit + 3) {
      this.bytes -= this.chunks[this.head].length;
      this.chunks[this.head] = EMPTY;
      this.head++;
      this.dropped = true;
    }
    if (this.head > 64 && this.head * 2 > this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
  }

  /**
   * The tail as text. `final`: the process ended, so an incomplete last character is decoded
   * (as U+FFFD) instead of being held back for the next chunk.
   */
  read(final: boolean): { output: string; truncated: boolean } {
    let buf = Buffer.concat(this.head ? this.chunks.slice(this.head) : this.chunks, this.bytes);
    let truncated = this.dropped;
    if (!final) buf = buf.subarray(0, completeUtf8Length(buf));
    if (buf.length > this.limit) {
      let cut = buf.length - this.limit;
      // Never start inside a character: skip continuation bytes (10xxxxxx).
      while (cut < buf.length && (buf[cut] & 0xc0) === 0x80) cut++;
      buf = buf.subarray(cut);
      truncated = true;
    } else if (truncated) {
      // Chunks were dropped: the held front may start mid-character.
      let cut = 0;
      while (cut < buf.length && (buf[cut] & 0xc0) === 0x80) cut++;
      buf = buf.subarray(cut);
    }
    return { output: buf.toString('utf8'), truncated };
  }
}

const EMPTY = Buffer.alloc(0);

/** Length of `buf` without a trailing incomplete UTF-8 sequence. */
export function completeUtf8Length(buf: Uint8Array): number {
  const n = buf.length;
  // Look back at most 3 bytes for the start of the last sequence.
  for (let i = n - 1, seen = 0; i >= 0 && seen < 4; i--, seen++) {
    const b = buf[i];
    if ((b & 0xc0) === 0x80) continue; // continuation
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return n - i >= need ? n : i;
  }
  return n;
}
