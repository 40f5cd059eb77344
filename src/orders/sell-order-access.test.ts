import { afterEach, describe, expect, it } from 'vitest';
import { parseAmount } from '../shared/money.js';
import { as, balanceOf, newDeveloper } from '../testing/developer.test-support.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
afterEach(() => t.close());

const bpi = () => t.fixtures.payout_outlets[0]?.id ?? '';
const ORDER = { amount: '500', currency: 'PHP', pay_with_wallet: 'PBTC' };
const UNAUTHORIZED = { message: 'Unauthorized', status: 401, success: false };

async function bearerOf(apiKey: string): Promise<{ authorization: string }> {
  const res = await t.request('POST', `/_sandbox/apps/${apiKey}/tokens`, { body: {} });
  expect(res.status).toBe(201);
  return { authorization: `Bearer ${res.body.access_token}` };
}

describe('HMAC sell orders need a business account (errors.har#3, #8)', () => {
  it('refuses a non-business app: 404 on create (nothing debited), the recorded 401 on every read', async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '5000', business: false });
    for (const path of ['/api/v2/sellorder/', '/v1/sellorder']) {
      const res = await t.signed('POST', path, {
        ...as(dev),
        body: { ...ORDER, payment_outlet: bpi() },
      });
      expect([res.status, res.body.errors], path).toEqual([
        404,
        { non_field_errors: ['Not found.'] },
      ]);
      expect(res.body.sandbox_debug).toMatchObject({ code: 'not_found' });
      expect(res.body.sandbox_debug.hint).toMatch(/business account/);
    }
    expect(balanceOf(t, dev.php)).toBe(parseAmount('5000'));
    for (const path of [
      `/api/v2/sellorder/${'0'.repeat(32)}?sellorder_id=${'0'.repeat(32)}`,
      `/v1/sellorder/${'0'.repeat(32)}`,
      '/api/v2/sellorder/?limit=5&offset=0',
      '/v1/sellorder?limit=10&offset=0',
    ]) {
      const res = await t.signed('GET', path, as(dev));
      expect(res.status, path).toBe(401);
      expect(res.body, path).toMatchObject(UNAUTHORIZED);
      expect(res.body.sandbox_debug.code, path).toBe('business_account_required');
    }
  });

  it('lets the same non-business app use sell orders with OAuth2, and a business app with HMAC', async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '5000', business: false });
    const headers = await bearerOf(dev.app.api_key);
    const created = await t.request('POST', '/api/v2/sellorder/', {
      headers,
      body: { ...ORDER, payment_outlet: bpi() },
    });
    expect(created.status).toBe(201);
    const read = await t.request('GET', `/v1/sellorder/${created.body.order.id}`, { headers });
    expect([read.status, read.body.order]).toEqual([200, created.body.order]);
    const business = newDeveloper(t, { php: '5000' });
    const signed = await t.signed('POST', '/api/v2/sellorder/', {
      ...as(business),
      body: { ...ORDER, payment_outlet: bpi() },
    });
    expect(signed.status).toBe(201);
  });

  it('makes a non-business app through the control API and shows the flag', async () => {
    t = createTestApp();
    const made = await t.request('POST', '/_sandbox/apps', { body: { business_account: false } });
    expect(made.status).toBe(201);
    expect(made.body.app).toMatchObject({
      business_account: false,
      daily_buy_limit: null,
    });
    const res = await t.signed('GET', '/v1/sellorder', {
      key: made.body.app.api_key,
      secret: made.body.app.api_secret,
    });
    expect(res.status).toBe(401);
    const plain = await t.request('POST', '/_sandbox/apps', { body: {} });
    expect(plain.body.app.business_account).toBe(true);
  });

  it('sends exactly the recorded bodies with --no-debug-errors', async () => {
    t = createTestApp({ config: { debugErrors: false } });
    const dev = newDeveloper(t, { php: '5000', business: false });
    const read = await t.signed('GET', '/v1/sellorder', as(dev));
    expect([read.status, read.body]).toEqual([401, UNAUTHORIZED]);
    const created = await t.signed('POST', '/api/v2/sellorder/', {
      ...as(dev),
      body: { ...ORDER, payment_outlet: bpi() },
    });
    expect([created.status, created.body]).toEqual([
      404,
      { errors: { non_field_errors: ['Not found.'] } },
    ]);
  });
});

describe('GET /api/v2/sellorder/{id}/ with the trailing slash (errors.har#6)', () => {
  it('answers 404 as the real service did, and the order without the slash', async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '5000' });
    const created = await t.signed('POST', '/api/v2/sellorder/', {
      ...as(dev),
      body: { ...ORDER, payment_outlet: bpi() },
    });
    const id = created.body.order.id as string;
    const slashed = await t.signed('GET', `/api/v2/sellorder/${id}/?sellorder_id=${id}`, as(dev));
    expect([slashed.status, slashed.body.errors]).toEqual([
      404,
      { non_field_errors: ['Not found.'] },
    ]);
    expect(slashed.body.sandbox_debug.hint).toMatch(/trailing slash/);
    for (const path of [`/api/v2/sellorder/${id}?sellorder_id=${id}`, `/v2/sellorder/${id}`]) {
      const res = await t.signed('GET', path, as(dev));
      expect([res.status, res.body.order], path).toEqual([200, created.body.order]);
    }
    // The v1 retrieve keeps both spellings (no evidence of a 404 there).
    const v1 = await t.signed('GET', `/v1/sellorder/${id}/`, as(dev));
    expect(v1.status).toBe(200);
  });
});
