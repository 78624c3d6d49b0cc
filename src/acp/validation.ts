// Schema validation of everything the agent sends, with the validators generated at build time
// from the official ACP v1 schema (scripts/gen-validators.mjs → ./generated/validators).
//
// - agent → client requests: params validated; invalid → JSON-RPC -32602 whose message names the
//   failing path ("Invalid params for fs/read_text_file: /path must be string"), request dropped.
//   Unknown methods pass through: the connection answers -32601.
// - notifications: `session/update` is checked on its `sessionUpdate` kind first (unknown kind →
//   warn once per kind, ignored), then validated (invalid → logged, dropped); other known
//   notifications (`elicitation/complete`, `$/cancel_request`) are validated the same way;
//   unknown notifications pass through (the connection logs them).
// - responses: validated against the response type of the method we sent (ids tracked when
//   writing; id 0 is an id like any other). An invalid result becomes an error response naming
//   the method and the path, so the pending request rejects clearly. A response to an id we
//   never sent is logged and dropped.
// - JSON-RPC batches (arrays) are not part of ACP: logged, answered with one -32600 (id null).
// Nothing throws out of this layer.
//
// Leniency: the schema decides. Extra fields (`_meta`, unstable fields such as `models`) are
// allowed by the schema (no additionalProperties: false anywhere) and pass. Every agent → client
// message of the recorded real-agent transcripts (claude-code-acp 0.16.2, claude-agent-acp
// 0.100.0, gemini-cli 0.61.0) validates strictly, so no lenient override is applied. The schema's
// `x-deserialize-default-on-error` hints (how the Rust/TS SDKs repair bad fields) are NOT
// applied: a message that violates the schema is rejected/dropped and logged, not repaired.
import type { Message, NotificationMessage, RequestMessage, ResponseMessage } from 'vscode-jsonrpc';
import type { Logger } from '../common/logger';
import * as generated from './generated/validators';

export interface ValidationError {
  instancePath: string;
  schemaPath?: string;
  keyword?: string;
  params?: unknown;
  message?: string;
}
export type ValidateFn = ((data: unknown) => boolean) & { errors?: ValidationError[] | null };

interface MethodDef {
  method: string;
  side: string;
  kind: 'request' | 'response' | 'notification';
  def: string;
}

const validators = generated as unknown as Record<string, ValidateFn>;
const methodDefs = (generated as unknown as { METHOD_DEFS: MethodDef[] }).METHOD_DEFS;

function table(side: string, kind: MethodDef['kind']): Map<string, ValidateFn> {
  const m = new Map<string, ValidateFn>();
  for (const d of methodDefs) if (d.side === side && d.kind === kind) m.set(d.method, validators[d.def]);
  return m;
}

/** Params validators of the requests an agent may send us. */
export const AGENT_TO_CLIENT_REQUESTS: ReadonlyMap<string, ValidateFn> = table('client', 'request');
/** Params validators of the notifications an agent may send us (`session/update`, `elicitation/complete`). */
export const AGENT_TO_CLIENT_NOTIFICATIONS: ReadonlyMap<string, ValidateFn> = new Map([
  ...table('client', 'notification'),
  ...table('protocol', 'notification'),
]);
/** Result validators of the agent's responses, by the method we sent. */
export const AGENT_RESPONSES: ReadonlyMap<string, ValidateFn> = table('agent', 'response');
/** Params validators of what we send (used by tests and the demo agent, not on the hot path). */
export const CLIENT_TO_AGENT_REQUESTS: ReadonlyMap<string, ValidateFn> = table('agent', 'request');
/** Result validators of what we answer (tests). */
export const CLIENT_RESPONSES: ReadonlyMap<string, ValidateFn> = table('client', 'response');

export const SESSION_UPDATE_KINDS: ReadonlySet<string> = new Set(
  (generated as unknown as { SESSION_UPDATE_KINDS: string[] }).SESSION_UPDATE_KINDS,
);
export const validateSessionNotification: ValidateFn = validators.SessionNotification;

/** "/path must be string" — the first ajv error, path first. */
export function describeErrors(errors: ValidationError[] | null | undefined): string {
  const e = errors?.[0];
  if (!e) return 'invalid';
  const path = e.instancePath || '/';
  let msg = e.message ?? e.keyword ?? 'invalid';
  if (e.keyword === 'additionalProperties' && e.params && typeof e.params === 'object') {
    msg += ` (${String((e.params as { additionalProperty?: unknown }).additionalProperty)})`;
  } else if ((e.keyword === 'enum' || e.keyword === 'const') && e.params && typeof e.params === 'object') {
    const p = e.params as { allowedValues?: unknown[]; allowedValue?: unknown };
    msg += `: ${JSON.stringify(p.allowedValues ?? p.allowedValue)}`;
  }
  return `${path} ${msg}`;
}

export const ErrorCodes = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  RequestCancelled: -32800,
  AuthRequired: -32000,
  ResourceNotFound: -32002,
} as const;

/** Marks an error response that this layer made out of an agent's invalid result. */
export interface InvalidResponseData {
  invalidResponse: true;
  method: string;
  path: string;
  result: unknown;
}

type Id = number | string;

function isId(id: unknown): id is Id {
  return typeof id === 'number' || typeof id === 'string';
}

/**
 * Checks every incoming message and tracks the ids of outgoing requests. `inspectIncoming`
 * returns the message to deliver (possibly rewritten) or `undefined` when it was dropped.
 */
export class AcpValidator {
  /** id → method of our requests still waiting for a response. */
  private readonly pending = new Map<Id, string>();
  private readonly warnedKinds = new Set<string>();

