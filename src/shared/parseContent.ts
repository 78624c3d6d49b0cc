// Validation of the content a webview message carries: prompt attachments and elicitation
// answers. Shapes and sizes only; what an elicitation's schema asks of its answer is the host's
// check (validateElicitationContent).
import { MAX_ELICITATION_FIELDS, MAX_ELICITATION_STRING, type ElicitationContent } from './elicitation';
import type { Attachment } from './protocol';

/** Largest pasted image accepted (base64 characters). */
export const MAX_IMAGE_BASE64 = 8 * 1024 * 1024;

/** The first field of `o` other than `tag` and `allowed`, as a reason; undefined when there is none. */
export function unexpectedField(
  o: Record<string, unknown>,
  tag: string,
  allowed: readonly string[],
  what: string,
): string | undefined {
  const k = Object.keys(o).find((k) => k !== tag && !allowed.includes(k));
  return k === undefined ? undefined : `unexpected field "${k}" in ${what}`;
}

export function parseAttachment(a: unknown): Attachment | string {
  if (typeof a !== 'object' || a === null || Array.isArray(a)) return 'attachment is not an object';
  const o = a as Record<string, unknown>;
  const extra = (allowed: string[]) => unexpectedField(o, 'kind', allowed, `${String(o.kind)} attachment`);
  const path = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= 4096;
  switch (o.kind) {
    case 'file': {
      const bad = extra(['path']);
      if (bad) return bad;
      if (!path(o.path)) return 'file.path must be a non-empty string';
      return { kind: 'file', path: o.path as string };
    }
    case 'selection': {
      const bad = extra(['path', 'startLine', 'endLine']);
      if (bad) return bad;
      if (!path(o.path)) return 'selection.path must be a non-empty string';
      const s = o.startLine,
        e = o.endLine;
      if (!Number.isInteger(s) || !Number.isInteger(e) || (s as number) < 1 || (e as number) < (s as number))
        return 'selection lines must be integers with 1 ≤ startLine ≤ endLine';
      return { kind: 'selection', path: o.path as string, startLine: s as number, endLine: e as number };
    }
    case 'image': {
      const bad = extra(['mimeType', 'data']);
      if (bad) return bad;
      if (typeof o.mimeType !== 'string' || !/^image\/(png|jpeg|gif|webp)$/.test(o.mimeType))
        return 'image.mimeType must be image/png, jpeg, gif or webp';
      if (
        typeof o.data !== 'string' ||
        !o.data ||
        o.data.length > MAX_IMAGE_BASE64 ||
        !/^[A-Za-z0-9+/]+={0,2}$/.test(o.data)
      )
        return 'image.data must be base64 of at most 8 MiB';
      return { kind: 'image', mimeType: o.mimeType, data: o.data };
    }
    default:
      return `unknown attachment kind ${JSON.stringify(o.kind)}`;
  }
}

/** The shape of an elicitation answer (what the schema asks of it is the host's check, not this one's). */
export function parseElicitationContent(c: unknown): ElicitationContent | string {
  if (typeof c !== 'object' || c === null || Array.isArray(c)) return 'must be an object';
  const entries = Object.entries(c as Record<string, unknown>);
  if (entries.length > MAX_ELICITATION_FIELDS) return `has more than ${MAX_ELICITATION_FIELDS} fields`;
  const out: ElicitationContent = {};
  for (const [k, v] of entries) {
    if (!k || k.length > 200 || k === '__proto__') return `field name ${JSON.stringify(k.slice(0, 40))} is not allowed`;
    const ok =
      (typeof v === 'string' && v.length <= MAX_ELICITATION_STRING) ||
      (typeof v === 'number' && Number.isFinite(v)) ||
      typeof v === 'boolean' ||
      (Array.isArray(v) && v.length <= 1000 && v.every((x) => typeof x === 'string' && x.length <= 10_000));
    if (!ok) return `"${k}" must be text, a number, true/false or a list of choices`;
    out[k] = v as ElicitationContent[string];
  }
  return out;
}
