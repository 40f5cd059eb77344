import fc from 'fast-check';
import { bodyMutations } from './fuzz.invalid-body.js';
import type { AuthFault, Draft } from './fuzz.request.js';
import type { FuzzWorld } from './fuzz.world.js';
import { flatten, NASTY_STRINGS, type Resolve, type Schema } from './schema.arbitrary.js';

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

  if (schema) out.push(...bodyMutations(valid, body, schema, resolve, { reject, survive }));

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
