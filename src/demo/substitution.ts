// `${path}` substitution in script values, and the path lookups `branch` / `if` steps use.

/** Follows a dotted path through nested objects (getters included). */
export function lookup(vars: Record<string, unknown>, path: string): { found: boolean; value?: unknown } {
  let cur: unknown = vars;
  for (const key of path.split('.')) {
    if (cur === null || cur === undefined || typeof cur !== 'object' || !(key in (cur as object)))
      return { found: false };
    cur = (cur as Record<string, unknown>)[key];
  }
  return { found: true, value: cur };
}

/**
 * A condition of an `if` step: `path` holds when the value there is truthy (`{}` counts, as an
 * ACP capability object does), `!path` when it is missing or falsy. A list holds when all hold.
 */
export function holds(vars: Record<string, unknown>, cond: string | readonly string[]): boolean {
  if (Array.isArray(cond)) return cond.every((c: string) => holds(vars, c));
  const c = String(cond).trim();
  if (c.startsWith('!')) return !holds(vars, c.slice(1));
  const r = lookup(vars, c);
  return r.found && !!r.value;
}

const WHOLE = /^\$\{([^}]+)\}$/;
const PART = /\$\{([^}]+)\}/g;

/** Replaces `${path}` in every string of `value` (deep); a whole-string reference keeps its type. */
export function subst(value: unknown, vars: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) {
      const r = lookup(vars, whole[1]);
      return r.found ? r.value : value;
    }
    if (!value.includes('${')) return value;
    return value.replace(PART, (m, path: string) => {
      const r = lookup(vars, path);
      if (!r.found) return m;
      return typeof r.value === 'string' ? r.value : r.value === undefined ? '' : JSON.stringify(r.value);
    });
  }
  if (Array.isArray(value)) return value.map((x) => subst(x, vars));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(value)) out[k] = subst(x, vars);
    return out;
  }
  return value;
}
