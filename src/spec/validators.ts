import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FieldErrors } from '../http/api-error.js';
import { AmountError, parseAmount } from '../shared/money.js';
import type { LoadedSpec, Operation } from './load.js';

// ajv-formats is CommonJS; its default export arrives as the module object under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => void;

const SPEC_ID = 'paysandbox-openapi';

function pointer(...parts: string[]): string {
  return parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
}

/** Point a schema's local `#/...` refs at the document, so it can be compiled on its own. */
function anchorRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(anchorRefs);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#') ? SPEC_ID + v : anchorRefs(v)]),
  );
}

export interface OperationValidators {
  query?: ValidateFunction;
  body?: ValidateFunction;
}

export interface SpecValidators {
  forOperation(operationId: string): OperationValidators;
  /** Validator of a response body for an operation and status (tests and the contract kit). */
  response(operationId: string, status: number | string): ValidateFunction | undefined;
  /** Validator of a named component schema. */
  schema(name: string): ValidateFunction;
}

/**
 * One Ajv 2020 instance for the whole document; request validators are compiled once, at start-up.
 * Response validators are compiled on first use and cached.
 */
export function compileValidators(spec: LoadedSpec): SpecValidators {
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictTypes: false, strictTuples: false });
  addFormats(ajv);
  // The document is added whole so `#/components/...` refs resolve; its OpenAPI-only keys are not schema.
  ajv.addVocabulary(['example', 'openapi', 'info', 'servers', 'tags', 'paths', 'components', 'security', 'webhooks']);
  // `x-amount`: a money input must parse exactly (no exponent, sign, >8 decimals, zero).
  ajv.addKeyword({
    keyword: 'x-amount',
    type: ['number', 'string'],
    errors: true,
    validate: function amount(this: unknown, _enabled: boolean, data: unknown) {
      try {
        parseAmount(data);
        return true;
      } catch (err) {
        if (!(err instanceof AmountError)) throw err;
        (amount as unknown as { errors: Partial<ErrorObject>[] }).errors = [{ keyword: 'x-amount', message: err.message, params: {} }];
        return false;
      }
    },
  });
  ajv.addSchema(spec.document as object, SPEC_ID);

  const requestValidators = new Map<string, OperationValidators>();
  for (const op of spec.operations) {
    const v: OperationValidators = {};
    const queryParams = op.parameters.filter((p) => p.in === 'query');
    if (queryParams.length) {
      v.query = ajv.compile({
        type: 'object',
        properties: Object.fromEntries(queryParams.map((p) => [p.name, anchorRefs(p.schema ?? {})])),
      });
    }
    if (op.hasBody) {
      v.body = ajv.compile({
        $ref: `${SPEC_ID}#/${pointer('paths', op.path, op.method, 'requestBody', 'content', 'application/json', 'schema')}`,
      });
    }
    requestValidators.set(op.operationId, v);
  }

  const responseCache = new Map<string, ValidateFunction | undefined>();
  const schemaCache = new Map<string, ValidateFunction>();
  return {
    forOperation: (id) => requestValidators.get(id) ?? {},
    response(operationId, status) {
      const key = `${operationId} ${status}`;
      if (responseCache.has(key)) return responseCache.get(key);
      const op = spec.byId.get(operationId);
      let fn: ValidateFunction | undefined;
      if (op) {
        const raw = spec.document.paths?.[op.path]?.[op.method]?.responses?.[String(status)];
        let ref: string | undefined;
        if (raw && '$ref' in raw) ref = `${SPEC_ID}${raw.$ref}/content/application~1json/schema`;
        else if (raw?.content?.['application/json']) {
          ref = `${SPEC_ID}#/${pointer('paths', op.path, op.method, 'responses', String(status), 'content', 'application/json', 'schema')}`;
        }
        if (ref) fn = ajv.compile({ $ref: ref });
      }
      responseCache.set(key, fn);
      return fn;
    },
    schema(name) {
      let fn = schemaCache.get(name);
      if (!fn) {
        fn = ajv.compile({ $ref: `${SPEC_ID}#/components/schemas/${name}` });
        schemaCache.set(name, fn);
      }
      return fn;
    },
  };
}

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
      const types = ([] as string[]).concat(p.type as string | string[]).filter((t) => t !== 'null');
      if (types.includes('number') && types.includes('string')) return 'A valid number is required.';
      return TYPE_MESSAGES[types[0] ?? ''] ?? 'Invalid value.';
    }
    case 'maxLength':
      return `Ensure this field has no more than ${p.limit} characters.`;
    case 'minLength':
      return p.limit === 1 ? 'This field may not be blank.' : `Ensure this field has at least ${p.limit} characters.`;
    case 'enum':
    case 'const':
      return `"${String(e.data)}" is not a valid choice.`;
    case 'format':
      return p.format === 'email' ? 'Enter a valid email address.' : p.format === 'uri' ? 'Enter a valid URL.' : 'Enter a valid value.';
    case 'pattern':
      return 'Enter a valid value.';
    case 'minimum':
      return `Ensure this value is greater than or equal to ${p.limit}.`;
    case 'exclusiveMinimum':
      return `Ensure this value is greater than ${p.limit}.`;
    case 'maximum':
      return `Ensure this value is less than or equal to ${p.limit}.`;
    case 'minItems':
      return p.limit === 1 ? 'This list may not be empty.' : `Ensure this list has at least ${p.limit} items.`;
    case 'uniqueItems':
      return 'Duplicate values are not allowed.';
    case 'minProperties':
      return 'This field may not be empty.';
    default:
      return e.message ?? 'Invalid value.';
  }
}

/** Ajv errors → `{"<field>": ["<message>"]}` in the wording of the real service (DRF style). */
export function toFieldErrors(errors: ErrorObject[] | null | undefined): FieldErrors {
  const out: FieldErrors = {};
  for (const e of errors ?? []) {
    // Branch failures of oneOf/anyOf repeat what the branch errors already say.
    if (e.keyword === 'oneOf' || e.keyword === 'anyOf' || e.keyword === 'if') continue;
    const segments = e.instancePath.split('/').filter(Boolean);
    let field = segments[0]?.replaceAll('~1', '/').replaceAll('~0', '~');
    if (e.keyword === 'required' && segments.length === 0) field = String((e.params as { missingProperty: string }).missingProperty);
    if (!field) {
      field = 'non_field_errors';
      if (e.keyword === 'type') {
        (out[field] ??= []).push('Invalid data. Expected a dictionary, but got ' + (Array.isArray(e.data) ? 'list' : typeof e.data) + '.');
        continue;
      }
    }
    const msg = messageOf(e);
    const list = (out[field] ??= []);
    if (!list.includes(msg)) list.push(msg);
  }
  return out;
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
      if (text.trim() === '' || !Number.isFinite(n)) errors[p.name] = ['A valid number is required.'];
      else values[p.name] = n;
    } else values[p.name] = text;
  }
  return { values, errors };
}
