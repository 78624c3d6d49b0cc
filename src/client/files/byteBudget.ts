// A bound on bytes held at once by work that runs concurrently: reads of large files for
// fs/read_text_file with line/limit (up to 256 MB each) wait for room instead of all buffering at
// once, so a burst of paged reads holds at most the budget in memory.

export class ByteBudget {
  private used = 0;
  private readonly waiting: Array<{ bytes: number; go: () => void }> = [];

  constructor(readonly capacity: number) {}

  /** Waits until `bytes` fit (a request larger than the capacity waits for an empty budget), then holds them until `release`. */
  async acquire(bytes: number): Promise<() => void> {
    const want = Math.min(Math.max(0, bytes), this.capacity);
    // A waiter's bytes are reserved by wake() before it resumes, so a burst cannot over-admit.
    if (this.waiting.length || this.used + want > this.capacity)
      await new Promise<void>((go) => this.waiting.push({ bytes: want, go }));
    else this.used += want;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= want;
      this.wake();
    };
  }

  /** Bytes held now. */
  get inUse(): number {
    return this.used;
  }

  // First come, first served: a large read is not starved by a stream of small ones.
  private wake(): void {
    while (this.waiting.length && this.used + this.waiting[0].bytes <= this.capacity) {
      const next = this.waiting.shift()!;
      this.used += next.bytes;
      next.go();
    }
  }
}
