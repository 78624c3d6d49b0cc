// AcpConnection: JSON-RPC over NDJSON with the agent, every incoming message schema-validated.
//
// Pipeline (incoming): NdjsonMessageReader → translate (the client's, optional) → AcpValidator →
// router → handlers.
// - Requests (both directions) and responses go through vscode-jsonrpc's MessageConnection
//   (ids, cancellation tokens, -32601 for unhandled methods, reply plumbing).
// - Notifications (session/update is the hot path: thousands per turn) are dispatched by the
//   router itself, synchronously and in arrival order. vscode-jsonrpc would cost one
//   setImmediate + queue entry + promise per message (it caps out near 130k msg/s before any
//   work), see bench/protocol.ts.
// - Ordering is preserved: while a request or response handed to vscode-jsonrpc has not been
//   dispatched yet (its queue runs on setImmediate), later messages wait in the router's queue;
//   it drains on a later macrotask, after the promise continuations of that response ran. So
//   `await sendRequest(session/new)` resumes before the session/update that followed the
//   response is delivered, exactly as if everything went through vscode-jsonrpc.
import { type CancellationToken, type NotificationType, type RequestType, ResponseError } from 'vscode-jsonrpc';
import type { Message, MessageConnection, NotificationMessage, RequestMessage, ResponseMessage } from 'vscode-jsonrpc';
import { createMessageConnection } from 'vscode-jsonrpc/node';
import type { IDisposable } from '../common/disposable';
import { Emitter, type Event } from '../common/event';
import type { Logger } from '../common/logger';
import { AcpError, toAcpError, toResponseError } from './errors';
import { NdjsonMessageReader, NdjsonMessageWriter } from './ndjson';
import { NotificationHandlers } from './notificationHandlers';
import { HandOffReader, TrackingWriter, type Id } from './rpcAdapters';
import { AcpValidator, ErrorCodes } from './validation';

export interface AcpConnectionOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  logger: Logger;
  /** Every JSON-RPC message, for the trace-level traffic view. `in` messages are reported before validation. */
  traffic?: (direction: 'in' | 'out', message: unknown) => void;
  maxLineBytes?: number;
  /**
   * Rewrites an incoming message before it is validated (into none, one or several; never
   * throws), e.g. a draft extension in ACP v1's terms (client/connection/subagentSessions.ts).
   */
  translate?: (message: unknown) => readonly unknown[];
}

export class AcpConnection implements IDisposable {
  private readonly logger: Logger;
  private readonly traffic: AcpConnectionOptions['traffic'];
  private readonly translate: AcpConnectionOptions['translate'];
  private readonly reader: NdjsonMessageReader;
  private readonly ndjsonWriter: NdjsonMessageWriter;
  private readonly writer: TrackingWriter;
  private readonly validator: AcpValidator;
  private readonly handOff: HandOffReader;
  private readonly connection: MessageConnection;
  private readonly notificationHandlers: NotificationHandlers;
  private readonly pending = new Set<{ reject: (e: AcpError) => void }>();
  private readonly onDidCloseEmitter = new Emitter<string>();
  readonly onDidClose: Event<string> = this.onDidCloseEmitter.event;

  // Router state: messages handed to vscode-jsonrpc and not yet dispatched by it, and the
  // messages waiting behind them (a queue with a head index: no O(n) shift).
  private inFlight = 0;
  private readonly handedResponses = new Set<Id>();
  private queue: Message[] = [];
  private queueHead = 0;
  private drainScheduled = false;

  private closed = false;
  private listening = false;

