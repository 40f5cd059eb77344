import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';

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
  const rows = log.body.requests.map((r: { path: string; auth: string; status: number }) => [r.path, r.status, r.auth]);
  expect(rows).toEqual([
    ['/v3/invoices/', 200, `merchant:${t.merchant.id}`],
    ['/v3/invoices/', 401, 'invalid_token'],
    ['/v3/crypto-accounts/', 401, 'invalid_access_key'],
    ['/v3/crypto-accounts/', 401, 'invalid_signature'],
    ['/v3/crypto-accounts/', 200, `hmac:${t.fixtures.developers[0]!.app.api_key}`],
  ]);
});
