// Transcript replayer: plays a recorded ACP transcript (test/fixtures/acp-transcripts/*.jsonl,
// lines `{"ms","dir":"c->a"|"a->c","msg"}`) back AS THE AGENT over NDJSON streams.
//
// - Each client request is matched to the next recorded `c->a` request with the same method;
//   the recorded `a->c` messages that followed it are then sent in order, up to the next
//   recorded client request. The recorded answer goes out with the client's actual id.
// - Recorded agent→client requests are sent with fresh ids and the replay waits for the
//   client's reply before going on. String ids in the reply that differ from the recording
//   (e.g. `terminalId`) are remembered and substituted in everything sent afterwards.
// - The recorded sessionId, ids and cwd are made to fit the client (transcriptRewriter.ts).
// - `session/cancel` during a prompt answers that prompt `cancelled` and skips the rest of it.
// No vscode, no SDK: plain JSON lines.
import { parseLine, readLines } from './lineReader';
import { isRequest, isResponse, type Id, type RpcMessage, type TranscriptRecord } from './transcript';
import { TranscriptRewriter } from './transcriptRewriter';

export interface ReplayIO {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  exit?: (code: number) => void;
}

export interface ReplayOptions {
  /** Multiplies the recorded gaps between agent messages; 0 (default) sends at once. */
  timeScale?: number;
  /** Caps each (scaled) gap, e.g. a model's long think; default no cap. */
  maxGapMs?: number;
  /** Exit(0) when the input ends. Default true. */
  exitOnInputEnd?: boolean;
}

interface Incoming {
  id: Id;
  method: string;
  params: Record<string, unknown>;
}

export class TranscriptReplayer {
  private pos = 0;
  private nextId = 0;
  private readonly pending = new Map<Id, (m: RpcMessage) => void>();
  private readonly queue: Incoming[] = [];
  private busy = false;
  private readonly rewriter = new TranscriptRewriter();
  /** The prompt being played: its recorded id and a cancel flag. */
  private current: { recordedId: Id; method: string; cancelled: boolean; wake?: () => void } | undefined;
  private lastMs: number | undefined;

  constructor(
    private readonly records: TranscriptRecord[],
    private readonly io: ReplayIO,
    private readonly options: ReplayOptions = {},
  ) {}

  start(): this {
    const { input, output } = this.io;
    output.on('error', () => this.exit(0));
    readLines(
      input,
      (line) => this.onLine(line),
      () => {
        if (this.options.exitOnInputEnd !== false) this.exit(0);
      },
    );
    return this;
  }

  private onLine(line: string): void {
    const msg = parseLine<RpcMessage>(line, (m) => this.send(m));
    if (msg === undefined) return;
    if (isResponse(msg)) {
      const r = this.pending.get(msg.id!);
      if (r) {
        this.pending.delete(msg.id!);
        r(msg);
      } else this.log(`answer to unknown request ${String(msg.id)}`);
      return;
    }
    if (!isRequest(msg)) {
      if (msg.method === 'session/cancel' && this.current && !this.current.cancelled) {
        this.current.cancelled = true;
        this.current.wake?.();
      }
      return;
    }
    this.queue.push({ id: msg.id!, method: msg.method!, params: msg.params ?? {} });
    void this.pump();
  }

