// A value as readable JSON, for the rows that show or copy one; never throws (cycles, BigInt).

/** Pretty JSON of `v`, or String(v) when JSON cannot say it. */
export function stringify(v: unknown): string {
  try {
    const s = JSON.stringify(v, null, 2);
    return s === undefined ? String(v) : s;
  } catch {
    return String(v);
  }
}
