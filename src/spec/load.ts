import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { oas31 } from 'openapi3-ts';
import { readPrecompiledDocument, sha256 } from './precompiled.js';

// `yaml` is loaded only when the document must be parsed: the built server reads the JSON copy that
// `npm run build` writes (src/spec/precompile.ts) as long as the YAML has not changed since.
const require = createRequire(import.meta.url);

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
export const METHODS: readonly HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * `merchant-or-public`: a merchant credential when one is sent, none at all accepted too (an operation
 * whose security list also holds the empty requirement `{}`).
 */
export type AuthKind = 'none' | 'merchant' | 'merchant-or-public' | 'hmac' | 'control';

export interface Operation {
  operationId: string;
  method: HttpMethod;
  /** Path as written in the document, e.g. `/v3/invoices/{invoice_id}/`. */
  path: string;
  tags: string[];
  auth: AuthKind;
  parameters: oas31.ParameterObject[];
  hasBody: boolean;
  bodyRequired: boolean;
  /**
   * `x-sandbox-field-paths: full` on the operation: a body error names the whole path of the field at
   * fault (`tables.invoices[2].status`), not only its top-level field (a long document such as an
   * imported snapshot).
   */
  fullFieldPaths: boolean;
  /**
   * The JSON type of each top-level body property whose schema names exactly one (`integer`, `number`,
   * `boolean` …): how a form-encoded body's text values become the same fields as JSON.
   */
  bodyTypes: Record<string, string>;
  /** Response status codes the document lists. */
  statuses: string[];
}

export interface LoadedSpec {
  document: oas31.OpenAPIObject;
  yamlText: string;
  /** SHA-256 of `yamlText`: what build-time artifacts are matched against. */
  sourceSha256?: string;
  operations: Operation[];
  byId: Map<string, Operation>;
}

/** Root of the package (works from `src/` under tsx and from `dist/src/` when built). */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      readFileSync(join(dir, 'openapi', 'openapi.yaml'));
      return dir;
    } catch {
      dir = dirname(dir);
    }
  }
  throw new Error('openapi/openapi.yaml not found above ' + fileURLToPath(import.meta.url));
}

export function specPath(): string {
  return join(packageRoot(), 'openapi', 'openapi.yaml');
}

function resolveRef<T>(doc: oas31.OpenAPIObject, value: T | oas31.ReferenceObject): T {
  if (value && typeof value === 'object' && '$ref' in value) {
    const parts = value.$ref.replace(/^#\//, '').split('/');
    let cur: unknown = doc;
    for (const p of parts)
      cur = (cur as Record<string, unknown>)[p.replaceAll('~1', '/').replaceAll('~0', '~')];
    return cur as T;
  }
  return value as T;
}

/** Top-level property types of a JSON request body (see `Operation.bodyTypes`). */
function bodyTypesOf(
  doc: oas31.OpenAPIObject,
  body: oas31.RequestBodyObject | undefined,
): Record<string, string> {
  const raw = body?.content?.['application/json']?.schema;
  const schema = raw ? resolveRef<oas31.SchemaObject>(doc, raw) : undefined;
  const types: Record<string, string> = {};
  for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
    const type = resolveRef<oas31.SchemaObject>(doc, prop).type;
    if (typeof type === 'string') types[name] = type;
  }
  return types;
}

/** The kind of caller an operation's security list admits (the generated operation types carry it too). */
export function authOf(security: oas31.SecurityRequirementObject[] | undefined): AuthKind {
  const names = new Set((security ?? []).flatMap((s) => Object.keys(s)));
  if (names.has('controlToken')) return 'control';
  if (names.has('accessKey')) return 'hmac';
  if (names.has('merchantToken') || names.has('merchantBearer')) {
    return (security ?? []).some((s) => Object.keys(s).length === 0)
      ? 'merchant-or-public'
      : 'merchant';
  }
  return 'none';
}

/** Parse the YAML document (the source of truth). */
export function parseYamlDocument(yamlText: string): oas31.OpenAPIObject {
  const { parse } = require('yaml') as typeof import('yaml');
  return parse(yamlText) as oas31.OpenAPIObject;
}

/**
 * Read the document and list its operations. `precompiled: false` always parses the YAML (the build
 * step does, to write the JSON copy).
 */
export function loadSpec(path = specPath(), opts: { precompiled?: boolean } = {}): LoadedSpec {
  const yamlText = readFileSync(path, 'utf8');
  const sourceSha256 = sha256(yamlText);
  const document =
    (opts.precompiled !== false && readPrecompiledDocument(sourceSha256)) ||
    parseYamlDocument(yamlText);
  const operations: Operation[] = [];
  for (const [p, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const op = (item as oas31.PathItemObject)[method];
      if (!op) continue;
      if (!op.operationId) throw new Error(`${method.toUpperCase()} ${p} has no operationId`);
      const body = op.requestBody
        ? resolveRef<oas31.RequestBodyObject>(document, op.requestBody)
        : undefined;
      operations.push({
        operationId: op.operationId,
        method,
        path: p,
        tags: op.tags ?? [],
        auth: authOf(op.security ?? document.security),
        parameters: (op.parameters ?? []).map((x) =>
          resolveRef<oas31.ParameterObject>(document, x),
        ),
        hasBody: Boolean(body),
        bodyRequired: Boolean(body?.required),
        fullFieldPaths: (op as Record<string, unknown>)['x-sandbox-field-paths'] === 'full',
        bodyTypes: bodyTypesOf(document, body),
        statuses: Object.keys(op.responses ?? {}),
      });
    }
  }
  const byId = new Map(operations.map((o) => [o.operationId, o]));
  if (byId.size !== operations.length) throw new Error('duplicate operationId in the document');
  return { document, yamlText, sourceSha256, operations, byId };
}