  private async pump(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      while (this.queue.length) await this.serve(this.queue.shift()!);
    } finally {
      this.busy = false;
    }
  }

  private async serve(req: Incoming): Promise<void> {
    // Find the next recorded client request with this method.
    let at = -1;
    for (let i = this.pos; i < this.records.length; i++) {
      const r = this.records[i];
      if (r.dir === 'c->a' && isRequest(r.msg) && r.msg.method === req.method) {
        at = i;
        break;
      }
    }
    if (at < 0) {
      this.log(`${req.method} is not in the rest of the transcript`);
      this.send({
        jsonrpc: '2.0',
        id: req.id,
        error: { code: -32603, message: `Replay: ${req.method} was not recorded at this point` },
      });
      return;
    }
    for (let i = this.pos; i < at; i++) {
      const r = this.records[i];
      if (r.dir === 'c->a' && isRequest(r.msg)) this.log(`skipping recorded ${r.msg.method} the client did not send`);
    }
    const recorded = this.records[at].msg;
    this.rewriter.learnRequest(recorded, req);
    this.pos = at + 1;
    this.lastMs = this.records[at].ms;
    const cur = { recordedId: recorded.id!, method: req.method, cancelled: false } as NonNullable<
      TranscriptReplayer['current']
    >;
    this.current = cur;
    let answered = false;
    try {
      while (this.pos < this.records.length) {
        const rec = this.records[this.pos];
        const m = rec.msg;
        if (rec.dir === 'c->a') {
          if (isRequest(m)) break; // the client's next move
          this.pos++; // stray recorded client answers/notifications
          continue;
        }
        if (cur.cancelled) {
          if (isResponse(m) && m.id === cur.recordedId) {
            this.pos++;
            break;
          }
          this.pos++;
          continue;
        }
        await this.pace(rec.ms, cur);
        if (cur.cancelled) continue;
        this.pos++;
        if (isResponse(m)) {
          if (m.id === cur.recordedId) {
            this.send(this.rewriter.rewrite({ ...m, id: req.id }));
            answered = true;
            if (!this.moreFollowsBeforeNextRequest()) break;
          } else {
            this.log(`dropping recorded answer to request ${String(m.id)} (not current)`);
          }
        } else if (isRequest(m)) {
          const recordedAnswer = this.findRecordedAnswer(m.id!);
          const id = this.nextId++;
          const out = this.rewriter.rewrite({ ...m, id });
          const reply = await this.request(id, out, cur);
          if (reply && recordedAnswer) this.rewriter.learnAnswer(recordedAnswer.result, reply.result);
        } else {
          this.send(this.rewriter.rewrite(m));
        }
      }
      if (!answered) {
        if (cur.cancelled) this.send({ jsonrpc: '2.0', id: req.id, result: { stopReason: 'cancelled' } });
        else
          this.send({
            jsonrpc: '2.0',
            id: req.id,
            error: { code: -32603, message: 'Replay: the transcript has no answer to this request' },
          });
      }
    } finally {
      if (this.current === cur) this.current = undefined;
    }
  }

  /** After the answer, recorded agent messages that precede the next client request still belong here. */
  private moreFollowsBeforeNextRequest(): boolean {
    const r = this.records[this.pos];
    return r !== undefined && r.dir === 'a->c';
  }

  private findRecordedAnswer(recordedId: Id): RpcMessage | undefined {
    for (let i = this.pos; i < this.records.length; i++) {
      const r = this.records[i];
      if (r.dir === 'c->a' && isResponse(r.msg) && r.msg.id === recordedId) return r.msg;
    }
    return undefined;
  }

  private request(
    id: Id,
    msg: RpcMessage,
    cur: NonNullable<TranscriptReplayer['current']>,
  ): Promise<RpcMessage | undefined> {
    return new Promise((resolve) => {
      this.pending.set(id, (m) => {
        cur.wake = undefined;
        resolve(m);
      });
      // On cancel stop waiting; a late answer is then logged and dropped.
      cur.wake = () => {
        this.pending.delete(id);
        resolve(undefined);
      };
      this.send(msg);
    });
  }

  private async pace(ms: number, cur: NonNullable<TranscriptReplayer['current']>): Promise<void> {
    const scale = this.options.timeScale ?? 0;
    const gap = this.lastMs === undefined ? 0 : Math.max(0, ms - this.lastMs);
    this.lastMs = ms;
    if (scale <= 0 || gap === 0) return;
    const wait = Math.min(gap * scale, this.options.maxGapMs ?? Infinity);
    await new Promise<void>((r) => {
      const t = setTimeout(() => {
        cur.wake = undefined;
        r();
      }, wait);
      cur.wake = () => {
        clearTimeout(t);
        r();
      };
    });
  }

  private send(msg: RpcMessage): void {
    this.io.output.write(JSON.stringify(msg) + '\n');
  }

  private log(text: string): void {
    (this.io.stderr ?? process.stderr).write(`[replay] ${text}\n`);
  }

  private exit(code: number): void {
    (this.io.exit ?? ((c: number) => process.exit(c)))(code);
  }
}

export function runReplay(records: TranscriptRecord[], io: ReplayIO, options?: ReplayOptions): TranscriptReplayer {
  return new TranscriptReplayer(records, io, options).start();
}
