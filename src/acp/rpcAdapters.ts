// The two ends vscode-jsonrpc's MessageConnection is built on in AcpConnection: a reader the
// connection's router hands messages to (notifications never reach it), and a writer around the
// NDJSON writer that notes outgoing request ids for response validation and reports traffic.
import {
  AbstractMessageReader,
  AbstractMessageWriter,
  Disposable as RpcDisposable,
  type DataCallback,
  type Message,
  type MessageReader,
  type MessageWriter,
  type RequestMessage,
} from 'vscode-jsonrpc';
import type { NdjsonMessageWriter } from './ndjson';
import type { AcpValidator } from './validation';

export type Id = number | string;

/** The reader vscode-jsonrpc listens to: the router hands it the messages it should handle. */
export class HandOffReader extends AbstractMessageReader implements MessageReader {
  callback: DataCallback | undefined;
  constructor(private readonly start: () => void) {
    super();
  }
  listen(callback: DataCallback): RpcDisposable {
    this.callback = callback;
    this.start();
    return RpcDisposable.create(() => {
      this.callback = undefined;
    });
  }
  deliver(msg: Message): void {
    this.callback?.(msg);
  }
}

/** Wraps the NDJSON writer: tracks outgoing request ids for response validation, reports traffic. */
export class TrackingWriter extends AbstractMessageWriter implements MessageWriter {
  lastRequestId: Id | undefined;
  constructor(
    private readonly inner: NdjsonMessageWriter,
    private readonly validator: AcpValidator,
    private readonly traffic: ((direction: 'in' | 'out', message: unknown) => void) | undefined,
  ) {
    super();
    inner.onError((e) => this.fireError(e[0], e[1], e[2]));
    inner.onClose(() => this.fireClose());
  }
  write(msg: Message): Promise<void> {
    const m = msg as Partial<RequestMessage>;
    if (typeof m.method === 'string' && m.id !== undefined && m.id !== null) this.lastRequestId = m.id;
    this.validator.noteOutgoing(msg);
    if (this.traffic) {
      try {
        this.traffic('out', msg);
      } catch {
        /* a view must not break the wire */
      }
    }
    return this.inner.write(msg);
  }
  end(): void {
    this.inner.end();
  }
}
