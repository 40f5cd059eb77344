import type { ErrorObject } from 'ajv/dist/2020.js';
import type { FieldErrors } from '../shared/api-error.js';
import type { Operation } from './load.js';

/**
 * Bad request input as field errors, `{"<field>": ["<message>"]}`, in the wording of the real service
 * (DRF style): Ajv's errors of a body or query, and query strings that are not the type their
 * parameter asks for.
 */

const TYPE_MESSAGES: Record<string, string> = {
  number: 'A valid number is required.',
  integer: 'A valid integer is required.',
  string: 'Not a valid string.',
  boolean: 'Must be a valid boolean.',
  object: 'Expected a dictionary of items.',
  array: 'Expected a list of items.',
};

function messageOf(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return 'This field is required.';
    case 'type': {
      const types = ([] as string[])
        .concat(p.type as string | string[])
        .filter((t) => t !== 'null');
      if (types.includes('number') && types.includes('string'))
        return 'A valid number is required.';
      return TYPE_MESSAGES[types[0] ?? ''] ?? 'Invalid value.';
    }
    case 'maxLength':
      return `Ensure this field has no more than ${p.limit} characters.`;
    case 'minLength':
      return p.limit === 1
        ? 'This field may not be blank.'
        : `Ensure this field has at least ${p.limit} characters.`;
    case 'enum':
    case 'const':
      return `"${String(e.data)}" is not a valid choice.`;
    case 'format':
      return p.format === 'email'
        ? 'Enter a valid email address.'
        : p.format === 'uri'
          ? 'Enter a valid URL.'
          : 'Enter a valid value.';
    case 'pattern':
      return 'Enter a valid value.';
    case 'minimum':
      return `Ensure this value is greater than or equal to ${p.limit}.`;
    case 'exclusiveMinimum':
      return `Ensure this value is greater than ${p.limit}.`;
    case 'maximum':
      return `Ensure this value is less than or equal to ${p.limit}.`;
    case 'minItems':
      return p.limit === 1
        ? 'This list may not be empty.'
        : `Ensure this list has at least ${p.limit} items.`;
    case 'uniqueItems':
      return 'Duplicate values are not allowed.';
    case 'minProperties':
      return 'This field may not be empty.';
    default:
      return e.message ?? 'Invalid value.';
  }
}

/**
 * Ajv errors → `{"<field>": ["<message>"]}` in the wording of the real service (DRF style). `fullPaths`:
 * the field is the whole path (`tables.invoices[2].status`) instead of its top-level name.
 */
export function toFieldErrors(
  errors: ErrorObject[] | null | undefined,
  fullPaths = false,
): FieldErrors {
  // A Map, not an object: a field may be named `constructor` or `__proto__` by the client.
  const out = new Map<string, string[]>();
  const listOf = (field: string) => {
    let list = out.get(field);
    if (!list) out.set(field, (list = []));
    return list;
  };
  for (const e of errors ?? []) {
    // Branch failures of oneOf/anyOf repeat what the branch errors already say.
    if (e.keyword === 'oneOf' || e.keyword === 'anyOf' || e.keyword === 'if') continue;
    const segments = e.instancePath.split('/').filter(Boolean);
    let field = fullPaths
      ? fullPath(segments)
      : segments[0]?.replaceAll('~1', '/').replaceAll('~0', '~');
    if (e.keyword === 'required' && (fullPaths || segments.length === 0)) {
      const missing = String((e.params as { missingProperty: string }).missingProperty);
      field = fullPaths && segments.length ? `${field}.${missing}` : missing;
    }
    if (fullPaths && e.keyword === 'additionalProperties') {
      const extra = String((e.params as { additionalProperty: string }).additionalProperty);
      field = segments.length ? `${field}.${extra}` : extra;
    }
    if (!field) {
      field = 'non_field_errors';
      if (e.keyword === 'type') {
        listOf(field).push(
          'Invalid data. Expected a dictionary, but got ' +
            (e.data === null ? 'null' : Array.isArray(e.data) ? 'list' : typeof e.data) +
            '.',
        );
        continue;
      }
    }
    const msg = messageOf(e);
    const list = listOf(field);
    if (!list.includes(msg)) list.push(msg);
  }
  return Object.fromEntries(out);
}

/** JSON pointer segments as a field path: `tables.invoices[2].status`. */
function fullPath(segments: string[]): string | undefined {
  let out = '';
  for (const raw of segments) {
    const seg = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    out += /^\d+$/.test(seg) ? `[${seg}]` : `${out ? '.' : ''}${seg}`;
  }
  return out || undefined;
}

/** Turn raw query strings into the types the parameter schemas ask for, or a field message. */
export function coerceQuery(
  op: Operation,
  raw: Record<string, string>,
): { values: Record<string, unknown>; errors: FieldErrors } {
  const values: Record<string, unknown> = {};
  const errors: FieldErrors = {};
  for (const p of op.parameters) {
    if (p.in !== 'query') continue;
    const text = raw[p.name];
    if (text === undefined) continue;
    const type = (p.schema as { type?: string } | undefined)?.type;
    if (type === 'integer') {
      if (!/^-?\d{1,15}$/.test(text)) errors[p.name] = ['A valid integer is required.'];
      else values[p.name] = Number(text);
    } else if (type === 'number') {
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n))
        errors[p.name] = ['A valid number is required.'];
      else values[p.name] = n;
    } else values[p.name] = text;
  }
  return { values, errors };
}
