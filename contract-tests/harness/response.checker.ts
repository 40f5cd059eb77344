import type { ErrorObject } from 'ajv';
import { errorCodesOf, type ApiResponse } from '../../src/client/index.js';
import { loadSpec, type LoadedSpec, type Operation } from '../../src/spec/load.js';
import { compileValidators, type SpecValidators } from '../../src/spec/validators.js';
import { shapeOf } from './schema.shape.js';

export type FindingKind = 'status' | 'not-implemented' | 'content-type' | 'schema' | 'expectation';

export interface Finding {
  kind: FindingKind;
  message: string;
}

/** One response as the contract saw it. */
export interface Observation {
  caseName: string;
  /** The operation of the document, or null for a path the document does not have. */
  operationId: string | null;
  method: string;
  /** The document path of the operation, or the request path when none matched. */
  path: string;
  url: string;
  status: number;
  contentType: string | null;
  documentedStatuses: string[];
  /** `path:type` entries of the JSON body. */
  shape: string[];
  findings: Finding[];
  excerpt: string;
  /** Set once a failure message of a case has shown these findings. */
  reported: boolean;
}

export interface ContractSpec {
  spec: LoadedSpec;
  validators: SpecValidators;
}

let cached: ContractSpec | undefined;
/** openapi/openapi.yaml with its compiled validators, once per process. */
export function contractSpec(): ContractSpec {
  if (!cached) {
    const spec = loadSpec();
    cached = { spec, validators: compileValidators(spec) };
  }
  return cached;
}

const LEGACY = /^\/(?:api\/(v[23])|d\/api)(?=\/)/;

/** The operation a request was for: by method and path, legacy prefixes and trailing slashes included. */
export function matchOperation(
  spec: LoadedSpec,
  method: string,
  pathname: string,
): Operation | undefined {
  const clean = pathname
    .replace(LEGACY, (_m, v: string | undefined) => (v ? `/${v}` : '/v1'))
    .replace(/(.)\/$/, '$1');
  const m = method.toLowerCase();
  return spec.operations.find((o) => {
    if (o.method !== m) return false;
    const re = new RegExp(`^${o.path.replace(/(.)\/$/, '$1').replace(/\{[^{}]+\}/g, '[^/]+')}$`);
    return re.test(clean);
  });
}

function formatAjvError(e: ErrorObject): string {
  const at = e.instancePath || '(body)';
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `${at} is missing required field "${String(p.missingProperty)}"`;
    case 'pattern':
      return `${at} = ${JSON.stringify(e.data)} does not match ${String(p.pattern)}`;
    case 'type':
      return `${at} = ${JSON.stringify(e.data)?.slice(0, 60)} is not of type ${String(p.type)}`;
    case 'enum':
      return `${at} = ${JSON.stringify(e.data)} is not one of ${JSON.stringify(p.allowedValues)}`;
    case 'const':
      return `${at} = ${JSON.stringify(e.data)} is not ${JSON.stringify(p.allowedValue)}`;
    case 'minimum':
    case 'exclusiveMinimum':
      return `${at} = ${JSON.stringify(e.data)} must be ${e.keyword === 'minimum' ? '>=' : '>'} ${String(p.limit)}`;
    default:
      return `${at} ${e.message ?? e.keyword}`;
  }
}

export function schemaMessages(errors: ErrorObject[] | null | undefined, max = 8): string[] {
  const msgs = (errors ?? [])
    .filter((e) => !['oneOf', 'anyOf', 'allOf', 'if'].includes(e.keyword))
    .map(formatAjvError);
  return [...new Set(msgs)].slice(0, max);
}

/**
 * An error body in the shape of another API: the real developer API's errors carry no `error_codes`,
 * the real merchant API's always do (docs/fidelity.md). The 2FA failure has its own body.
 */
