// What an elicitation form's controls hold (text and numbers as typed, booleans, choice lists),
// from the fields' defaults, and the answer's content made from it.
import type { ElicitationContent, ElicitationField } from '../shared/elicitation';

/** What the controls hold: text and numbers as typed, booleans, choice lists. */
export type Values = Record<string, string | boolean | string[]>;

export function initialValues(fields: ElicitationField[]): Values {
  const v: Values = {};
  for (const f of fields) {
    switch (f.kind) {
      case 'text':
      case 'select':
        v[f.name] = f.default ?? '';
        break;
      case 'number':
      case 'integer':
        v[f.name] = f.default !== undefined ? String(f.default) : '';
        break;
      case 'boolean':
        v[f.name] = f.default ?? false;
        break;
      case 'multiselect':
        v[f.name] = f.default?.slice() ?? [];
        break;
      case 'unsupported':
        break;
    }
  }
  return v;
}

/** The answer's content: empty text and unset numbers are left out, so "required" can speak. */
export function contentOf(fields: ElicitationField[], values: Values): ElicitationContent {
  const out: ElicitationContent = {};
  for (const f of fields) {
    const v = values[f.name];
    switch (f.kind) {
      case 'text':
      case 'select':
        if (typeof v === 'string' && v !== '') out[f.name] = v;
        break;
      case 'number':
      case 'integer':
        if (typeof v === 'string' && v.trim() !== '') out[f.name] = Number(v.trim());
        break;
      case 'boolean':
        out[f.name] = v === true;
        break;
      case 'multiselect':
        if (Array.isArray(v) && (v.length || f.required)) out[f.name] = v;
        break;
      case 'unsupported':
        break;
    }
  }
  return out;
}
