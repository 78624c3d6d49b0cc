// Errors of the ACP connection: what a failed request rejects with (the agent's JSON-RPC error,
// its code kept), what a failing handler answers, and the text to show for either.
import { ResponseError } from 'vscode-jsonrpc';
import type { Logger } from '../common/logger';
import { ErrorCodes } from './validation';

/** A failed ACP request: a JSON-RPC error from the agent (code kept, e.g. -32000 auth required), or the connection closing. */
export class AcpError extends Error {
  code?: number;
  data?: unknown;
  constructor(message: string, code?: number, data?: unknown) {
    super(message);
    this.name = 'AcpError';
    if (code !== undefined) this.code = code;
    if (data !== undefined) this.data = data;
  }
}

/** An error's message plus the agent's `data` when that says more: codex-acp answers a failed
 *  sign-in with "Internal error" and puts "OPENAI_API_KEY is not set" in `data`. */
export function errorDetail(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const data = (err as { data?: unknown }).data;
  const more =
    typeof data === 'string'
      ? data
      : data && typeof data === 'object' && typeof (data as { message?: unknown }).message === 'string'
        ? (data as { message: string }).message
        : undefined;
  return more && !err.message.includes(more) ? `${err.message}: ${more}` : err.message;
}

/** Any failure of a request as an AcpError (the agent's code and data kept). */
export function toAcpError(err: unknown, method: string): AcpError {
  if (err instanceof AcpError) return err;
  if (err instanceof ResponseError) return new AcpError(err.message, err.code, err.data);
  if (err instanceof Error) return new AcpError(`${method} failed: ${err.message}`);
  return new AcpError(`${method} failed: ${String(err)}`);
}

/** A handler's failure as the JSON-RPC error to answer with: its own code, else InternalError (logged). */
export function toResponseError(err: unknown, method: string, logger: Logger): ResponseError<unknown> {
  if (err instanceof ResponseError) return err;
  if (err instanceof AcpError && typeof err.code === 'number')
    return new ResponseError(err.code, err.message, err.data);
  const message = err instanceof Error ? err.message : String(err);
  logger.error(`Handler for ${method} failed: ${message}`);
  return new ResponseError(ErrorCodes.InternalError, message);
}