function surfaceMismatch(op: Operation, res: ApiResponse): string | undefined {
  if (
    res.status < 400 ||
    typeof res.body !== 'object' ||
    res.body === null ||
    'success' in res.body
  )
    return undefined;
  const has = 'error_codes' in res.body;
  if (op.tags.includes('developer') && has)
    return `a developer-API error carries "error_codes"; the real body is {"errors": …} alone`;
  if (op.tags.includes('invoices') && !has)
    return `a merchant-API error lacks "error_codes"; the real body always has it ([] when it names no code)`;
  return undefined;
}

/**
 * Checks every response against openapi/openapi.yaml: the status is one the operation documents, a
 * documented JSON body comes with `Content-Type: application/json`, the body matches the schema of
 * that status, and error codes are documented ones (the envelope schema lists them).
 */
export function createChecker(contract: ContractSpec = contractSpec(), basePath = '') {
  const { spec, validators } = contract;
  const errorBody = validators.schema('ErrorBody');

  return function check(res: ApiResponse, caseName: string): Observation {
    let pathname = new URL(res.url).pathname;
    if (basePath && pathname.startsWith(basePath))
      pathname = pathname.slice(basePath.length) || '/';
    // An injected fault answers for the sandbox (`X-Sandbox-Fault`), not for the operation: its status
    // and body are what the fault was told to send, not something the document promises.
    const injected = res.headers.get('x-sandbox-fault') !== null;
    const op = injected
      ? undefined
      : ((res.operationId ? spec.byId.get(res.operationId) : undefined) ??
        matchOperation(spec, res.method, pathname));
    const contentType = res.headers.get('content-type');
    const findings: Finding[] = [];
    const isJson = typeof res.body === 'object' && res.body !== null;
    const add = (kind: FindingKind, message: string) => findings.push({ kind, message });

    if (op) {
      const documented = op.statuses.includes(String(res.status));
      if (res.status === 501 && errorCodesOf(res.body).includes('not_implemented')) {
        add(
          'not-implemented',
          `answered 501 not_implemented: ${op.operationId} is not implemented on this target yet`,
        );
      } else if (!documented) {
        add(
          'status',
          `status ${res.status} is not documented for ${op.operationId} (documented: ${op.statuses.join(', ')})`,
        );
      }
      const validate = documented ? validators.response(op.operationId, res.status) : undefined;
      if (validate) {
        if (!/^application\/json\b/i.test(contentType ?? ''))
          add(
            'content-type',
            `Content-Type is ${JSON.stringify(contentType)}, the document says application/json`,
          );
        if (!isJson) add('schema', `body is not JSON: ${JSON.stringify(res.text.slice(0, 80))}`);
        else if (!validate(res.body))
          for (const m of schemaMessages(validate.errors)) add('schema', m);
      } else if (documented && res.text.length > 0) {
        add(
          'schema',
          `the document has no body for ${res.status}, got ${JSON.stringify(res.text.slice(0, 80))}`,
        );
      }
      const surface = surfaceMismatch(op, res);
      if (surface) add('schema', surface);
    } else if (res.status >= 400) {
      // Not an operation of the document (unknown path, wrong method): still the one error envelope.
      if (!/^application\/json\b/i.test(contentType ?? ''))
        add(
          'content-type',
          `Content-Type is ${JSON.stringify(contentType)}, the document says application/json`,
        );
      if (!isJson || !errorBody(res.body))
        add(
          'schema',
          `not an error body: ${schemaMessages(errorBody.errors).join('; ') || res.text.slice(0, 80)}`,
        );
    }

    return {
      caseName,
      operationId: op?.operationId ?? null,
      method: res.method.toUpperCase(),
      path: op?.path ?? pathname,
      url: res.url,
      status: res.status,
      contentType,
      documentedStatuses: op?.statuses ?? [],
      shape: isJson ? shapeOf(res.body) : [],
      findings,
      excerpt: res.text.slice(0, 300),
      reported: false,
    };
  };
}

export type Checker = ReturnType<typeof createChecker>;
