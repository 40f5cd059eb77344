import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { compileGlob } from './faults.service.js';
import { errorCode } from '../testing/error-code.js';

let t: TestApp;
afterEach(() => t?.close());

/** Random numbers from a fixed list, so probability tests are deterministic. */
function sequence(...values: number[]) {
  let i = 0;
  return () => values[i++ % values.length]!;
}

const getInvoice = (id = 'a'.repeat(32)) =>
  t.request('GET', `/v1/invoices/${id}`, {
    token: t.merchant.merchant_api_token,
    operationId: false,
  });
const createInvoice = () =>
  t.request('POST', '/v1/invoices/', {
    token: t.merchant.merchant_api_token,
    body: { amount: 1, currency: 'PHP', external_transaction_id: `f-${t.services.ids()}` },
    operationId: false,
  });
const addFault = (body: Record<string, unknown>) => t.request('POST', '/_sandbox/faults', { body });

describe('path globs', () => {
  it('`*` stays within a segment, `**` crosses segments, trailing slashes do not matter', () => {
    const one = compileGlob('/v1/invoices/*');
    expect(one.test('/v1/invoices/abc')).toBe(true);
    expect(one.test('/v1/invoices/abc/x')).toBe(false);
    const any = compileGlob('/v3/**');
    expect(any.test('/v3/invoices/abc/x')).toBe(true);
    expect(any.test('/v1/invoices')).toBe(false);
    expect(compileGlob('/v3/invoices/').test('/v3/invoices')).toBe(true);
    expect(compileGlob('/v1/a.b(c)').test('/v1/aXb(c)')).toBe(false);
  });
});

describe('faults', () => {
  it('injects the default envelope with status 500 and counts hits', async () => {
    t = createTestApp();
    const res = await addFault({ path: '/v1/invoices/*' });
    expect(res.status).toBe(201);
    expect(res.body.fault).toMatchObject({
      method: '*',
      path: '/v1/invoices/*',
      status: 500,
      hits: 0,
    });
    const hit = await getInvoice();
    expect(hit.status).toBe(500);
    expect(hit.body).toEqual({
      error_codes: ['injected_fault'],
      errors: { non_field_errors: ['Injected fault.'] },
    });
    expect(hit.headers.get('x-sandbox-fault')).toBe(res.body.fault.id);
    await getInvoice();
    const list = await t.request('GET', '/_sandbox/faults');
    expect(list.body.faults).toEqual([expect.objectContaining({ id: res.body.fault.id, hits: 2 })]);
  });

  it('answers with the given status and body, only for the given method', async () => {
    t = createTestApp();
    await addFault({
      method: 'POST',
      path: '/v1/invoices',
      status: 503,
      body: { detail: 'maintenance' },
    });
    const post = await createInvoice();
    expect(post.status).toBe(503);
    expect(post.body).toEqual({ detail: 'maintenance' });
    expect((await getInvoice()).status).toBe(404);
    expect((t.db.prepare('SELECT COUNT(*) AS n FROM invoices').get() as { n: number }).n).toBe(0);
  });

  it('stops after `count` injections and stays listed, exhausted, with its hits, until removed', async () => {
    t = createTestApp();
    const { fault } = (await addFault({ path: '/v1/invoices/**', status: 502, count: 2 })).body;
    expect(fault).toMatchObject({ state: 'active', count: 2, hits: 0, last_hit: null });
    expect((await getInvoice()).status).toBe(502);
    expect((await t.request('GET', '/_sandbox/faults')).body.faults[0]).toMatchObject({
      state: 'active',
      count: 1,
      hits: 1,
    });
    expect((await getInvoice('b'.repeat(32))).status).toBe(502);
    expect((await getInvoice()).status).toBe(404);
    const [used] = (await t.request('GET', '/_sandbox/faults')).body.faults;
    expect(used).toMatchObject({
      id: fault.id,
      state: 'exhausted',
      count: 0,
      hits: 2,
      last_hit: { method: 'GET', path: `/v1/invoices/${'b'.repeat(32)}` },
    });
    expect((await t.request('DELETE', `/_sandbox/faults/${fault.id}`)).status).toBe(204);
    expect((await t.request('GET', '/_sandbox/faults')).body.faults).toEqual([]);
  });

  it('honours probability with the injected random source', async () => {
    t = createTestApp({ random: sequence(0.9, 0.1, 0.5, 0.29) });
    await addFault({ path: '/v1/**', probability: 0.3 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await getInvoice()).status);
    expect(statuses).toEqual([404, 500, 404, 500]);
    expect((await t.request('GET', '/_sandbox/faults')).body.faults[0].hits).toBe(2);
  });

  it('delays by latency_ms; a latency-only fault then answers normally', async () => {
    t = createTestApp();
    const res = await addFault({ method: 'GET', path: '/v1/invoices/*', latency_ms: 5 });
    expect(res.body.fault.status).toBeUndefined();
    const slow = await getInvoice();
    expect(slow.status).toBe(404);
    expect(errorCode(slow.body)).toBe('not_found');
    expect(slow.headers.get('x-sandbox-fault')).toBe(res.body.fault.id);
    await addFault({ path: '/v1/invoices', latency_ms: 1, status: 504 });
    expect((await createInvoice()).status).toBe(504);
  });

  it('never touches the control API, even with a catch-all glob', async () => {
    t = createTestApp();
    await addFault({ path: '/**' });
    expect((await t.request('GET', '/_sandbox/clock')).status).toBe(200);
    expect((await t.request('GET', '/_sandbox/faults')).status).toBe(200);
    expect((await t.request('GET', '/_sandbox/', { operationId: false })).status).toBe(200);
    expect((await getInvoice()).status).toBe(500);
    // The readiness check is left alone by a wildcard; only a fault that names it takes it down.
    expect((await t.request('GET', '/healthz', { operationId: false })).status).toBe(200);
    await addFault({ path: '/healthz', status: 503 });
    expect((await t.request('GET', '/healthz', { operationId: false })).status).toBe(503);
  });

  it('answers a 204 fault with no body', async () => {
    t = createTestApp();
    await addFault({ path: '/v1/invoices/*', status: 204 });
    const res = await getInvoice();
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
  });

  it('DELETE clears every fault', async () => {
    t = createTestApp();
    await addFault({ path: '/v1/**' });
    await addFault({ path: '/v3/**' });
    expect((await t.request('DELETE', '/_sandbox/faults')).status).toBe(204);
    expect((await t.request('GET', '/_sandbox/faults')).body.faults).toEqual([]);
    expect((await getInvoice()).status).toBe(404);
  });

  it.each([
    [{}, 'path', 'This field is required.'],
    [{ path: '' }, 'path', 'This field may not be blank.'],
    [
      { path: '/x', method: 'TRACE' },
      'method',
      '"TRACE" is not a method a fault takes: one of *, GET, POST, PUT, PATCH, DELETE (upper case).',
    ],
    [
      { path: '/x', method: 'get' },
      'method',
      '"get" is not a method a fault takes: one of *, GET, POST, PUT, PATCH, DELETE (upper case).',
    ],
    [{ path: '/x', status: 99 }, 'status', 'Ensure this value is greater than or equal to 200.'],
    [{ path: '/x', status: 101 }, 'status', 'Ensure this value is greater than or equal to 200.'],
    [{ path: '/x', status: 600 }, 'status', 'Ensure this value is less than or equal to 599.'],
    [{ path: '/x', count: 0 }, 'count', 'Ensure this value is greater than or equal to 1.'],
    [
      { path: '/x', probability: 1.5 },
      'probability',
      'Ensure this value is less than or equal to 1.',
    ],
    [
      { path: '/x', latency_ms: -1 },
      'latency_ms',
      'Ensure this value is greater than or equal to 0.',
    ],
    [
      { path: '/v1/invoices/**', latency: 2000 },
      'latency',
      'Unknown field. Did you mean `latency_ms`? A fault takes method, path, status, body, latency_ms, count, probability.',
    ],
    [
      { path: '/v1/invoices/**', bogus: 1 },
      'bogus',
      'Unknown field. A fault takes method, path, status, body, latency_ms, count, probability.',
    ],
    [
      { path: '/v1/invoices/**', status: 204, body: { a: 1 } },
      'body',
      'A 204 response has no body: remove `body` or choose another status.',
    ],
  ])('refuses %j with a field error on %s', async (body, field, message) => {
    t = createTestApp();
    const res = await addFault(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error_codes: ['validation_error'], errors: { [field]: [message] } });
    expect((await t.request('GET', '/_sandbox/faults')).body.faults).toEqual([]);
  });
});

