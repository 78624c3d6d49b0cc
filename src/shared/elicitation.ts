// Elicitation forms (ACP `elicitation/create`, mode "form"): the requested schema read as a list
// of fields, their defaults, and the validator both sides run — the webview before it sends an
// answer, the host again before the answer goes to the agent. Pure: no DOM, no vscode, no SDK
// code (types only), so it ships in the webview bundle too.
import type { ElicitationContentValue, ElicitationSchema } from '@agentclientprotocol/sdk';

export type { ElicitationContentValue, ElicitationSchema };

/** The content of an `accept` answer: field name → value. */
export type ElicitationContent = Record<string, ElicitationContentValue>;

export interface ChoiceOption {
  value: string;
  title: string;
  description?: string;
}

interface FieldBase {
  name: string;
  title: string;
  description?: string;
  required: boolean;
}

/** One property of the requested schema, as a form control. */
export type ElicitationField =
  | (FieldBase & {
      kind: 'text';
      minLength?: number;
      maxLength?: number;
      pattern?: string;
      format?: 'email' | 'uri' | 'date' | 'date-time';
      default?: string;
    })
  | (FieldBase & { kind: 'number' | 'integer'; minimum?: number; maximum?: number; default?: number })
  | (FieldBase & { kind: 'boolean'; default?: boolean })
  | (FieldBase & { kind: 'select'; options: ChoiceOption[]; default?: string })
  | (FieldBase & {
      kind: 'multiselect';
      options: ChoiceOption[];
      minItems?: number;
      maxItems?: number;
      default?: string[];
    })
  /** A property type Tandem does not know (custom `_…` or a future one): never shown as a known control. */
  | (FieldBase & { kind: 'unsupported'; type: string });

/** A problem with one field (or, with no `field`, with the answer as a whole). */
export interface ElicitationIssue {
  field?: string;
  message: string;
}

/** Upper bounds that keep a forged answer from costing much (the form itself never gets near them). */
export const MAX_ELICITATION_FIELDS = 200;
export const MAX_ELICITATION_STRING = 100_000;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The schema's properties as fields, in the schema's order. Defensive: the schema is the agent's. */
export function fieldsOf(schema: ElicitationSchema | undefined | null): ElicitationField[] {
  const props = isObj(schema?.properties) ? (schema!.properties as Obj) : {};
  const required = new Set(
    Array.isArray(schema?.required) ? schema!.required.filter((r): r is string => typeof r === 'string') : [],
  );
  const out: ElicitationField[] = [];
  for (const [name, raw] of Object.entries(props).slice(0, MAX_ELICITATION_FIELDS)) {
    const p: Obj = isObj(raw) ? raw : {};
    const base: FieldBase = {
      name,
      title: str(p.title) || name,
      required: required.has(name),
      ...(str(p.description) ? { description: str(p.description) } : {}),
    };
    const type = str(p.type) ?? '';
    switch (type) {
      case 'string': {
        const options =
          choices(p.oneOf, 'const') ??
          (Array.isArray(p.enum)
            ? p.enum.filter((e): e is string => typeof e === 'string').map((v) => ({ value: v, title: v }))
            : undefined);
        if (options) {
          out.push({
            ...base,
            kind: 'select',
            options,
            ...(str(p.default) !== undefined ? { default: str(p.default) } : {}),
          });
          break;
        }
        const format = str(p.format);
        out.push({
          ...base,
          kind: 'text',
          ...(num(p.minLength) !== undefined ? { minLength: num(p.minLength) } : {}),
          ...(num(p.maxLength) !== undefined ? { maxLength: num(p.maxLength) } : {}),
          ...(str(p.pattern) ? { pattern: str(p.pattern) } : {}),
          ...(format === 'email' || format === 'uri' || format === 'date' || format === 'date-time' ? { format } : {}),
          ...(str(p.default) !== undefined ? { default: str(p.default) } : {}),
        });
        break;
      }
      case 'number':
      case 'integer':
        out.push({
          ...base,
          kind: type,
          ...(num(p.minimum) !== undefined ? { minimum: num(p.minimum) } : {}),
          ...(num(p.maximum) !== undefined ? { maximum: num(p.maximum) } : {}),
          ...(num(p.default) !== undefined ? { default: num(p.default) } : {}),
        });
        break;
      case 'boolean':
        out.push({ ...base, kind: 'boolean', ...(typeof p.default === 'boolean' ? { default: p.default } : {}) });
        break;
      case 'array': {
        const items: Obj = isObj(p.items) ? p.items : {};
        const options =
          choices(items.anyOf, 'const') ??
          (items.type === 'string' && Array.isArray(items.enum)
            ? items.enum.filter((e): e is string => typeof e === 'string').map((v) => ({ value: v, title: v }))
            : undefined);
        if (!options) {
          out.push({ ...base, kind: 'unsupported', type: 'array' });
          break;
        }
        out.push({
          ...base,
          kind: 'multiselect',
          options,
          ...(num(p.minItems) !== undefined ? { minItems: num(p.minItems) } : {}),
          ...(num(p.maxItems) !== undefined ? { maxItems: num(p.maxItems) } : {}),
          ...(Array.isArray(p.default) ? { default: p.default.filter((d): d is string => typeof d === 'string') } : {}),
        });
        break;
      }
      default:
        out.push({ ...base, kind: 'unsupported', type: type || 'unknown' });
    }
  }
  return out;
}