  constructor(opts: AcpConnectionOptions) {
    this.logger = opts.logger;
    this.notificationHandlers = new NotificationHandlers(opts.logger);
    this.traffic = opts.traffic;
    this.translate = opts.translate;
    this.reader = new NdjsonMessageReader(opts.input, { maxLineBytes: opts.maxLineBytes });
    this.ndjsonWriter = new NdjsonMessageWriter(opts.output);
    this.validator = new AcpValidator(this.logger, (msg) => this.writeReply(msg));
    this.writer = new TrackingWriter(this.ndjsonWriter, this.validator, this.traffic);
    this.handOff = new HandOffReader(() => this.reader.listen((msg) => this.onIncoming(msg)));

    this.reader.onError((err) => this.logger.error(err.message));
    this.reader.onClose(() => this.close('The agent closed its output stream'));
    this.writer.onError(([err]) => this.logger.error(`Writing to the agent failed: ${err.message}`));

    const l = this.logger;
    this.connection = createMessageConnection(this.handOff, this.writer, {
      error: (m) => l.error(`[jsonrpc] ${m}`),
      warn: (m) => l.warn(`[jsonrpc] ${m}`),
      info: (m) => l.info(`[jsonrpc] ${m}`),
      log: (m) => l.debug(`[jsonrpc] ${m}`),
    });
    this.connection.onError(() => {
      /* reader/writer errors are logged above */
    });
    // Requests nobody handles: -32601 (and the router learns the request was dispatched).
    this.connection.onRequest((method: string) => {
      this.dispatched();
      throw new ResponseError(ErrorCodes.MethodNotFound, `Method not found: ${method}`);
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  listen(): void {
    if (this.listening || this.closed) return;
    this.listening = true;
    this.connection.listen();
  }

  sendRequest<P, R>(type: RequestType<P, R, void>, params: P): Promise<R> {
    if (this.closed) return Promise.reject(new AcpError(`Cannot send ${type.method}: the connection is closed`));
    let inner: Promise<R>;
    let id: Id | undefined;
    try {
      this.writer.lastRequestId = undefined;
      inner = this.connection.sendRequest(type.method, params) as Promise<R>;
      id = this.writer.lastRequestId;
    } catch (err) {
      return Promise.reject(toAcpError(err, type.method));
    }
    return new Promise<R>((resolve, reject) => {
      const entry = { reject };
      this.pending.add(entry);
      const settled = () => {
        this.pending.delete(entry);
        if (id !== undefined && this.handedResponses.delete(id)) this.dispatched();
      };
      inner.then(
        (r) => {
          settled();
          resolve(r);
        },
        (e) => {
          settled();
          reject(toAcpError(e, type.method));
        },
      );
    });
  }

  sendNotification<P>(type: NotificationType<P>, params: P): void {
    if (this.closed) {
      this.logger.warn(`Not sending ${type.method}: the connection is closed`);
      return;
    }
    this.connection
      .sendNotification(type.method, params)
      .catch((err: unknown) =>
        this.logger.error(`Sending ${type.method} failed: ${err instanceof Error ? err.message : String(err)}`),
      );
  }

  onRequest<P, R>(
    type: RequestType<P, R, void>,
    handler: (params: P, token: CancellationToken) => R | Promise<R>,
  ): IDisposable {
    const method = type.method;
    const d = this.connection.onRequest(method, async (params: P, token: CancellationToken) => {
      this.dispatched();
      try {
        return await handler(params, token);
      } catch (err) {
        throw toResponseError(err, method, this.logger);
      }
    });
    return d;
  }

  onNotification<P>(type: NotificationType<P>, handler: (params: P) => void): IDisposable {
    return this.notificationHandlers.on(type.method, handler as (params: unknown) => void);
  }

  /** Fail every pending request with `new AcpError(reason)` at once and stop; used when the agent process exits. */
  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    const err = new AcpError(reason);
    for (const p of [...this.pending]) p.reject(err);
    this.pending.clear();
    this.queue = [];
    this.queueHead = 0;
    this.notificationHandlers.clear();
    try {
      this.connection.dispose();
    } catch {
      /* ignore */
    }
    try {
      this.reader.dispose();
    } catch {
      /* ignore */
    }
    try {
      this.writer.end();
    } catch {
      /* ignore */
    }
    this.logger.info(`ACP connection closed: ${reason}`);
    this.onDidCloseEmitter.fire(reason);
    this.onDidCloseEmitter.dispose();
  }

  dispose(): void {
    this.close('Connection disposed');
  }

  // ---- incoming routing -------------------------------------------------------------------

  private onIncoming(raw: unknown): void {
    if (this.closed) return;
    if (this.traffic) {
      try {
        this.traffic('in', raw);
      } catch {
        /* a view must not break the wire */
      }
    }
    for (const m of this.translate ? this.translate(raw) : [raw]) this.accept(m);
  }

  private accept(raw: unknown): void {
    const msg = this.validator.inspectIncoming(raw);
    if (msg === undefined) return;
    if (this.inFlight > 0 || this.queueHead < this.queue.length) {
      this.queue.push(msg);
      return;
    }
    this.route(msg);
  }

  private route(msg: Message): void {
    const m = msg as Partial<RequestMessage & ResponseMessage>;
    if (typeof m.method === 'string') {
      if (m.id === undefined) {
        this.notify(msg as NotificationMessage);
        return;
      }
      this.inFlight++;
      this.handOff.deliver(msg);
      return;
    }
    // A response (the validator only lets through responses to ids we sent).
    this.inFlight++;
    this.handedResponses.add(m.id as Id);
    this.handOff.deliver(msg);
  }

  /** vscode-jsonrpc has dispatched one message we handed it. */
  private dispatched(): void {
    if (this.inFlight > 0) this.inFlight--;
    if (this.inFlight === 0 && this.queueHead < this.queue.length && !this.drainScheduled) {
      this.drainScheduled = true;
      // A macrotask: let the continuations of a just-resolved request run first.
      setImmediate(() => this.drain());
    }
  }

  private drain(): void {
    this.drainScheduled = false;
    while (!this.closed && this.inFlight === 0 && this.queueHead < this.queue.length) {
      const msg = this.queue[this.queueHead++];
      this.route(msg);
    }
    if (this.queueHead >= this.queue.length) {
      this.queue = [];
      this.queueHead = 0;
    } else if (this.queueHead > 1024 && this.queueHead * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.queueHead);
      this.queueHead = 0;
    }
  }

  private notify(msg: NotificationMessage): void {
    const method = msg.method;
    if (method === '$/cancel_request') {
      const requestId = (msg.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof requestId === 'number' || typeof requestId === 'string') {
        // vscode-jsonrpc's own cancellation notification: cancels the handler's token.
        this.handOff.deliver({
          jsonrpc: '2.0',
          method: '$/cancelRequest',
          params: { id: requestId },
        } as NotificationMessage);
      }
      this.notificationHandlers.call(method, msg.params, false);
      return;
    }
    this.notificationHandlers.call(method, msg.params, true);
  }

  private writeReply(msg: ResponseMessage): void {
    if (this.closed) return;
    this.writer
      .write(msg)
      .catch((err: unknown) =>
        this.logger.error(`Writing an error reply failed: ${err instanceof Error ? err.message : String(err)}`),
      );
  }
}
