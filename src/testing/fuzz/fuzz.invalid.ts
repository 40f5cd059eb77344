import fc from 'fast-check';
import type { AuthFault, Draft } from './fuzz.request.js';
import type { FuzzWorld } from './fuzz.world.js';
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

const objectBody = (d: Draft) =>
  d.body && typeof d.body === 'object' && !Array.isArray(d.body)
    ? (d.body as Record<string, unknown>)
    : undefined;

/**
 * Ways to break a valid request, each with what the sandbox must answer. Only the mutations that
 * apply to the operation are offered (no body, no query, no credentials...).
 */
export function invalidDraft(
  valid: Draft,
  resolve: Resolve,
  bodySchema: Schema | undefined,
  world?: FuzzWorld,
): fc.Arbitrary<Draft> {
  const op = valid.op;
  const out: Array<fc.Arbitrary<Draft>> = [];
  const body = objectBody(valid) ?? {};
  const schema = bodySchema ? flatten(bodySchema, resolve) : undefined;
  const props = (schema?.properties ?? {}) as Record<string, Schema>;
  const reject = (kind: string, patch: Partial<Draft>): Draft => ({
    ...valid,
    kind,
    expect: 'reject',
    ...patch,
  });
  const survive = (kind: string, patch: Partial<Draft>): Draft => ({
    ...valid,
    kind,
    expect: 'documented',
    ...patch,
  });

  if (schema) {
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
  }

  const pathParams = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
  if (pathParams.length) {
    // `.` and `..` are left out: every HTTP client resolves them before sending (a different URL).
    const bad = fc
      .oneof(
        fc.constantFrom(
          ...NASTY_STRINGS,
          'x'.repeat(65),
          'a'.repeat(3000),
          '0'.repeat(32),
          'F'.repeat(32),
          ' ',
        ),
        fc.string({ minLength: 1, maxLength: 40 }),
      )
      .filter((v) => v !== '.' && v !== '..');
    out.push(
      fc
        .tuple(fc.constantFrom(...pathParams), bad)
        .map(([k, v]) => reject(`bad-path-${k}`, { pathParams: { ...valid.pathParams, [k]: v } })),
    );
  }

  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const badQuery = queryParams.flatMap((p) => {
    const s = flatten((p.schema ?? {}) as Schema, resolve);
    const values: string[] = [];
    if (s.type === 'integer')
      values.push('abc', '1.5', '-1', '1e3', '', '99999999999999999999', '0x10', ' 1');
    if (s.minimum !== undefined && s.type === 'integer') values.push(String(s.minimum - 1));
    if (s.maximum !== undefined) values.push(String(s.maximum + 1));
    if (s.enum)
      values.push(
        'nope',
        s.enum[0].toUpperCase() === s.enum[0] ? 'x' : String(s.enum[0]).toUpperCase(),
      );
    if (s.maxLength !== undefined) values.push('q'.repeat(s.maxLength + 1));
    return values
      .filter((v, i, a) => a.indexOf(v) === i && v !== String(s.minimum))
      .map((v) => [p.name, v] as [string, string]);
  });
  if (badQuery.length)
    out.push(
      fc.constantFrom(...badQuery).map((pair) =>
        reject(`bad-query-${pair[0]}`, {
          query: [...valid.query.filter(([k]) => k !== pair[0]), pair],
        }),
      ),
    );
  out.push(
    fc
      .tuple(fc.constantFrom(...NASTY_STRINGS, 'page'), fc.constantFrom('1', ...NASTY_STRINGS))
      .map(([k, v]) => survive('odd-query', { query: [...valid.query, [k, v]] })),
  );

  if (op.auth !== 'none') {
    const faults: AuthFault[] =
      op.auth === 'hmac'
        ? [
            'missing',
            'wrong-secret',
            'uppercase-signature',
            'replayed-nonce',
            'garbage-nonce',
            'other-url-signed',
            'unknown-key',
          ]
        : op.auth === 'merchant-or-public'
          ? ['wrong-token'] // no credentials at all is the public read; wrong ones are still refused
          : ['missing', 'wrong-token'];
    out.push(
      fc
        .constantFrom(...faults)
        .map((auth) => ({ ...valid, kind: `auth-${auth}`, auth, expect: 'unauthorized' as const })),
    );
    if (op.auth === 'control')
      out.push(
        fc.constant({
          ...valid,
          kind: 'auth-foreign-origin',
          auth: 'foreign-origin' as const,
          expect: 'forbidden' as const,
        }),
      );
  }
  const tenants = [...(world?.workspaces.values() ?? [])];
  if (op.operationId === 'createTransfer' && tenants.length && world) {
    // Money never crosses tenants: a workspace app cannot pay a base-data customer, nor the reverse.
    const base = world.fixtures.customers.map((c) => c.email);
    const crossTenant = fc
      .tuple(fc.constantFrom(...tenants), fc.boolean(), fc.constantFrom(...base))
      .map(([ws, fromWorkspace, baseEmail]) =>
        fromWorkspace
          ? reject('cross-tenant-transfer', {
              signWith: ws.app,
              body: { ...body, account: ws.account, target_address: baseEmail },
            })
          : reject('cross-tenant-transfer', {
              body: { ...body, target_address: ws.customerEmail },
            }),
      );
    out.push(crossTenant, crossTenant, crossTenant, crossTenant); // a quarter of this operation's invalid cases
  }
  return fc.oneof(...out);
}
