import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
afterEach(() => t?.close());

const addFault = (body: Record<string, unknown>) => t.request('POST', '/_sandbox/faults', { body });
const requests = async () =>
  (await t.request('GET', '/_sandbox/requests')).body.requests as Array<Record<string, unknown>>;

describe('a fault says what it hits (docs/faults.md)', () => {
  it.each(['/v3/invoices/**', '/v3/invoices/*', '/v3/invoices'])(
    '%s fires on POST /v3/invoices/',
    async (path) => {
      t = createTestApp();
      const { fault } = (await addFault({ method: 'POST', path, status: 503 })).body;
      const res = await t.request('POST', '/v3/invoices/', {
        token: t.merchant.merchant_api_token,
        body: { amount: 1, currency: 'PHP' },
        operationId: false,
      });
      expect(res.status).toBe(503);
      expect((await t.request('GET', '/_sandbox/faults')).body.faults[0]).toMatchObject({
        id: fault.id,
        hits: 1,
      });
    },
  );

  it('refuses a glob that matches no served path with a 400 naming the nearest paths, and adds nothing', async () => {
    t = createTestApp();
    const res = await addFault({ path: '/v3/invoice/*' });
    expect(res.status).toBe(400);
    expect(res.body.error_codes).toEqual(['validation_error']);
    expect(res.body.errors.path[0]).toMatch(/matches no path the sandbox serves/);
    // Suggested as globs that match: a path parameter is the `*` of a glob.
    expect(res.body.errors.path[0]).toContain('`/v3/invoices/*`');
    expect(res.body.errors.path[0].split('Nearest:')[1]).not.toMatch(/[{:]/);
    for (const path of ['/nope/**', '/_sandbox/**', '/docs', 'v1/invoices']) {
      expect((await addFault({ path })).status, path).toBe(400);
    }
    expect((await t.request('GET', '/_sandbox/faults')).body.faults).toEqual([]);
    // Served paths beyond the document: the hosted page, /healthz; and a glob inside an id.
    for (const path of [
      '/payment/invoice/*',
      '/healthz',
      '/v1/invoices/abc*',
      '/api/v3/**',
      '/**/sellorder',
    ]) {
      expect((await addFault({ path })).status, path).toBe(201);
    }
  });

  // Paths in another spelling (the documentation's `{param}`, a route's `:param`, a query or a
  // fragment) that no request path can match, each refused with what to write instead.
  it.each([
    ['/v3/invoices/{invoice_id}', /write `\*` for a path parameter \(`\/v3\/invoices\/\*`\)/],
    ['/v3/invoices/:invoice_id', /write `\*` for a path parameter \(`\/v3\/invoices\/\*`\)/],
    ['/v1/invoices/{id}/**', /`\/v1\/invoices\/\*\/\*\*`/],
    ['/v3/invoices/?status=pending', /never a query string .*`\/v3\/invoices\/`/],
    ['/v3/invoices/?', /never a query string/],
    ['/v3/invoices/#x', /never a fragment .*`\/v3\/invoices\/`/],
  ])('refuses %s with a 400 on `path` saying what to write', async (path, message) => {
    t = createTestApp();
    const res = await addFault({ path, status: 418 });
    expect(res.status).toBe(400);
    expect(res.body.error_codes).toEqual(['validation_error']);
    expect(res.body.errors.path[0]).toMatch(message);
    expect((await t.request('GET', '/_sandbox/faults')).body.faults).toEqual([]);
  });

  it('suggests in "Nearest" only globs that the API accepts and that match a served path', async () => {
    t = createTestApp();
    const res = await addFault({ path: '/v3/invocies/**' });
    const nearest = [...String(res.body.errors.path[0]).matchAll(/`([^`]+)`/g)].map(
      (m) => m[1] ?? '',
    );
    expect(nearest).toContain('/v3/invoices/*');
    for (const path of nearest) expect((await addFault({ path })).status, path).toBe(201);
  });

  it.each([
    ['DELETE', '/v3/invoices', 400],
    ['PUT', '/v1/invoices/*', 400],
    ['POST', '/healthz', 400],
    ['DELETE', '/v1/buyorder/*', 201],
    ['GET', '/v3/invoices', 201],
    ['POST', '/v3/invoices/**', 201],
    ['*', '/v3/invoices', 201],
  ])(
    '%s %s: a method no operation on the path answers is a 400 on `method` → %i',
    async (method, path, status) => {
      t = createTestApp();
      const res = await addFault({ method, path });
      expect(res.status).toBe(status);
      if (status === 400) {
        expect(res.body.errors.method[0]).toMatch(new RegExp(`answers ${method} on a path`));
        expect((await t.request('GET', '/_sandbox/faults')).body.faults).toEqual([]);
      }
    },
  );

  it('lists hits and the last request hit', async () => {
    t = createTestApp();
    const { fault } = (await addFault({ path: '/v1/invoices/*', status: 502 })).body;
    expect(fault).toMatchObject({ hits: 0, last_hit: null });
    await t.request('GET', `/v1/invoices/${'a'.repeat(32)}`, { operationId: false });
    await t.request('GET', `/v1/invoices/${'b'.repeat(32)}/`, { operationId: false });
    const listed = (await t.request('GET', '/_sandbox/faults')).body.faults[0];
    expect(listed).toMatchObject({
      hits: 2,
      last_hit: { method: 'GET', path: `/v1/invoices/${'b'.repeat(32)}/` },
    });
    expect(listed.last_hit.at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
  });

  it('marks the request in the log: which fault, the auth it would have had, the body excerpt', async () => {
    t = createTestApp();
    const { fault } = (await addFault({ method: 'POST', path: '/v1/invoices', status: 503 })).body;
    const body = { amount: 5, currency: 'PHP', external_transaction_id: 'logged-1' };
    await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      body,
      operationId: false,
    });
    await t.request('POST', '/v1/invoices/', {
      headers: { authorization: 'Token wrong' },
      body,
      operationId: false,
    });
    await t.request('GET', '/healthz', { operationId: false });
    const [health, wrong, right] = await requests();
    expect(health).toMatchObject({ path: '/healthz', fault: null });
    expect(wrong).toMatchObject({ status: 503, fault: fault.id, auth: 'invalid_token' });
    // The operation the fault stood in for, so a filter by operation finds faulted calls too.
    expect(wrong?.operation_id).toBe('createInvoiceV1');
    expect(right?.operation_id).toBe('createInvoiceV1');
    expect(health?.operation_id).toBe('getHealth');
    expect(right).toMatchObject({
      status: 503,
      fault: fault.id,
      auth: `merchant:${t.merchant.id}`,
    });
    expect(JSON.parse(right!.body_excerpt as string)).toEqual(body);
    expect((t.db.prepare('SELECT COUNT(*) AS n FROM invoices').get() as { n: number }).n).toBe(0);
  });

  it('names the HMAC key of a faulted signed request without using up its nonce', async () => {
    t = createTestApp();
    const key = t.fixtures.developers[0]!.app.api_key;
    const { fault } = (await addFault({ path: '/v3/crypto-accounts', status: 500, count: 1 })).body;
    const nonce = String(BigInt(Date.now()) * 10_000n);
    expect(
      (await t.signed('GET', '/v3/crypto-accounts/', { nonce, operationId: false })).status,
    ).toBe(500);
    expect((await requests())[0]).toMatchObject({
      fault: fault.id,
      auth: `hmac:${key} (signature not checked)`,
    });
    expect((await t.signed('GET', '/v3/crypto-accounts/', { nonce })).status).toBe(200);
    expect((await requests())[0]).toMatchObject({ fault: null, auth: `hmac:${key}` });
  });

  it('marks a latency-only fault while the request keeps its real auth outcome', async () => {
    t = createTestApp();
    const { fault } = (await addFault({ path: '/v1/invoices/*', latency_ms: 1 })).body;
    await t.request('GET', `/v1/invoices/${'a'.repeat(32)}`, {
      token: t.merchant.merchant_api_token,
      operationId: false,
    });
    expect((await requests())[0]).toMatchObject({
      status: 404,
      fault: fault.id,
      auth: `merchant:${t.merchant.id}`,
    });
  });
});
