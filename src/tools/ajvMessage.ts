// How a client tool call's invalid arguments are told to the agent: ajv's errors in one line.
import type { ValidateFunction } from 'ajv';

/** Human-readable ajv error: `/line must be integer`, `must have required property 'path'`. */
export function ajvMessage(v: ValidateFunction): string {
  return (
    (v.errors ?? [])
      .map((e) => {
        const where = e.instancePath ? `${e.instancePath} ` : '';
        const extra =
          e.keyword === 'additionalProperties'
            ? ` '${(e.params as { additionalProperty?: string }).additionalProperty}'`
            : e.keyword === 'enum'
              ? ` (${((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).map((x) => JSON.stringify(x)).join(', ')})`
              : '';
        return `${where}${e.message ?? 'is invalid'}${extra}`;
      })
      .join('; ') || 'invalid'
  );
}
