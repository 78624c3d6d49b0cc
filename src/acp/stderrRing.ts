// A bounded tail of an agent's stderr: complete lines (each clipped), the newest kept within a
// byte budget, each handed to `onLine` as it completes (the logger).

const MAX_LINE_CHARS = 4096;

export class StderrRing {
  private lines: string[] = [];
  private bytes = 0;
  private partial = '';

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
  ) {}

  push(chunk: string): void {
    const text = this.partial + chunk;
    const parts = text.split(/\r?\n/);
    this.partial = parts.pop() ?? '';
    if (this.partial.length > MAX_LINE_CHARS) {
      // A runaway line without newline: emit what we have so memory stays bounded.
      parts.push(this.partial);
      this.partial = '';
    }
    for (const p of parts) this.add(p);
  }

  flush(): void {
    if (this.partial) {
      this.add(this.partial);
      this.partial = '';
    }
  }

  tail(n: number): string[] {
    const out = n <= 0 ? [] : this.lines.slice(-n);
    if (this.partial && n > 0) {
      out.push(clip(this.partial));
      if (out.length > n) out.shift();
    }
    return out;
  }

  private add(raw: string): void {
    const line = clip(raw);
    this.onLine(line);
    this.lines.push(line);
    this.bytes += line.length + 1;
    while (this.bytes > this.maxBytes && this.lines.length > 1) this.bytes -= this.lines.shift()!.length + 1;
  }
}

export function clip(line: string): string {
  return line.length > MAX_LINE_CHARS ? line.slice(0, MAX_LINE_CHARS) + '…' : line;
}