function choices(list: unknown, key: 'const'): ChoiceOption[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const out: ChoiceOption[] = [];
  for (const o of list) {
    if (!isObj(o) || typeof o[key] !== 'string') continue;
    const value = o[key] as string;
    out.push({
      value,
      title: str(o.title) || value,
      ...(str(o.description) ? { description: str(o.description) } : {}),
    });
  }
  return out;
}

/** The form's starting content: each field's schema default (booleans start unchecked). */
export function defaultsFor(schema: ElicitationSchema | undefined | null): ElicitationContent {
  const out: ElicitationContent = {};
  for (const f of fieldsOf(schema)) {
    if (f.kind === 'unsupported') continue;
    if (f.default !== undefined) out[f.name] = Array.isArray(f.default) ? f.default.slice() : f.default;
    else if (f.kind === 'boolean') out[f.name] = false;
  }
  return out;
}

/** Every problem of `content` against the schema, one clear message per problem (empty: valid). */
export function validateElicitationContent(schema: ElicitationSchema | undefined | null, content: unknown): string[] {
  return elicitationIssues(schema, content).map((i) => i.message);
}

/** Like validateElicitationContent, with the field each message is about (the form shows them inline). */
export function elicitationIssues(schema: ElicitationSchema | undefined | null, content: unknown): ElicitationIssue[] {
  if (!isObj(content)) return [{ message: 'The answer must be an object of field values.' }];
  const fields = fieldsOf(schema);
  const known = new Map(fields.map((f) => [f.name, f]));
  const issues: ElicitationIssue[] = [];
  for (const key of Object.keys(content)) {
    if (!known.has(key)) issues.push({ field: key, message: `"${key}" is not a field of this form.` });
  }
  for (const f of fields) {
    const m = fieldIssue(f, content[f.name], Object.prototype.hasOwnProperty.call(content, f.name));
    if (m) issues.push({ field: f.name, message: m });
  }
  return issues;
}

