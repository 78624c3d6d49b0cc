// ACP's "authentication required": the agent wants the user to sign in before a session.
import { AcpError } from '../../acp/errors';

/** ACP's "authentication required" error code. */
export const AUTH_REQUIRED = -32000;

export function isAuthRequired(err: unknown): boolean {
  return err instanceof AcpError
    ? err.code === AUTH_REQUIRED
    : (err as { code?: unknown } | null)?.code === AUTH_REQUIRED;
}
