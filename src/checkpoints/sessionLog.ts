// One session's checkpoint log on disk: JSON lines, appended in order, read back on reopen. An
// append is one write of whole lines, so a crash can at worst cut the last line, which the
// reader skips.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { LogRecord } from './timeline';

export class SessionLog {
  private tail: Promise<void> = Promise.resolve();
  private buffered: LogRecord[] = [];

  constructor(
    readonly file: string,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  static fileFor(dir: string, sessionId: string): string {
    return path.join(dir, `${encodeURIComponent(sessionId)}.jsonl`);
  }

  static sessionOf(fileName: string): string | undefined {
    return fileName.endsWith('.jsonl') ? decodeURIComponent(fileName.slice(0, -'.jsonl'.length)) : undefined;
  }

  async read(): Promise<LogRecord[]> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch {
      return [];
    }
    const out: LogRecord[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        out.push(JSON.parse(line) as LogRecord);
      } catch {
        /* a line cut by a crash: what came before it is intact */
      }
    }
    return out;
  }

  /** Queues records; they reach the disk in call order (flushed() waits for them). */
  append(r: LogRecord): void {
    this.buffered.push(r);
    if (this.buffered.length > 1) return; // a flush is already scheduled
    this.tail = this.tail
      .then(async () => {
        const batch = this.buffered;
        this.buffered = [];
        await fs.mkdir(path.dirname(this.file), { recursive: true });
        await fs.appendFile(this.file, batch.map((x) => JSON.stringify(x) + '\n').join(''));
      })
      .catch(this.onError);
  }

  flushed(): Promise<void> {
    return this.tail;
  }

  async remove(): Promise<void> {
    await this.tail.catch(() => undefined);
    await fs.rm(this.file, { force: true });
  }
}
