// The validator both sides run on an elicitation answer: the webview before it sends it (its
// messages show next to their fields), the host again before the answer goes to the agent. One
// clear message per problem; formats and patterns as JSON Schema means them.
import { fieldsOf, isObj, MAX_ELICITATION_STRING, type ElicitationField, type ElicitationSchema } from './elicitation';

/** A problem with one field (or, with no `field`, with the answer as a whole). */
export interface ElicitationIssue {
  field?: string;
  message: string;
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
