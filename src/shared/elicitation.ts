// Elicitation forms (ACP `elicitation/create`, mode "form"): the requested schema read as a list
// of fields and their defaults (./elicitationValidation checks an answer against them). Pure: no
// DOM, no vscode, no SDK code (types only), so it ships in the webview bundle too.
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

/** Upper bounds that keep a forged answer from costing much (the form itself never gets near them). */
export const MAX_ELICITATION_FIELDS = 200;
export const MAX_ELICITATION_STRING = 100_000;

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
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

/** The host of an http(s) URL, for showing the user plainly where a link goes; undefined otherwise. */
export function httpHost(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.host : undefined;
  } catch {
    return undefined;
  }
}
