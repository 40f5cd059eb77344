import fc from 'fast-check';

/** A JSON Schema node of the document (OpenAPI 3.1 = JSON Schema 2020-12, plus our `x-amount`). */
export type Schema = { [key: string]: any };

/** Resolves a local `#/...` reference of the document. */
export type Resolve = (ref: string) => Schema;

export function documentResolver(document: unknown): Resolve {
  return (ref) => {
    let cur: unknown = document;
    for (const part of ref.replace(/^#\//, '').split('/')) {
      const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
      cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[key] : undefined;
    }
    if (!cur || typeof cur !== 'object') throw new Error(`unresolvable $ref ${ref}`);
    return cur as Schema;
  };
}

/** The schema itself with `$ref` and `allOf` folded in (one level of properties is what we need). */
export function flatten(schema: Schema, resolve: Resolve): Schema {
  if (schema.$ref) return flatten({ ...resolve(schema.$ref), ...omit(schema, '$ref') }, resolve);
  if (!schema.allOf) return schema;
  const out: Schema = { ...omit(schema, 'allOf') };
  for (const part of schema.allOf as Schema[]) {
    const p = flatten(part, resolve);
    out.properties = { ...out.properties, ...p.properties };
    out.required = [...new Set([...(out.required ?? []), ...(p.required ?? [])])];
    for (const [k, v] of Object.entries(p)) if (!(k in out)) out[k] = v;
  }
  return out;
}

function omit(o: Schema, key: string): Schema {
  const { [key]: _, ...rest } = o;
  return rest;
}

/** Strings that have broken servers before: prototype keys, dot segments, globs that backtrack, odd Unicode. */
export const NASTY_STRINGS = [
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  '%2e%2e',
  '..',
  '*a'.repeat(30) + 'b',
  '**/**/**/**',
  '\u0000',
  '\ud800',
  'ğ\u0301\u200d',
  "' OR 1=1 --",
  '${x}',
  '1e400',
  '-0',
  'NaN',
];

/** Money inputs the document accepts: positive, at most 8 decimals, never exponent form. */
/**
 * Valid amounts: mostly ordinary ones (so that the success paths are reached), sometimes at the edges of
 * what the sandbox keeps exact (docs/design.md#money-bounds): the largest amount, the smallest unit, all
 * eight decimals, as numbers and as strings.
 */
export const validAmount = (max = 5000): fc.Arbitrary<string | number> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 1, max }) },
    {
      weight: 4,
      arbitrary: fc
        .tuple(fc.integer({ min: 0, max: max - 1 }), fc.integer({ min: 1, max: 99 }))
        .map(([a, b]) => `${a}.${String(b).padStart(2, '0')}`),
    },
    { weight: 4, arbitrary: fc.integer({ min: 1, max }).map(String) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<string | number>(
        '10000000000',
        10000000000,
        '9999999999.99999999',
        '0.00000001',
        0.00000001,
        '1.12345678',
        1.12345678,
        '12345678.12345678',
      ),
    },
  );

const plainString = (min: number, max: number) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, 24) }) },
    {
      weight: 2,
      arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, 24), unit: 'grapheme' }),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        ...NASTY_STRINGS.filter((s) => s.length >= min && s.length <= max),
      ),
    },
  );

const freeJson = fc.jsonValue({ maxDepth: 2 }).filter((v) => JSON.stringify(v).length < 400);

/**
 * A fast-check arbitrary of values valid for `schema` (best effort: the caller checks the result with
 * the document's own validator, and counts one that fails as an invalid request).
 */
export function arbitraryFor(schema: Schema, resolve: Resolve, depth = 0): fc.Arbitrary<unknown> {
  const s = flatten(schema, resolve);
  if ('const' in s) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...(s.enum as unknown[]));
  if (s['x-amount']) return validAmount();
  const alts = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  if (alts)
    return fc.oneof(
      ...alts.map((a) =>
        arbitraryFor({ ...omit(omit(s, 'oneOf'), 'anyOf'), ...a }, resolve, depth),
      ),
    );
  const types: string[] = s.type === undefined ? [] : ([] as string[]).concat(s.type);
  if (types.length > 1)
    return fc.oneof(...types.map((t) => arbitraryFor({ ...s, type: t }, resolve, depth)));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1000);
      return fc.integer({ min, max: s.maximum ?? min + 100_000 });
    }
    case 'number': {
      const min = s.minimum ?? s.exclusiveMinimum ?? -1000;
      const max = s.maximum ?? min + 100_000;
      const n = fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
      return s.exclusiveMinimum !== undefined ? n.filter((x) => x > s.exclusiveMinimum) : n;
    }
    case 'string':
      return stringFor(s);
    case 'array': {
      const items = s.items ? arbitraryFor(s.items, resolve, depth + 1) : freeJson;
      const c = { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 4, 4) };
      return s.uniqueItems
        ? fc.uniqueArray(items, { ...c, selector: (v) => JSON.stringify(v) })
        : fc.array(items, c);
    }
    case 'object':
      return objectFor(s, resolve, depth);
    default:
      return s.properties ? objectFor(s, resolve, depth) : freeJson;
  }
}

function stringFor(s: Schema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? 64;
  if (s.pattern)
    return fc
      .stringMatching(new RegExp(s.pattern))
      .filter((x) => x.length >= min && x.length <= max);
  if (s.format === 'email') return fc.emailAddress().filter((x) => x.length <= max);
  // A URL that stays on this machine: a sandbox may call it back (network use is 127.0.0.1 only).
  if (s.format === 'uri') return fc.nat(9999).map((n) => `http://127.0.0.1:9/cb/${n}`);
  return plainString(min, max);
}

function objectFor(s: Schema, resolve: Resolve, depth: number): fc.Arbitrary<unknown> {
  const props = (s.properties ?? {}) as Record<string, Schema>;
  if (!Object.keys(props).length || depth > 4)
    return fc.dictionary(fc.string({ maxLength: 8 }), freeJson, { maxKeys: 4 });
  const model = Object.fromEntries(
    Object.entries(props).map(([k, v]) => [k, arbitraryFor(v, resolve, depth + 1)]),
  );
  return fc.record(model, { requiredKeys: (s.required ?? []) as string[] });
}