  constructor(
    private readonly logger: Logger,
    /** Writes a reply (error responses for invalid requests and batches). Must not throw. */
    private readonly reply: (msg: ResponseMessage) => void,
  ) {}

  /** Call for every message we write. */
  noteOutgoing(msg: Message): void {
    const m = msg as Partial<RequestMessage>;
    if (typeof m.method === 'string' && isId(m.id)) this.pending.set(m.id, m.method);
  }

  /** The method of a request we sent that is still pending, if any. */
  pendingMethod(id: Id): string | undefined {
    return this.pending.get(id);
  }

  inspectIncoming(msg: unknown): Message | undefined {
    try {
      return this.inspect(msg);
    } catch (err) {
      this.logger.error(
        `ACP validation failed unexpectedly: ${err instanceof Error ? err.message : String(err)}; message dropped`,
      );
      return undefined;
    }
  }

  private inspect(raw: unknown): Message | undefined {
    if (Array.isArray(raw)) {
      this.logger.error(
        `Received a JSON-RPC batch of ${raw.length} message(s) from the agent; ACP does not use batches: ignored`,
      );
      this.reply({
        jsonrpc: '2.0',
        id: null,
        error: { code: ErrorCodes.InvalidRequest, message: 'JSON-RPC batches are not supported by ACP' },
      });
      return undefined;
    }
    const msg = raw as Record<string, unknown>;
    const method = msg.method;
    if (typeof method === 'string') {
      if ('id' in msg && msg.id !== undefined) return this.request(msg as unknown as RequestMessage, method);
      return this.notification(msg as unknown as NotificationMessage, method);
    }
    if ('id' in msg) return this.response(msg as unknown as ResponseMessage);
    this.logger.error(
      `Received a message that is neither a request, a response nor a notification: ${preview(msg)}; ignored`,
    );
    return undefined;
  }

  private request(msg: RequestMessage, method: string): Message | undefined {
    if (!isId(msg.id)) {
      this.logger.error(`Received request ${method} with an invalid id ${preview(msg.id)}; ignored`);
      this.reply({
        jsonrpc: '2.0',
        id: null,
        error: { code: ErrorCodes.InvalidRequest, message: `Invalid request id for ${method}` },
      });
      return undefined;
    }
    const validate = AGENT_TO_CLIENT_REQUESTS.get(method);
    if (validate && !validate(msg.params)) {
      const detail = `Invalid params for ${method}: ${describeErrors(validate.errors)}`;
      this.logger.error(`Rejected request ${method} (id ${msg.id}) from the agent: ${detail}`);
      this.reply({ jsonrpc: '2.0', id: msg.id, error: { code: ErrorCodes.InvalidParams, message: detail } });
      return undefined;
    }
    return msg; // unknown methods: the connection answers -32601
  }

  private notification(msg: NotificationMessage, method: string): Message | undefined {
    if (method === 'session/update') {
      const params = msg.params as { update?: { sessionUpdate?: unknown } } | undefined;
      const kind = params?.update?.sessionUpdate;
      if (typeof kind === 'string' && !SESSION_UPDATE_KINDS.has(kind)) {
        if (!this.warnedKinds.has(kind)) {
          this.warnedKinds.add(kind);
          this.logger.warn(
            `Ignoring session/update of unknown kind "${kind}" (not in ACP v1; further ones are ignored silently)`,
          );
        }
        return undefined;
      }
      if (!validateSessionNotification(msg.params)) {
        this.logger.error(
          `Dropped invalid session/update${typeof kind === 'string' ? ` (${kind})` : ''}: ${describeErrors(validateSessionNotification.errors)}`,
        );
        return undefined;
      }
      return msg;
    }
    const validate = AGENT_TO_CLIENT_NOTIFICATIONS.get(method);
    if (validate && !validate(msg.params)) {
      this.logger.error(`Dropped invalid ${method} notification: ${describeErrors(validate.errors)}`);
      return undefined;
    }
    return msg;
  }

  private response(msg: ResponseMessage): Message | undefined {
    const id = msg.id;
    if (!isId(id)) {
      this.logger.error(
        `Received a response without a usable id${msg.error ? `: error ${msg.error.code} ${msg.error.message}` : ''}; ignored`,
      );
      return undefined;
    }
    const method = this.pending.get(id);
    if (method === undefined) {
      this.logger.error(`Received a response for unknown request id ${JSON.stringify(id)}; ignored`);
      return undefined;
    }
    this.pending.delete(id);
    if (msg.error !== undefined) {
      const e = msg.error as unknown;
      if (!e || typeof e !== 'object' || typeof (e as { code?: unknown }).code !== 'number') {
        return this.invalid(id, method, `malformed error object ${preview(e)}`, '/error', undefined);
      }
      return msg;
    }
    if (!('result' in msg)) {
      return this.invalid(id, method, 'the response has neither a result nor an error', '/', undefined);
    }
    const validate = AGENT_RESPONSES.get(method);
    if (validate && !validate(msg.result)) {
      const err = validate.errors?.[0];
      return this.invalid(id, method, describeErrors(validate.errors), err?.instancePath || '/', msg.result);
    }
    return msg;
  }

  private invalid(id: Id, method: string, detail: string, path: string, result: unknown): ResponseMessage {
    const message = `Invalid response to ${method}: ${detail}`;
    this.logger.error(`${message} (id ${id})`);
    const data: InvalidResponseData = { invalidResponse: true, method, path, result };
    return { jsonrpc: '2.0', id, error: { code: ErrorCodes.InternalError, message, data } };
  }
}

function preview(v: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}