describe('GET /_sandbox/requests (listRequests)', () => {
  it('lists recent requests newest first with their auth outcome, paged', async () => {
    t = createTestApp();
    await getInvoice();
    await t.request('GET', '/v1/invoices/abc', {
      headers: { authorization: 'Token wrong' },
      operationId: false,
    });
    await t.signed('GET', '/v3/crypto-accounts/');
    const res = await t.request('GET', '/_sandbox/requests?per_page=2');
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ total_count: 3, next_page: 2, previous_page: null });
    expect(res.body.requests[0]).toMatchObject({
      method: 'GET',
      status: 200,
      operation_id: 'listCryptoAccounts',
    });
    expect(res.body.requests[0].path).toMatch(/^\/v3\/crypto-accounts\/?$/);
    expect(res.body.requests[0].auth).toBe(`hmac:${t.fixtures.developers[0]!.app.api_key}`);
    expect(res.body.requests[1]).toMatchObject({ path: '/v1/invoices/abc', status: 401 });
    const page2 = await t.request('GET', '/_sandbox/requests?per_page=2&page=2');
    expect(page2.body.requests[0]).toMatchObject({
      status: 404,
      auth: `merchant:${t.merchant.id}`,
    });
    const page0 = await t.request('GET', '/_sandbox/requests?page=0');
    expect(page0.status).toBe(400);
    expect(page0.body).toEqual({
      error_codes: ['validation_error'],
      errors: { page: ['Ensure this value is greater than or equal to 1.'] },
    });
  });

  it('logs injected faults too', async () => {
    t = createTestApp();
    await addFault({ path: '/v1/**', status: 503 });
    await getInvoice();
    const res = await t.request('GET', '/_sandbox/requests');
    expect(
      res.body.requests.find((r: { path: string }) => r.path.startsWith('/v1/')),
    ).toMatchObject({ status: 503 });
  });
});