/** The problem with one field's value, or undefined. `present`: the key is in the content. */
export function fieldIssue(f: ElicitationField, v: unknown, present = v !== undefined): string | undefined {
  const t = `"${f.title}"`;
  const missing = !present || v === undefined || v === null || (typeof v === 'string' && v === '');
  if (missing) return f.required ? `${t} is required.` : undefined;
  switch (f.kind) {
    case 'unsupported':
      return `${t} has a field type Tandem cannot show (${f.type}).`;
    case 'text': {
      if (typeof v !== 'string') return `${t} must be text.`;
      if (v.length > MAX_ELICITATION_STRING) return `${t} is too long.`;
      const len = [...v].length;
      if (f.minLength !== undefined && len < f.minLength)
        return `${t} must be at least ${plural(f.minLength, 'character')}.`;
      if (f.maxLength !== undefined && len > f.maxLength)
        return `${t} must be at most ${plural(f.maxLength, 'character')}.`;
      if (f.format && !formatOk(f.format, v)) return `${t} must be ${FORMAT_WORDS[f.format]}.`;
      if (f.pattern) {
        const re = compile(f.pattern);
        if (re && !re.test(v)) return `${t} does not have the expected form (pattern ${f.pattern}).`;
      }
      return undefined;
    }
    case 'number':
    case 'integer': {
      if (typeof v !== 'number' || !Number.isFinite(v)) return `${t} must be a number.`;
      if (f.kind === 'integer' && !Number.isInteger(v)) return `${t} must be a whole number.`;
      if (f.minimum !== undefined && v < f.minimum) return `${t} must be at least ${f.minimum}.`;
      if (f.maximum !== undefined && v > f.maximum) return `${t} must be at most ${f.maximum}.`;
      return undefined;
    }
    case 'boolean':
      return typeof v === 'boolean' ? undefined : `${t} must be true or false.`;
    case 'select':
      if (typeof v !== 'string') return `${t} must be one of the offered choices.`;
      return f.options.some((o) => o.value === v)
        ? undefined
        : `${t} must be one of: ${f.options.map((o) => o.title).join(', ')}.`;
    case 'multiselect': {
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) return `${t} must be a list of choices.`;
      const bad = v.find((x) => !f.options.some((o) => o.value === x));
      if (bad !== undefined) return `${t}: "${bad}" is not one of the offered choices.`;
      if (new Set(v).size !== v.length) return `${t} lists a choice twice.`;
      if (f.required && v.length === 0 && f.minItems === undefined) return `${t} needs at least one choice.`;
      if (f.minItems !== undefined && v.length < f.minItems)
        return `${t} needs at least ${plural(f.minItems, 'choice')}.`;
      if (f.maxItems !== undefined && v.length > f.maxItems)
        return `${t} allows at most ${plural(f.maxItems, 'choice')}.`;
      return undefined;
    }
  }
}

const FORMAT_WORDS = {
  email: 'an email address',
  uri: 'a URI (such as https://example.com)',
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date and time (ISO 8601, such as 2025-01-31T14:00:00Z)',
} as const;

function formatOk(format: keyof typeof FORMAT_WORDS, v: string): boolean {
  switch (format) {
    case 'email':
      return /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(v);
    case 'uri': {
      if (!/^[a-z][a-z0-9+.-]*:\S+$/i.test(v)) return false;
      try {
        new URL(v);
        return true;
      } catch {
        return false;
      }
    }
    case 'date':
      return validDate(v);
    case 'date-time': {
      const m = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.exec(v);
      return !!m && validDate(m[1]) && +m[2] < 24 && +m[3] < 60 && +m[4] < 61;
    }
  }
}

function validDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const [y, mo, d] = [+m[1], +m[2], +m[3]];
  const dt = new Date(Date.UTC(y, mo - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d;
}

const patterns = new Map<string, RegExp | null>();
/** JSON Schema patterns are ECMA-262 and unanchored. One the engine rejects constrains nothing. */
function compile(pattern: string): RegExp | null {
  let re = patterns.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(pattern, 'u');
    } catch {
      try {
        re = new RegExp(pattern);
      } catch {
        re = null;
      }
    }
    if (patterns.size > 200) patterns.clear();
    patterns.set(pattern, re);
  }
  return re;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The host of an http(s) URL, for showing the user plainly where a link goes; undefined otherwise. */
export function httpHost(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.host : undefined;
  } catch {
    return undefined;
  }
}
