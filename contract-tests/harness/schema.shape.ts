import type { LoadedSpec, Operation } from '../../src/spec/load.js';

/** Depth of the shapes compared in the drift report (envelope → resource → field). */
const MAX_DEPTH = 3;

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'number' && Number.isInteger(v) ? 'integer' : typeof v;
}

/**
 * The observed shape of a JSON body as sorted `path:type` entries, e.g. `invoice.amount:string`,
 * `invoice.payments[].id:string`; arrays are described by their first item.
 */
export function shapeOf(value: unknown, prefix = '', depth = 0): string[] {
  const out: string[] = [];
  if (prefix) out.push(`${prefix}:${typeOf(value)}`);
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return out;
  if (Array.isArray(value)) {
    if (value.length)
      out.push(
        ...shapeOf(value[0], `${prefix}[]`, depth + 1).filter((e) => !e.startsWith(`${prefix}[]:`)),
      );
    return out;
  }
  for (const [k, v] of Object.entries(value))
    out.push(...shapeOf(v, prefix ? `${prefix}.${k}` : k, depth + 1));
  return prefix ? out : out.sort();
}

type SchemaNode = Record<string, unknown>;

function resolve(spec: LoadedSpec, node: unknown): SchemaNode | undefined {
  let cur = node as SchemaNode | undefined;
  for (let i = 0; cur && typeof cur.$ref === 'string' && i < 10; i++) {
    const parts = (cur.$ref as string).replace(/^#\//, '').split('/');
    let next: unknown = spec.document;
    for (const p of parts)
      next = (next as Record<string, unknown> | undefined)?.[
        p.replaceAll('~1', '/').replaceAll('~0', '~')
      ];
    cur = next as SchemaNode | undefined;
  }
  return cur;
}

/** The JSON schema of one documented response, or undefined when the status has no JSON body. */
export function responseSchema(
  spec: LoadedSpec,
  op: Operation,
  status: number | string,
): SchemaNode | undefined {
  const responses = (
    spec.document.paths?.[op.path] as
      Record<string, { responses?: Record<string, unknown> }> | undefined
  )?.[op.method]?.responses;
  const response = resolve(spec, responses?.[String(status)]);
  const content = response?.content as Record<string, { schema?: unknown }> | undefined;
  return resolve(spec, content?.['application/json']?.schema);
}

/** Required and known property paths of a schema (allOf merged), as `path` without types. */
export function documentedShape(
  spec: LoadedSpec,
  schema: SchemaNode | undefined,
): { required: string[]; known: string[] } {
  const required = new Set<string>();
  const known = new Set<string>();
  function walk(
    node: SchemaNode | undefined,
    prefix: string,
    depth: number,
    isRequired: boolean,
  ): void {
    node = resolve(spec, node);
    if (!node || depth >= MAX_DEPTH) return;
    for (const part of (node.allOf as unknown[] | undefined) ?? [])
      walk(part as SchemaNode, prefix, depth, isRequired);
    const items = resolve(spec, node.items);
    if (items) walk(items, `${prefix}[]`, depth + 1, false);
    const props = (node.properties ?? {}) as Record<string, unknown>;
    const req = new Set((node.required as string[] | undefined) ?? []);
    for (const [name, sub] of Object.entries(props)) {
      const path = prefix ? `${prefix}.${name}` : name;
      known.add(path);
      if (isRequired && req.has(name)) required.add(path);
      walk(sub as SchemaNode, path, depth + 1, isRequired && req.has(name));
    }
    for (const name of req)
      if (!props[name] && isRequired) required.add(prefix ? `${prefix}.${name}` : name);
  }
  walk(schema, '', 0, true);
  return { required: [...required].sort(), known: [...known].sort() };
}
