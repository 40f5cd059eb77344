import fc from 'fast-check';
import type { Draft } from './fuzz.request.js';
import { flatten, NASTY_STRINGS, type Resolve, type Schema } from './schema.arbitrary.js';

/** Nested arrays `depth` deep: under the 64 KiB body limit up to ~30,000 levels. */
export const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** Every JSON type, to pick one a field does not allow. */
const SAMPLES: Array<[string, unknown]> = [
  ['string', 'x'],
  ['number', 1.5],
  ['integer', 7],
  ['boolean', true],
  ['array', []],
  ['object', {}],
  ['null', null],
];

function allowedTypes(s: Schema): string[] | undefined {
  if (s['x-amount']) return ['number', 'string'];
  if (s.type === undefined) return s.enum || 'const' in s ? ['string'] : undefined;
  const t = ([] as string[]).concat(s.type);
  return t.includes('number') ? [...t, 'integer'] : t;
}

/** How a broken draft is made from the valid one: answered 4xx (`reject`), or anything but a 5xx (`survive`). */
export interface BreakDraft {
  reject: (kind: string, patch: Partial<Draft>) => Draft;
  survive: (kind: string, patch: Partial<Draft>) => Draft;
}

/**
 * Ways to break a valid request's JSON body (`schema`, flattened): required fields missing, wrong types,
 * malformed amounts, strings over their length, bodies that are oversized, not objects or not JSON, deep
 * nesting, huge strings, unknown fields and other content types (refused cross-site on the control API).
 */
export function bodyMutations(
  valid: Draft,
  body: Record<string, unknown>,
  schema: Schema,
  resolve: Resolve,
  { reject, survive }: BreakDraft,
): Array<fc.Arbitrary<Draft>> {
  const op = valid.op;
  const out: Array<fc.Arbitrary<Draft>> = [];
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const required = (schema.required ?? []) as string[];
  if (required.length) {
    out.push(
      fc
        .constantFrom(...required)
        .map((k) => reject(`missing-${k}`, { body: { ...body, [k]: undefined } })),
    );
  }
  const typed = Object.entries(props).flatMap(([k, s]) => {
    const allowed = allowedTypes(flatten(s, resolve));
    if (!allowed) return [];
    // A developer write takes a number sent for a string field as its text (coerceCharFields), as the real
    // service does: not a wrong type there.
    const asText = op.tags.includes('developer') && allowed.includes('string');
    const wrong = SAMPLES.filter(
      ([t]) =>
        !allowed.includes(t) &&
        !(t === 'integer' && allowed.includes('number')) &&
        !(asText && (t === 'number' || t === 'integer')),
    );
    return wrong.map(([t, v]) => [k, t, v] as const);
  });
  if (typed.length)
    out.push(
      fc
        .constantFrom(...typed)
        .map(([k, t, v]) => reject(`wrong-type-${k}-${t}`, { body: { ...body, [k]: v } })),
    );
  const amounts = Object.entries(props)
    .filter(([, s]) => flatten(s, resolve)['x-amount'])
    .map(([k]) => k);
  if (amounts.length) {
    // The exponent is written into the JSON text: a parser turns `1e2` into the number 100.
    out.push(
      fc
        .tuple(
          fc.constantFrom(...amounts),
          fc.constantFrom('1e2', '1E+2', '5e-1', '1.5e3', '"1e2"'),
        )
        .map(([k, text]) =>
          reject(`exponent-${k}`, {
            raw: JSON.stringify({ ...body, [k]: '@@' }).replace('"@@"', text),
          }),
        ),
    );
    out.push(
      fc
        .tuple(
          fc.constantFrom(...amounts),
          fc.constantFrom(
            '0',
            '-5',
            '"1.123456789"',
            '"abc"',
            '""',
            '1e400',
            '"Infinity"',
            '12345678.123456789',
            '1.0000000000000001',
            '100000000000000000000000',
            '"10000000000.00000001"',
            '10000000000.00000001',
          ),
        )
        .map(([k, text]) =>
          reject(`bad-amount-${k}`, {
            raw: JSON.stringify({ ...body, [k]: '@@' }).replace('"@@"', text),
          }),
        ),
    );
  }
  const strings = Object.entries(props).filter(
    ([, s]) => flatten(s, resolve).maxLength !== undefined,
  );
  if (strings.length)
    out.push(
      fc.constantFrom(...strings).map(([k, s]) =>
        reject(`too-long-${k}`, {
          body: { ...body, [k]: 'x'.repeat(flatten(s, resolve).maxLength + 1) },
        }),
      ),
    );
  // Over the 64 KiB limit: 413 before anything is parsed.
  out.push(
    fc
      .integer({ min: 65_537, max: 200_000 })
      .map((n) =>
        reject('oversized-body', { raw: JSON.stringify({ ...body, pad: 'p'.repeat(n) }) }),
      ),
  );
  out.push(
    fc
      .constantFrom('[]', '"x"', '42', 'null', 'true')
      .map((raw) => reject('body-not-object', { raw })),
  );
  out.push(
    fc
      .constantFrom('{"a":', '{', '{"amount": 1,}', "{'a': 1}", '\u0000', '{"a":"\\x"}', '[1,2')
      .map((raw) => reject('malformed-json', { raw })),
  );
  // Deep nesting and huge strings under the body limit: no crash, whatever the verdict.
  const free = Object.entries(props)
    .filter(([, schema]) => {
      const flat = flatten(schema, resolve);
      return !allowedTypes(flat) || flat.type === 'object';
    })
    .map(([k]) => k);
  const deepKeys = free.length ? free : Object.keys(props).length ? Object.keys(props) : ['x'];
  out.push(
    fc
      .tuple(fc.constantFrom(...deepKeys), fc.constantFrom(64, 1000, 6000, 20_000), fc.boolean())
      .map(([k, depth, asObject]) => {
        // Objects take 6 bytes a level: 8,000 levels stay under the 64 KiB limit as 20,000 arrays do.
        const deep = asObject
          ? '{"a":'.repeat(Math.min(depth, 8000)) + '1' + '}'.repeat(Math.min(depth, 8000))
          : deepArray(depth);
        return survive(`deep-${k}-${depth}`, {
          raw: JSON.stringify({ ...body, [k]: '@@' }).replace('"@@"', deep),
        });
      }),
  );
  out.push(
    fc
      .tuple(
        fc.constantFrom(...deepKeys, ...Object.keys(props)),
        fc.integer({ min: 20_000, max: 60_000 }),
      )
      .map(([k, n]) => survive(`huge-${k}`, { body: { ...body, [k]: 'é'.repeat(n / 2) } })),
  );
  out.push(
    fc
      .dictionary(
        fc.constantFrom(...NASTY_STRINGS, 'unknown_field'),
        fc.jsonValue({ maxDepth: 1 }),
        { minKeys: 1, maxKeys: 3 },
      )
      .map((extra) => survive('extra-fields', { body: { ...extra, ...body } })),
  );
  // A control write that is not JSON is what a cross-site form or text/plain fetch sends: refused (403).
  const crossSite = (contentType: string) =>
    op.auth === 'control' && !contentType.startsWith('application/json');
  out.push(
    fc
      .constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/json; charset=latin1',
      )
      .map((contentType) => ({
        ...survive('content-type', { contentType, raw: JSON.stringify(body) }),
        ...(crossSite(contentType) ? { expect: 'forbidden' as const } : {}),
      })),
  );
  return out;
}
