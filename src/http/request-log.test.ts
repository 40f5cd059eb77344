import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { createRequestLog, EXCERPT_BYTES } from './request-log.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

it('logs each API request with its path as sent and the outcome of its credentials', async () => {
  await t.signed('GET', '/v3/crypto-accounts/');
  await t.signed('GET', '/v3/crypto-accounts/', { secret: 'wrong' });
  await t.signed('GET', '/v3/crypto-accounts/', { key: 'unknown' });
  await t.request('GET', '/v3/invoices/', { token: 'bad' });
  await t.request('GET', '/v3/invoices/', { token: t.merchant.merchant_api_token });
  const log = await t.request('GET', '/_sandbox/requests?per_page=5');
  const rows = log.body.requests.map((r: { path: string; auth: string; status: number }) => [
    r.path,
    r.status,
    r.auth,
  ]);
  expect(rows).toEqual([
    ['/v3/invoices/', 200, `merchant:${t.merchant.id}`],
    ['/v3/invoices/', 401, 'invalid_token'],
    ['/v3/crypto-accounts/', 401, 'invalid_access_key'],
    ['/v3/crypto-accounts/', 401, 'invalid_signature'],
    ['/v3/crypto-accounts/', 200, `hmac:${t.fixtures.developers[0]!.app.api_key}`],
  ]);
});

it('keeps the newest entries once full, newest first, with offsets', async () => {
  const { Hono } = await import('hono');
  const { createClock } = await import('../shared/clock.js');
  const log = createRequestLog(3);
  const app = new Hono();
  app.use('*', log.middleware(createClock({ realNowMs: () => 1_700_000_000_000 })) as never);
  app.get('/n/:n', (c) => c.text('ok'));
  for (let n = 1; n <= 5; n++) await app.request(`http://localhost/n/${n}`);
  const all = log.page(10, 0);
  expect(all.total).toBe(3);
  expect(all.items.map((e) => [e.id, e.path])).toEqual([
    [5, '/n/5'],
    [4, '/n/4'],
    [3, '/n/3'],
  ]);
  expect(all.items[0]!.at).toMatch(/^2023-11-14T22:13:20\.\d{6}Z$/);
  expect(Object.keys(all.items[0]!)).toEqual([
    'id',
    'at',
    'method',
    'path',
    'operation_id',
    'status',
    'auth',
    'duration_ms',
    'query',
    'body_excerpt',
    'fault',
  ]);
  expect(log.page(1, 1).items.map((e) => e.id)).toEqual([4]);
  expect(log.page(5, 3).items).toEqual([]);
});

it('keeps paths of any length and any characters', async () => {
  const { Hono } = await import('hono');
  const { createClock } = await import('../shared/clock.js');
  const log = createRequestLog(2);
  const app = new Hono();
  app.use('*', log.middleware(createClock()) as never);
  app.get('*', (c) => c.text('ok'));
  const long = '/p/' + 'x'.repeat(2000);
  const accented = '/p/%C3%B1o%F0%9F%87%B5%F0%9F%87%AD';
  await app.request(`http://localhost${accented}`);
  await app.request(`http://localhost${long}`);
  await app.request(`http://localhost/short`);
  expect(log.page(5, 0).items.map((e) => e.path)).toEqual(['/short', long]);
  expect(createRequestLog(1).page(1, 0)).toEqual({ total: 0, items: [] });
  const again = createRequestLog(3);
  const app2 = new Hono();
  app2.use('*', again.middleware(createClock()) as never);
  app2.get('*', (c) => c.text('ok'));
  await app2.request(`http://localhost${accented}`);
  expect(again.page(1, 0).items[0]!.path).toBe(accented);
});

it('keeps the query string and the start of the body an operation read, both cut to a bound', async () => {
  await t.request('GET', '/v1/invoices/?page=2&status=pending', {
    token: t.merchant.merchant_api_token,
  });
  const long = 'ñ'.repeat(400); // 800 bytes of two-byte characters: cut on a character boundary
  await t.request('POST', '/v1/invoices/', {
    token: t.merchant.merchant_api_token,
    body: { amount: 10, currency: 'PHP', external_transaction_id: 'log-1', description: long },
  });
  await t.request('GET', `/v1/invoices/?q=${'x'.repeat(1000)}`, {
    token: t.merchant.merchant_api_token,
    operationId: false,
  });
  await t.request('GET', '/_sandbox/', { operationId: false }); // the dashboard and its poll are not logged
  await t.request('GET', '/_sandbox/dashboard/state', { operationId: false });
  const [cut, post, get] = (await t.request('GET', '/_sandbox/requests?per_page=3')).body.requests;
  expect(get).toMatchObject({
    path: '/v1/invoices/',
    query: 'page=2&status=pending',
    body_excerpt: null,
  });
  expect(post.query).toBeNull();
  expect(
    post.body_excerpt.startsWith(
      '{"amount":10,"currency":"PHP","external_transaction_id":"log-1","description":"ñññ',
    ),
  ).toBe(true);
  expect(Buffer.byteLength(post.body_excerpt)).toBeLessThanOrEqual(EXCERPT_BYTES);
  expect(post.body_excerpt).not.toContain('\uFFFD');
  expect(cut.query).toBe(`q=${'x'.repeat(EXCERPT_BYTES - 2)}`);
});
