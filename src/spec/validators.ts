import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type {
  Ajv2020,
  CodeKeywordDefinition,
  KeywordCxt,
  Name,
  ValidateFunction,
} from 'ajv/dist/2020.js';
import { required } from '../shared/defined.js';
import { numberSourceOf } from '../shared/json-body.js';
import { AmountError, parseAmount } from '../shared/money.js';
import type { LoadedSpec } from './load.js';
import { loadPrecompiledValidators, sha256 } from './precompiled.js';

// The request's field errors live in field-errors.ts; the request pipeline reads them from here too.
export { coerceQuery, toFieldErrors } from './field-errors.js';

// Ajv (and ajv-formats) are loaded on first use: the built server starts from validators generated at
// build time (src/spec/precompile.ts) and never needs the compiler unless a response is checked.
const require = createRequire(import.meta.url);
type AjvModule = typeof import('ajv/dist/2020.js');

export const SPEC_ID = 'paysandbox-openapi';

function pointer(...parts: string[]): string {
  return parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
}

/** Point a schema's local `#/...` refs at the document, so it can be compiled on its own. */
function anchorRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(anchorRefs);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' && v.startsWith('#') ? SPEC_ID + v : anchorRefs(v),
    ]),
  );
}

/**
 * `x-amount`: a money input must parse exactly (no exponent, sign, >8 decimals, zero). Null when it does.
 * A JSON number is judged by the text the client wrote when `JSON.parse` may not have kept it (`1e2`,
 * `12345678.123456789`, `90071992.54740993`), exactly as the same text in a string: the body parser
 * remembers that text by its container and key (src/shared/json-body.ts). When such a number is a valid
 * amount, that text also takes the number's place in the body (the schema takes a number or a string),
 * so the handler moves exactly what the client wrote, not the nearest double (`…992.54740994`).
 */
export function amountProblem(data: unknown, parent?: unknown, key?: unknown): string | null {
  const source = typeof data === 'number' ? numberSourceOf(parent, key) : undefined;
  try {
    parseAmount(source ?? data);
  } catch (err) {
    if (!(err instanceof AmountError)) throw err;
    return err.message;
  }
  if (source !== undefined) (parent as Record<string, unknown>)[key as string] = source;
  return null;
}

/** What generated validator code may call (see `runtime.*` in the keyword below). */
export const VALIDATOR_RUNTIME = { amountProblem };

/**
 * The `x-amount` keyword as generated code (so that it can also be written out as standalone code):
 * a failure reports `{keyword: 'x-amount', message: <the AmountError message>, params: {}}`.
 */
function amountKeyword(ajv: AjvModule): CodeKeywordDefinition {
  const { _ } = ajv;
  const messages = new WeakMap<KeywordCxt, Name>();
  return {
    keyword: 'x-amount',
    type: ['number', 'string'],
    code(cxt) {
      const fn = cxt.gen.scopeValue('func', { ref: amountProblem, code: _`runtime.amountProblem` });
      const message = cxt.gen.const(
        'amountProblem',
        _`${fn}(${cxt.data}, ${cxt.it.parentData}, ${cxt.it.parentDataProperty})`,
      );
      messages.set(cxt, message);
      cxt.fail(_`${message} !== null`);
    },
    error: {
      message: (cxt) =>
        _`${required(messages.get(cxt as KeywordCxt), 'the message the x-amount code named')}`,
      params: () => _`{}`,
    },
  };
}

/** The one Ajv 2020 instance of the document, with the document added whole and the `x-amount` keyword. */
export function createAjv(spec: LoadedSpec, opts: { standalone?: boolean } = {}): Ajv2020 {
  const ajvModule = require('ajv/dist/2020.js') as AjvModule;
  const formats = require('ajv-formats') as { default?: (ajv: Ajv2020) => void } & ((
    ajv: Ajv2020,
  ) => void);
  // ajv-formats is CommonJS; its function is the module itself or its `default`.
  const addFormats = formats.default ?? formats;
  const { _ } = ajvModule;
  const ajv = new ajvModule.Ajv2020({
    allErrors: true,
    verbose: true,
    strict: true,
    strictTypes: false,
    strictTuples: false,
    ...(opts.standalone
      ? { code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` } }
      : {}),
  });
  addFormats(ajv);
  // The document is added whole so `#/components/...` refs resolve; its OpenAPI-only keys are not schema.
  ajv.addVocabulary([
    'example',
    'openapi',
    'info',
    'servers',
    'tags',
    'paths',
    'components',
    'security',
    'webhooks',
    'x-hosted-page',
    'x-hosted-request-page',
  ]);
  ajv.addKeyword(amountKeyword(ajvModule));
  ajv.addSchema(spec.document as object, SPEC_ID);
  return ajv;
}

/**
 * What generated validators must have been generated from to be used: this YAML, this module (its
 * schemas, Ajv options and keyword) and this Ajv. A build from an older source is simply not used.
 */
export function validatorsFingerprint(spec: LoadedSpec): string | undefined {
  if (!spec.sourceSha256) return undefined;
  const ajvVersion = (require('ajv/package.json') as { version: string }).version;
  return sha256(
    `${spec.sourceSha256}\n${ajvVersion}\n${readFileSync(fileURLToPath(import.meta.url), 'utf8')}`,
  );
}

/** One request schema of an operation: its query parameters or its JSON body. */
export interface RequestSchema {
  operationId: string;
  part: 'query' | 'body';
  /** Name of the validator in generated code. */
  exportName: string;
  schema: object;
}

/** Every request validator the server needs: query parameters and JSON bodies, per operation. */
export function requestSchemas(spec: LoadedSpec): RequestSchema[] {
  const out: RequestSchema[] = [];
  for (const op of spec.operations) {
    const queryParams = op.parameters.filter((p) => p.in === 'query');
    if (queryParams.length) {
      out.push({
        operationId: op.operationId,
        part: 'query',
        exportName: `query_${op.operationId}`,
        schema: {
          type: 'object',
          properties: Object.fromEntries(
            queryParams.map((p) => [p.name, anchorRefs(p.schema ?? {})]),
          ),
        },
      });
    }
    if (op.hasBody) {
      out.push({
        operationId: op.operationId,
        part: 'body',
        exportName: `body_${op.operationId}`,
        schema: {
          $ref: `${SPEC_ID}#/${pointer('paths', op.path, op.method, 'requestBody', 'content', 'application/json', 'schema')}`,
        },
      });
    }
  }
  return out;
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
  /** Where the request validators came from: generated at build time, or compiled at load. */
  source: 'precompiled' | 'compiled';
}

/**
 * One Ajv 2020 instance for the whole document; request validators are ready at start-up: the
 * standalone code generated from this same document at build time when it matches (the built
 * server), else compiled now (tests running from src/). Response validators are compiled on first use.
 */
export function compileValidators(spec: LoadedSpec): SpecValidators {
  let ajv: Ajv2020 | undefined;
  const getAjv = () => (ajv ??= createAjv(spec));
  const schemas = requestSchemas(spec);
  const precompiled = loadPrecompiledValidators(
    validatorsFingerprint(spec),
    schemas.map((s) => s.exportName),
    VALIDATOR_RUNTIME,
  );

  const requestValidators = new Map<string, OperationValidators>();
  for (const s of schemas) {
    const v = requestValidators.get(s.operationId) ?? {};
    v[s.part] = precompiled
      ? required(precompiled[s.exportName], `the precompiled validator ${s.exportName}`)
      : getAjv().compile(s.schema);
    requestValidators.set(s.operationId, v);
  }

  const responseCache = new Map<string, ValidateFunction | undefined>();
  const schemaCache = new Map<string, ValidateFunction>();
  return {
    source: precompiled ? 'precompiled' : 'compiled',
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
        if (ref) fn = getAjv().compile({ $ref: ref });
      }
      responseCache.set(key, fn);
      return fn;
    },
    schema(name) {
      let fn = schemaCache.get(name);
      if (!fn) {
        fn = getAjv().compile({ $ref: `${SPEC_ID}#/components/schemas/${name}` });
        schemaCache.set(name, fn);
      }
      return fn;
    },
  };
}
